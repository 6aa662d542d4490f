package metrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"gridlag/server/hub"
)

// roomCollector reads every open room's gauges at each scrape, labelled
// with the room's name ("" for the default room). The label is bounded:
// a server opens at most -max-rooms rooms, and a closed room's series go
// with it.
type roomCollector struct {
	rooms      func() []hub.RoomStats
	open       *prometheus.Desc
	players    *prometheus.Desc
	spectators *prometheus.Desc
}

// WatchRooms adds the gauges of the rooms that rooms reads at each scrape
// (server.Server.Rooms): gridlag_rooms, how many are open, and each one's
// gridlag_room_players and gridlag_room_spectators, labelled room.
func (e *Exporter) WatchRooms(rooms func() []hub.RoomStats) {
	e.reg.MustRegister(&roomCollector{
		rooms:      rooms,
		open:       prometheus.NewDesc("gridlag_rooms", "Rooms open, the default room included.", nil, nil),
		players:    prometheus.NewDesc("gridlag_room_players", "Players in a room's world.", []string{"room"}, nil),
		spectators: prometheus.NewDesc("gridlag_room_spectators", "Spectators watching a room.", []string{"room"}, nil),
	})
}

// Describe implements prometheus.Collector.
func (c *roomCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.open
	ch <- c.players
	ch <- c.spectators
}

// Collect implements prometheus.Collector.
func (c *roomCollector) Collect(ch chan<- prometheus.Metric) {
	rooms := c.rooms()
	ch <- prometheus.MustNewConstMetric(c.open, prometheus.GaugeValue, float64(len(rooms)))
	for _, r := range rooms {
		ch <- prometheus.MustNewConstMetric(c.players, prometheus.GaugeValue, float64(r.Stats.Players), r.Name)
		ch <- prometheus.MustNewConstMetric(c.spectators, prometheus.GaugeValue, float64(r.Stats.Spectators), r.Name)
	}
}
