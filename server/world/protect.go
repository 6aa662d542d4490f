package world

import (
	"slices"
	"time"

	"gridlag/protocol"
)

// Spawn protection (Config.Protect): for a while after a player joins or
// respawns, no zap tags it (see standingAt), so that nobody is tagged the
// moment they arrive, nor again the moment they come back. Everyone is
// shown it: a client of version 4 is told with a Protect when it joins or
// respawns, of every protected player it is introduced to (after its
// Join), and of every player that respawns in its area of interest; a
// spectator of version 4, of every player. A client of version 3 is told
// nothing new: its bytes are those of a server without protection.

// protectOf returns the Protect that says until when p is protected, and
// whether it is at now.
func (c *Core) protectOf(p *client, now time.Duration) (*protocol.Protect, bool) {
	until, on := c.protectedUntil(p, now)
	if !on {
		return nil, false
	}
	return &protocol.Protect{ID: p.player, UntilNS: uint64(until)}, true
}

// tellProtected tells to of p's protection, if p is protected and to
// speaks version 4.
func (c *Core) tellProtected(now time.Duration, to, p *client) {
	if to.version < 4 {
		return
	}
	if m, on := c.protectOf(p, now); on {
		c.send(to.conn, m)
	}
}

// tellSpawned tells cl, after its State of the broadcast under way, of the
// protection of the players whose life began with it: itself, and those
// in its area of interest it was not just introduced to (sendState told
// it of those).
func (c *Core) tellSpawned(now time.Duration, cl *client) {
	if cl.version < 4 || len(c.spawned) == 0 || c.cfg.Protect == 0 {
		return
	}
	if len(c.spawnedIn) != len(c.spawned) { // once a broadcast: where they stand
		for _, id := range c.spawned {
			c.spawnedIn = append(c.spawnedIn, c.cur.bucketOf(id))
		}
	}
	for i, id := range c.spawned {
		if id != cl.player && (!cl.area.r.has(c.spawnedIn[i], c.cur.cols) || slices.Contains(c.met, id)) {
			continue
		}
		c.tellProtected(now, cl, c.slots[id])
	}
}

// showSpawned tells every spectator of version 4 of the protection of the
// players whose life the broadcast under way began.
func (c *Core) showSpawned(now time.Duration) {
	for _, id := range c.spawned {
		for _, s := range c.spectators {
			c.tellProtected(now, s, c.slots[id])
		}
	}
}
