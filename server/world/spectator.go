package world

import (
	"fmt"
	"slices"
	"time"

	"gridlag/protocol"
)

// A spectator is a connection that opened with Spectate: it watches the
// world without a player of its own. It takes no player slot (its own cap
// is Config.MaxSpectators), gets Spectating, the roster as Joins and
// Leaves and one Overview per tick (per processed input in immediate
// mode), and from version 6 the room's Ranking as it comes and whenever
// a player gets one, may Ping and say Bye, and is closed with an Error
// if it sends an Input.

// watch handles a Spectate, the first message of a spectator.
func (c *Core) watch(now time.Duration, cl *client, s *protocol.Spectate) {
	if !c.versionOK(cl, s.Version) {
		return
	}
	if err := protocol.CheckName(s.Name); err != nil {
		c.refuse(cl, protocol.ErrCodeName, "name refused: "+err.Error())
		return
	}
	if len(c.spectators) >= c.cfg.MaxSpectators {
		c.refuse(cl, protocol.ErrCodeFull, fmt.Sprintf("spectators full: %d of %d", len(c.spectators), c.cfg.MaxSpectators))
		return
	}
	cl.phase = phaseWatching
	cl.info = protocol.PlayerInfo{Name: s.Name}
	c.spectators = append(c.spectators, cl)
	c.events = append(c.events, Event{Kind: EventWatch, Conn: cl.conn, Name: s.Name, Version: cl.version})
	c.send(cl.conn, &protocol.Spectating{
		UpdateRate: uint16(c.cfg.Rate),
		MoveTimeMS: uint16(c.cfg.MoveTime / time.Millisecond),
		Burst:      uint8(c.cfg.Burst),
		MapWidth:   uint16(c.cfg.Map.Width()),
		MapHeight:  uint16(c.cfg.Map.Height()),
		Cells:      c.cells,
	})
	c.sendMap(cl)
	for _, o := range c.slots {
		if o != nil {
			c.send(cl.conn, &protocol.Join{Player: o.info})
			c.tellProtected(now, cl, o)
		}
	}
	o := c.overview(now) // the world at once, not at the next tick
	c.stats.Overviews++
	c.send(cl.conn, o)
	c.tellWatcherRanking(now, cl)
}

// unwatch ends a spectator's watch.
func (c *Core) unwatch(cl *client, reason string) {
	c.spectators = slices.DeleteFunc(c.spectators, func(s *client) bool { return s == cl })
	c.events = append(c.events, Event{Kind: EventUnwatch, Conn: cl.conn, Name: cl.info.Name, Reason: reason})
}

// Watching reports whether connection id is a spectator, watching.
func (c *Core) Watching(id ConnID) bool {
	cl := c.conns[id]
	return cl != nil && cl.phase == phaseWatching
}
