package metrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"gridlag/server"
)

// WatchGate adds the gauges of the loop's hold on the joins, which works
// while the line is off (server.Server.Gate): how many newcomers' Hellos
// it holds for the ticks' spare time, and whether it takes none now
// because the ticks are late.
func (e *Exporter) WatchGate(gate func() server.GateNow) {
	e.reg.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "gridlag_joins_held",
			Help: "Newcomers whose Hello the server holds for the ticks' spare time (without a line, -join-wait)."},
			func() float64 { return float64(gate().Held) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "gridlag_joins_stopped",
			Help: "1 while the server takes no join because its ticks are late (without a line), else 0."},
			func() float64 {
				if gate().Behind {
					return 1
				}
				return 0
			}),
	)
}
