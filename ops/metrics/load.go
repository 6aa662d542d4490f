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
// newcomers are refused "server full: at capacity" now (1) or not (0);
// and the line's: how many wait, its pace, what a join costs, and its
// counters.
func (e *Exporter) WatchLoad(load func() hub.LoadNow) {
	gauge := func(name, help string, v func(hub.LoadNow) float64) prometheus.Collector {
		return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, func() float64 { return v(load()) })
	}
	counter := func(name, help string, v func(hub.LoadNow) uint64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help}, func() float64 { return float64(v(load())) })
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
		gauge("gridlag_line_waiting", "Newcomers waiting in line now (-line-wait, -line-max).",
			func(l hub.LoadNow) float64 { return float64(l.Line.Waiting) }),
		gauge("gridlag_line_pace", "Joins a second the ticks' headroom let in over the last 10 s: the pace of the line.",
			func(l hub.LoadNow) float64 { return l.Line.Pace }),
		gauge("gridlag_line_headroom", "Places the measured capacity leaves for the line once the server has been at capacity for a second (those past it wait for members to leave); -1 before.",
			func(l hub.LoadNow) float64 { return float64(l.Line.Headroom) }),
		gauge("gridlag_join_cost_seconds", "What one join costs the server, measured apart from the ticks: the line is paced on it.",
			func(l hub.LoadNow) float64 { return l.Line.JoinCost.Seconds() }),
		counter("gridlag_line_entered_total", "Newcomers who took a place in line.",
			func(l hub.LoadNow) uint64 { return l.Line.Entered }),
		counter("gridlag_line_admitted_total", "Newcomers let in from the line.",
			func(l hub.LoadNow) uint64 { return l.Line.Admitted }),
		counter("gridlag_line_refused_total", "Newcomers refused a place in line or put out of it: the wait would pass -line-wait (told as soon as the estimate says so), or the line was full.",
			func(l hub.LoadNow) uint64 { return l.Line.Refused }),
		counter("gridlag_line_left_total", "Newcomers who left the line before their turn.",
			func(l hub.LoadNow) uint64 { return l.Line.Left }),
	)
}
