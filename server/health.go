package server

import (
	"fmt"
	"time"

	"gridlag/server/world"
)

// LiveBeats is how many heartbeat intervals (Options.HeartbeatInterval)
// may pass without a beat from the goroutine that owns the world before
// the server counts as stalled: the rule of an Agones Fleet's health check
// (a ping each period from the world's beat, Unhealthy after
// failureThreshold 3 periods without one), which Health.Live applies to
// every other health check.
const LiveBeats = 3

// Health is what a health check asks of a server (Server.Health): whether
// the goroutine that owns the world still beats, and whether the server
// takes new players.
type Health struct {
	Serving  bool          // Serve has begun and Close has not
	Beat     time.Time     // the world's goroutine's last heartbeat, zero before Serve
	Interval time.Duration // between two heartbeats (Options.HeartbeatInterval)
	Draining string        // what Drain tells the clients now ("server stopping in 6 s"), "" unless draining

	Players, MaxPlayers int // players in the default room, and its cap
	Conns, MaxConns     int // connections open, and their cap (Options.MaxConns)

	// AtCapacity says why newcomers are refused for the ticks' cost
	// (hub.Hub.Load), "" while they are not.
	AtCapacity string
}

// Health returns the server's health now. It takes the server's lock for a
// moment, never the world's goroutine: a stuck world cannot hold it up.
func (s *Server) Health() Health {
	maxPlayers := s.opts.Hub.Config.MaxPlayers // as the Core's Config fills it in
	if maxPlayers == 0 {
		maxPlayers = world.DefaultMaxPlayers
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	h := Health{
		Serving: s.serving && !s.closed, Interval: s.opts.HeartbeatInterval,
		Players: s.published[""].Players, MaxPlayers: maxPlayers,
		Conns: len(s.live), MaxConns: s.opts.MaxConns,
	}
	if !s.drainEnd.IsZero() {
		h.Draining = s.stopNoticeLocked()
	}
	if s.load.Full {
		h.AtCapacity = s.load.Why()
	}
	if b := s.beat.Load(); b != 0 {
		h.Beat = time.Unix(0, b)
	}
	return h
}

// Live says whether the server is alive at now: serving, its world's
// goroutine beating within LiveBeats intervals. why says so in a few
// words either way ("ok", "stalled: ...").
func (h Health) Live(now time.Time) (ok bool, why string) {
	switch since := now.Sub(h.Beat); {
	case !h.Serving:
		return false, "not serving"
	case since > LiveBeats*h.Interval:
		return false, fmt.Sprintf("stalled: the world's last heartbeat was %v ago, more than %d beats of %v",
			since.Round(time.Millisecond), LiveBeats, h.Interval)
	}
	return true, "ok"
}

// Ready says whether the server takes new players at now: alive, not
// draining, not at capacity, and neither its default room nor its
// connections at their cap. why says so in a few words either way.
func (h Health) Ready(now time.Time) (ok bool, why string) {
	if live, why := h.Live(now); !live {
		return false, why
	}
	switch {
	case h.Draining != "":
		return false, "draining: " + h.Draining
	case h.AtCapacity != "":
		return false, h.AtCapacity
	case h.Players >= h.MaxPlayers:
		return false, fmt.Sprintf("full: %d of %d players", h.Players, h.MaxPlayers)
	case h.Conns >= h.MaxConns:
		return false, fmt.Sprintf("full: %d of %d connections", h.Conns, h.MaxConns)
	}
	return true, fmt.Sprintf("ready: %d of %d players, %d of %d connections", h.Players, h.MaxPlayers, h.Conns, h.MaxConns)
}
