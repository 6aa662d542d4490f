package metrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"gridlag/server/hub"
)

// WatchLoad adds the gauges of admission by load that load reads at each
// scrape (server.Server.Load): what the last second's ticks cost, from
// when they were due until their frames were in the sockets (their 90th
// percentile, the figure the server's -tick-budget is held against),
// the budget, the members (players and spectators) the budget holds by
// the server's estimate (0 while nothing limits them), and whether
// newcomers are refused "server full: at capacity" now (1) or not (0).
func (e *Exporter) WatchLoad(load func() hub.LoadNow) {
	gauge := func(name, help string, v func(hub.LoadNow) float64) prometheus.Collector {
		return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, func() float64 { return v(load()) })
	}
	e.reg.MustRegister(
		gauge("gridlag_tick_cost_seconds", "What the last second's ticks cost, from when they were due until their frames were in the sockets (90th percentile).",
			func(l hub.LoadNow) float64 { return l.Cost.Seconds() }),
		gauge("gridlag_tick_budget_seconds", "The tick budget (-tick-budget): past it newcomers are refused; 0 = off.",
			func(l hub.LoadNow) float64 { return l.Budget.Seconds() }),
		gauge("gridlag_capacity_members", "Players and spectators the tick budget holds by the server's estimate; 0 while nothing limits them.",
			func(l hub.LoadNow) float64 { return float64(l.Capacity) }),
		gauge("gridlag_at_capacity", "1 while newcomers are refused \"server full: at capacity\", else 0.",
			func(l hub.LoadNow) float64 {
				if l.Full {
					return 1
				}
				return 0
			}),
	)
}
