package metrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"gridlag/server"
)

// roomCollector reads every open room's gauges at each scrape, labelled
// with the room's name ("" for the default room). The label is bounded:
// a server opens at most -max-rooms rooms, and a closed room's series go
// with it.
type roomCollector struct {
	rooms      func() []server.RoomStats
	players    *prometheus.Desc
	spectators *prometheus.Desc
}

// WatchRooms adds the gauges of each room that rooms reads at each scrape
// (server.Server.Rooms): gridlag_room_players and
// gridlag_room_spectators, labelled room.
func (e *Exporter) WatchRooms(rooms func() []server.RoomStats) {
	e.reg.MustRegister(&roomCollector{
		rooms:      rooms,
		players:    prometheus.NewDesc("gridlag_room_players", "Players in a room's world.", []string{"room"}, nil),
		spectators: prometheus.NewDesc("gridlag_room_spectators", "Spectators watching a room.", []string{"room"}, nil),
	})
}

// Describe implements prometheus.Collector.
func (c *roomCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.players
	ch <- c.spectators
}

// Collect implements prometheus.Collector.
func (c *roomCollector) Collect(ch chan<- prometheus.Metric) {
	for _, r := range c.rooms() {
		ch <- prometheus.MustNewConstMetric(c.players, prometheus.GaugeValue, float64(r.Stats.Players), r.Name)
		ch <- prometheus.MustNewConstMetric(c.spectators, prometheus.GaugeValue, float64(r.Stats.Spectators), r.Name)
	}
}
