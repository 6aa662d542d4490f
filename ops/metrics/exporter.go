package metrics

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"gridlag/server"
	"gridlag/server/world"
)

// TickBuckets are the upper bounds of the tick duration histogram, in
// seconds: 0.1 ms to 50 ms (a tick at 20 Hz has 50 ms in all) closely
// enough to read a p50 and a p99 against a budget, and on to 1 s to tell
// how far an overloaded server is behind.
var TickBuckets = []float64{0.0001, 0.00025, 0.0005, 0.001, 0.0015, 0.002, 0.003, 0.004, 0.005, 0.0075, 0.01, 0.015, 0.02, 0.035, 0.05, 0.1, 0.25, 0.5, 1}

// Exporter is a server.Metrics that Prometheus scrapes. Create it with
// New, give it to the server (server.Options.Metrics), then Watch the
// server.
type Exporter struct {
	reg       *prometheus.Registry
	tick      prometheus.Histogram
	framesOut prometheus.Counter
	bytesOut  prometheus.Counter
	writes    prometheus.Counter
	written   prometheus.Counter
	skipped   prometheus.Counter
	refused   *prometheus.CounterVec
	left      *prometheus.CounterVec
}

var _ server.Metrics = (*Exporter)(nil)

// New returns an exporter with the process's and the Go runtime's metrics
// (CPU, resident memory, goroutines, garbage collection) and the server's
// own, every reason kind starting at 0.
func New() *Exporter {
	e := &Exporter{
		reg: prometheus.NewRegistry(),
		tick: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "gridlag_tick_duration_seconds", Help: "Time an update tick takes in the server's loop: the Core's tick, encoding and queuing its frames.",
			Buckets: TickBuckets,
		}),
		framesOut: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "gridlag_frames_out_total", Help: "Frames queued for the clients' writers.",
		}),
		bytesOut: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "gridlag_bytes_out_total", Help: "Bytes of the frames queued for the clients' writers.",
		}),
		writes: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "gridlag_socket_writes_total", Help: "Write system calls to the clients' sockets (a client's frames queued together go in one).",
		}),
		written: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "gridlag_socket_written_bytes_total", Help: "Bytes the clients' sockets took.",
		}),
		skipped: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "gridlag_states_skipped_total", Help: "States not sent to clients behind, which get the newest as a full picture once they caught up.",
		}),
		refused: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gridlag_refusals_total", Help: "Connections refused before they joined or watched, by kind of reason.",
		}, []string{"reason"}),
		left: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "gridlag_disconnections_total", Help: "Players and spectators whose connection ended, by kind of reason.",
		}, []string{"reason"}),
	}
	for _, k := range server.ReasonKinds() {
		e.refused.WithLabelValues(k)
		e.left.WithLabelValues(k)
	}
	e.reg.MustRegister(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}), collectors.NewGoCollector(),
		e.tick, e.framesOut, e.bytesOut, e.writes, e.written, e.skipped, e.refused, e.left)
	return e
}

// Watch adds the gauges and counters that stats reads at each scrape
// (server.Server.Stats): players, bots, spectators, connections, ticks,
// joins and leaves, inputs processed and refused, States sent.
func (e *Exporter) Watch(stats func() world.Stats) {
	gauge := func(name, help string, v func(world.Stats) int) prometheus.Collector {
		return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, func() float64 { return float64(v(stats())) })
	}
	counter := func(name, help string, v func(world.Stats) uint64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help}, func() float64 { return float64(v(stats())) })
	}
	e.reg.MustRegister(
		gauge("gridlag_players", "Players in the world.", func(s world.Stats) int { return s.Players }),
		gauge("gridlag_bots", "Players in the world who said they are bots.", func(s world.Stats) int { return s.Bots }),
		gauge("gridlag_spectators", "Spectators watching.", func(s world.Stats) int { return s.Spectators }),
		gauge("gridlag_connections", "Connections the server's core knows: from their first message until they end.", func(s world.Stats) int { return s.Connections }),
		counter("gridlag_ticks_total", "Update ticks.", func(s world.Stats) uint64 { return s.Ticks }),
		counter("gridlag_joins_total", "Players who joined.", func(s world.Stats) uint64 { return s.Joins }),
		counter("gridlag_leaves_total", "Players who left.", func(s world.Stats) uint64 { return s.Leaves }),
		counter("gridlag_inputs_processed_total", "Inputs processed (moved, blocked or over the speed limit).", func(s world.Stats) uint64 { return s.InputsProcessed }),
		counter("gridlag_inputs_refused_total", "Inputs refused as duplicate or out of order.", func(s world.Stats) uint64 { return s.InputsRefused }),
		counter("gridlag_states_sent_total", "State messages produced.", func(s world.Stats) uint64 { return s.StatesSent }),
	)
}

// Tick implements server.Metrics.
func (e *Exporter) Tick(took time.Duration) { e.tick.Observe(took.Seconds()) }

// Sent implements server.Metrics.
func (e *Exporter) Sent(frames, bytes int) {
	e.framesOut.Add(float64(frames))
	e.bytesOut.Add(float64(bytes))
}

// Wrote implements server.Metrics.
func (e *Exporter) Wrote(writes, bytes int) {
	e.writes.Add(float64(writes))
	e.written.Add(float64(bytes))
}

// Skipped implements server.Metrics.
func (e *Exporter) Skipped(states int) {
	if states > 0 {
		e.skipped.Add(float64(states))
	}
}

// Refused implements server.Metrics.
func (e *Exporter) Refused(kind string) { e.refused.WithLabelValues(kind).Inc() }

// Left implements server.Metrics.
func (e *Exporter) Left(kind string) { e.left.WithLabelValues(kind).Inc() }

// Handler serves the metrics in Prometheus' text format (/metrics of
// Routes.Handler).
func (e *Exporter) Handler() http.Handler {
	return promhttp.HandlerFor(e.reg, promhttp.HandlerOpts{})
}
