package world

import (
	"time"

	"gridlag/grid"
	"gridlag/protocol"
)

// PlayerOverview is one player as the server sees it: what spectators are
// shown, and what a lab draws on its "Server" board.
type PlayerOverview struct {
	ID    grid.PlayerID
	Name  string // as the player sent it; sanitise it before display
	Color uint8
	Bot   bool
	Pos   grid.Pos
	Ack   uint32        // the last input number the server processed for the player
	RTT   time.Duration // the smoothed round trip the server measured; see HasRTT
	// HasRTT is false until the server has measured a round trip (the
	// Core's Ping, answered).
	HasRTT bool
	// Frozen: tagged, waiting to respawn. Protected: under spawn
	// protection (Config.Protect) until ProtectedUntil, on the Core's
	// clock.
	Frozen         bool
	Protected      bool
	ProtectedUntil time.Duration
}

// Overview appends every player in the world, sorted by ID, to dst: the
// server's view that spectators get over the wire, read straight from the
// Core, as of now (for spawn protection). The tick it belongs to is
// Stats().Ticks.
func (c *Core) Overview(now time.Duration, dst []PlayerOverview) []PlayerOverview {
	for _, cl := range c.slots {
		if cl == nil {
			continue
		}
		pos, _ := c.world.Pos(cl.player)
		rtt, ok := cl.rtt.rtt()
		until, protected := c.protectedUntil(cl, now)
		dst = append(dst, PlayerOverview{
			ID: cl.player, Name: cl.info.Name, Color: cl.info.Color, Bot: cl.bot,
			Pos: pos, Ack: cl.lastSeq, RTT: rtt, HasRTT: ok,
			Frozen: cl.frozenUntil != 0, Protected: protected, ProtectedUntil: until,
		})
	}
	return dst
}

// overview builds the Overview message of this moment. It lists the
// players with the lowest IDs, at most protocol.MaxOverviewPlayers (one
// frame's worth); Total counts them all.
func (c *Core) overview(now time.Duration) *protocol.Overview {
	c.facts = c.Overview(now, c.facts[:0])
	o := c.overviews.get()
	o.Tick = c.tick
	o.TimeNS = uint64(max(now, 0))
	o.Total = uint16(len(c.facts))
	o.Players = o.Players[:0]
	for _, f := range c.facts[:min(len(c.facts), protocol.MaxOverviewPlayers)] {
		o.Players = append(o.Players, protocol.OverviewPlayer{
			ID: f.ID, Bot: f.Bot, Pos: f.Pos, Ack: f.Ack, RTTMS: rttMS(f.RTT, f.HasRTT),
		})
	}
	return o
}

// showSpectators sends every spectator the Overview of this moment; in a
// crowd (a room of QuietFloor players or more), every SpectatorEvery
// ticks: an Overview is the whole room, the most bytes a tick sends.
func (c *Core) showSpectators(now time.Duration) {
	if len(c.spectators) == 0 || c.count >= QuietFloor && c.tick%SpectatorEvery != 0 {
		return
	}
	o := c.overview(now)
	for _, s := range c.spectators {
		c.stats.Overviews++
		c.send(s.conn, o)
	}
}
