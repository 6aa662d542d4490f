package metrics

import (
	"fmt"
	"net/http"
	"net/http/pprof"
	"strings"
	"time"

	"gridlag/server"
)

// Routes are what one HTTP address of a server serves: -metrics serves the
// metrics and the health checks (and the profiler with -pprof), -health
// the health checks alone.
type Routes struct {
	// Metrics, if not nil, is served at /metrics.
	Metrics *Exporter
	// Health, if not nil, answers /healthz and /readyz (server.Health's
	// Live and Ready): 200 or 503, with one line of plain text saying why.
	Health func() server.Health
	// Profiler serves the Go profiler at /debug/pprof/. It is off unless
	// asked for: it shows the command line and the code, and a profile
	// costs CPU, to anyone who reaches the address.
	Profiler bool
	// Now is the health checks' clock; nil is time.Now.
	Now func() time.Time
}

// Handler serves the routes, and at / a plain list of them. Other paths
// are 404.
func (r Routes) Handler() http.Handler {
	mux := http.NewServeMux()
	var paths []string
	if r.Metrics != nil {
		mux.Handle("GET /metrics", r.Metrics.Handler())
		paths = append(paths, "/metrics")
	}
	if r.Health != nil {
		now := r.Now
		if now == nil {
			now = time.Now
		}
		mux.Handle("GET /healthz", probe(func() (bool, string) { return r.Health().Live(now()) }))
		mux.Handle("GET /readyz", probe(func() (bool, string) { return r.Health().Ready(now()) }))
		paths = append(paths, "/healthz", "/readyz")
	}
	if r.Profiler {
		mux.HandleFunc("GET /debug/pprof/", pprof.Index)
		mux.HandleFunc("GET /debug/pprof/cmdline", pprof.Cmdline)
		mux.HandleFunc("GET /debug/pprof/profile", pprof.Profile)
		mux.HandleFunc("GET /debug/pprof/symbol", pprof.Symbol)
		mux.HandleFunc("GET /debug/pprof/trace", pprof.Trace)
		paths = append(paths, "/debug/pprof/")
	}
	index := "gridlag: " + strings.Join(paths, " ") + "\n"
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) { plain(w, http.StatusOK, index) })
	return mux
}

// probe answers a health check: 200 when check says ok, else 503, and
// why in one line of plain text either way.
func probe(check func() (ok bool, why string)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		ok, why := check()
		code := http.StatusOK
		if !ok {
			code = http.StatusServiceUnavailable
		}
		w.Header().Set("Cache-Control", "no-store")
		plain(w, code, why+"\n")
	})
}

// plain writes text as a plain text answer with code.
func plain(w http.ResponseWriter, code int, text string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(code)
	fmt.Fprint(w, text)
}

// The HTTP server's limits (NewHTTPServer). A scrape or a probe sends a
// few hundred bytes of headers and no body, and its answer takes
// milliseconds; a client that holds a connection open without a request,
// or sends its headers a byte at a time, is closed.
const (
	ReadHeaderTimeout = 5 * time.Second
	ReadTimeout       = 10 * time.Second
	WriteTimeout      = 10 * time.Second
	// ProfilerWriteTimeout replaces WriteTimeout with the profiler on:
	// a CPU profile or a trace answers after its seconds (30 by
	// default), up to a minute.
	ProfilerWriteTimeout = 70 * time.Second
	// IdleTimeout closes a keep-alive connection that sends no new
	// request for this long: a little more than a scrape every 15 s, far
	// less than forever.
	IdleTimeout    = 20 * time.Second
	MaxHeaderBytes = 8 << 10
)

// NewHTTPServer returns an HTTP server of h with the limits above; with
// the profiler on (Routes.Profiler), answers may take a minute.
func NewHTTPServer(h http.Handler, profiler bool) *http.Server {
	write := WriteTimeout
	if profiler {
		write = ProfilerWriteTimeout
	}
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: ReadHeaderTimeout,
		ReadTimeout:       ReadTimeout,
		WriteTimeout:      write,
		IdleTimeout:       IdleTimeout,
		MaxHeaderBytes:    MaxHeaderBytes,
	}
}
