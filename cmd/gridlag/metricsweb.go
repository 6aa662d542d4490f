package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/charmbracelet/log"

	"gridlag/ops/metrics"
)

// opsFlags are the operator's flags: -health, -pprof and -summary (and
// -metrics, with the tools for scale).
type opsFlags struct {
	health  string
	pprof   bool
	summary time.Duration
	// changed are the settings that differ from their defaults, as the
	// start line's keys (the flags' names) and values; set by gameMain.
	changed []any
}

// define defines the flags in fs.
func (o *opsFlags) define(fs *flagSet) {
	fs.StringVar(&o.health, "health", "", "serve the health checks /healthz and /readyz (also on -metrics) on this address, e.g. :8080; off by default")
	fs.BoolVar(&o.pprof, "pprof", false, "with -metrics: serve the Go profiler at /debug/pprof/ there too (anyone who reaches the address sees the command line and can take profiles)")
	fs.duration(&o.summary, "summary", time.Minute, lengthKind, "log a summary line this often: players, spectators, rooms, joins and leaves, tick p50/p99, bytes and States out per second, refusals by reason; 0 = off")
}

// addressFlags are the flags of the addresses a game listens on: the start
// line names them with the address bound, not among the settings.
var addressFlags = map[string]bool{"addr": true, "ssh": true, "web": true, "metrics": true, "health": true}

// changedSettings returns the flags whose values differ from their
// defaults, as keys (the flag's name) and values in the order -help lists
// them, leaving out -server (the start line says it) and the addresses.
// With -server, -bots' default is 0.
func changedSettings(fs *flagSet, serve bool) []any {
	var kv []any
	fs.VisitAll(func(fl *flag.Flag) {
		def := fl.DefValue
		if fl.Name == "bots" && serve {
			def = "0"
		}
		if v := fl.Value.String(); fl.Name != "server" && !addressFlags[fl.Name] && v != def {
			kv = append(kv, fl.Name, v)
		}
	})
	return kv
}

// logStart logs the one start line of a game: its version, the addresses
// it listens on (by their flags' names), then every setting that differs
// from its default.
func logStart(logger *log.Logger, b buildInfo, listening, changed []any) {
	kv := append([]any{"version", b.String(), "go", b.goVer}, listening...)
	logger.Info("gridlag server", append(kv, changed...)...)
}

// serveWebs serves -metrics (the metrics, the health checks and, with
// -pprof, the profiler) and -health (the health checks) on their
// addresses, if given, and returns the addresses bound as the start
// line's keys and values.
func (g *game) serveWebs(f gameFlags, exp *metrics.Exporter) ([]any, error) {
	var bound []any
	for _, w := range []struct {
		name, addr string
		routes     metrics.Routes
	}{
		{"metrics", f.scale.metrics, metrics.Routes{Metrics: exp, Health: g.srv.Health, Profiler: f.ops.pprof}},
		{"health", f.ops.health, metrics.Routes{Health: g.srv.Health}},
	} {
		if w.addr == "" {
			continue
		}
		web, addr, err := serveWeb(w.name, w.addr, w.routes)
		if err != nil {
			return nil, err
		}
		g.webs = append(g.webs, web)
		bound = append(bound, w.name, addr.String())
	}
	return bound, nil
}

// summarise logs exp's summary every interval until g closes.
func (g *game) summarise(exp *metrics.Exporter, every time.Duration, logger *log.Logger) error {
	sum, err := exp.Summarizer(time.Now())
	if err != nil {
		return err
	}
	stop := make(chan struct{})
	g.summary = stop
	ticker := time.NewTicker(every)
	go func() {
		defer ticker.Stop()
		logSummaries(logger, sum, ticker.C, stop)
	}()
	return nil
}

// serveWeb serves routes on addr, the value of the flag -name, until the
// returned server is closed. The address is bound here, so that a busy
// port is an error at start; the address bound is returned.
func serveWeb(name, addr string, routes metrics.Routes) (*http.Server, net.Addr, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, nil, fmt.Errorf("-%s %s: %w", name, addr, err)
	}
	web := metrics.NewHTTPServer(routes.Handler(), routes.Profiler)
	go web.Serve(ln)
	return web, ln.Addr(), nil
}

// logSummaries logs sum's summary of each interval, at each time ticks
// gives, until stop is closed.
func logSummaries(logger *log.Logger, sum *metrics.Summarizer, ticks <-chan time.Time, stop <-chan struct{}) {
	for {
		select {
		case now := <-ticks:
			s, err := sum.Next(now)
			if err != nil {
				logger.Warn("summary", "err", err)
				continue
			}
			logSummary(logger, s)
		case <-stop:
			return
		}
	}
}

// logSummary logs one summary line.
func logSummary(logger *log.Logger, s metrics.Summary) {
	logger.Info("summary", s.KeyVals()...)
}
