package server

import (
	"strings"
	"time"
)

// Metrics receives the TCP server's measurements as they happen, for an
// exporter such as package metrics (Prometheus). The server knows only
// this interface, so that it, and everything that embeds a Core, stays free
// of any exporter's dependency; gauges and counts the Core keeps are read
// from Server.Stats instead. The methods are called from the server's
// goroutines, mostly its loop: they must be safe for concurrent use and
// must not block, as the tick waits for them.
type Metrics interface {
	// Tick reports how long an update tick took in the loop: the rooms'
	// ticks, encoding their frames and queuing them for the writers.
	Tick(took time.Duration)
	// Sent reports frames queued for the writers, and their bytes.
	Sent(frames, bytes int)
	// Wrote reports what a writer handed to the sockets in one pass over
	// its connections: its write system calls (a write or a writev,
	// whatever the socket took of it, once a client's frames of a tick
	// are written together) and the bytes they wrote. The writer
	// goroutines call it.
	Wrote(writes, bytes int)
	// Skipped reports States not queued for clients behind: one queued
	// before was not written yet, and the next is a full picture.
	Skipped(states int)
	// Refused reports a connection refused before it joined or watched,
	// or ended before its first message (silent, malformed, closed), by
	// the kind of its reason (one of ReasonKinds).
	Refused(kind string)
	// Left reports a player or spectator whose connection ended, by the
	// kind of its reason (one of ReasonKinds).
	Left(kind string)
}

// noMetrics is the Metrics of a server given none.
type noMetrics struct{}

func (noMetrics) Tick(time.Duration) {}
func (noMetrics) Sent(int, int)      {}
func (noMetrics) Wrote(int, int)     {}
func (noMetrics) Skipped(int)        {}
func (noMetrics) Refused(string)     {}
func (noMetrics) Left(string)        {}

// reasonKinds sorts the server's reasons for refusing or ending a
// connection into a few kinds, by how the reason begins: a label an
// exporter can use without a label per address, player or number.
var reasonKinds = []struct{ prefix, kind string }{
	{"said bye", "bye"},
	{"client error", "client_error"},
	{"connection closed", "closed"},
	{"too slow", "slow"},
	{"flooding", "flood"},
	{"silent for", "timeout"},
	{"no Hello within", "timeout"},
	{"malformed frame", "malformed"},
	{"protocol violation", "violation"},
	{"expected Hello or Spectate", "violation"},
	{"read error", "io_error"},
	{"write error", "io_error"},
	{"protocol version", "version"},
	{"name refused", "name"},
	{"room name refused", "name"},
	{"server full: at capacity: no place came within", "line_wait"},
	{"server full: at capacity", "capacity"},
	{"room full", "room_full"},
	{"server full", "full"},
	{"spectators full", "full"},
	{"server busy: your join waited", "join_wait"},
	{"server busy", "full"},
	{"rate limited", "rate"},
	{"unknown class code", "class_code"},
	{"too many", "per_address"},
}

// ReasonOther is the kind of a reason no other kind describes.
const ReasonOther = "other"

// ReasonKinds lists every kind ReasonKind returns, ReasonOther last.
func ReasonKinds() []string {
	var kinds []string
	seen := map[string]bool{}
	for _, k := range reasonKinds {
		if !seen[k.kind] {
			seen[k.kind] = true
			kinds = append(kinds, k.kind)
		}
	}
	return append(kinds, ReasonOther)
}

// ReasonKind returns the kind of a reason the server gives for refusing or
// ending a connection (an Event's Reason): "bye", "closed", "slow", "flood",
// "timeout", "full" and so on, or ReasonOther.
func ReasonKind(reason string) string {
	for _, k := range reasonKinds {
		if strings.HasPrefix(reason, k.prefix) {
			return k.kind
		}
	}
	return ReasonOther
}
