package main

import (
	"fmt"
	"net"
	"net/http"
	"time"

	"gridlag/metrics"
)

// serveMetrics serves the exporter's /metrics and /debug/pprof/ on addr
// (-metrics) until the returned server is closed. The address is bound
// here, so that a busy port is an error at start.
func serveMetrics(addr string, exp *metrics.Exporter) (*http.Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("-metrics %s: %w", addr, err)
	}
	web := &http.Server{Handler: exp.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go web.Serve(ln)
	return web, nil
}
