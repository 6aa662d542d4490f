package world

import (
	"crypto/rand"
	"fmt"
	"time"

	"gridlag/internal/names"
	"gridlag/protocol"
)

// DefaultResume is how long cmd/gridlag keeps a dropped player's avatar
// for its resume token unless told otherwise. The Core takes
// Config.Resume as given: 0 turns resuming off.
const DefaultResume = 30 * time.Second

// MaxResume bounds Config.Resume: the Welcome carries it in whole seconds,
// in 16 bits.
const MaxResume = 65535 * time.Second

// Drop reports that connection id is gone for reason (for the record)
// without its player asking to leave: a network blip, a closed laptop
// lid, a client too slow or gone quiet. With Config.Resume set, a player
// keeps its avatar in the world (standing still, blocking its cell) until
// the window ends, and the token of its last Welcome brings it back on a
// new connection (see Receive with a protocol.Resume); after the window it
// leaves as with Disconnect. A spectator, or any connection without a
// token, goes as with Disconnect. Unknown IDs are ignored.
func (c *Core) Drop(now time.Duration, id ConnID, reason string) {
	c.begin()
	cl := c.conns[id]
	if cl == nil {
		return
	}
	if cl.phase != phaseJoined || cl.token.IsZero() {
		c.Disconnect(now, id, reason)
		return
	}
	delete(c.conns, id)
	cl.away = true
	cl.awayUntil = now + c.cfg.Resume
	cl.awayReason = reason
	if c.awayN == 0 || cl.awayUntil < c.awayDue {
		c.awayDue = cl.awayUntil
	}
	c.awayN++
	c.events = append(c.events, Event{Kind: EventAway, Conn: id, Player: cl.player, Name: cl.info.Name, Bot: cl.bot, Reason: reason})
}

// expire takes out of the world every dropped player whose window ended
// by now. It runs on every message, so it walks the players only when a
// window ends (awayDue).
func (c *Core) expire(now time.Duration) {
	if c.awayN == 0 || now < c.awayDue {
		return
	}
	c.awayDue = 0
	first := true
	for _, cl := range c.slots {
		if cl == nil || !cl.away {
			continue
		}
		if now < cl.awayUntil {
			if first || cl.awayUntil < c.awayDue {
				c.awayDue, first = cl.awayUntil, false
			}
			continue
		}
		c.awayN--
		c.leaveWorld(now, cl, fmt.Sprintf("did not come back within %v after %s", c.cfg.Resume, cl.awayReason))
	}
}

// HasToken reports whether t is the resume token of one of this Core's
// players, joined or away: a Resume with it would bring that player back.
func (c *Core) HasToken(t protocol.Token) bool {
	_, ok := c.tokens[t]
	return ok
}

// issue gives cl a new resume token, if resuming is on, in place of its
// last one.
func (c *Core) issue(cl *client) {
	if c.cfg.Resume <= 0 {
		return
	}
	delete(c.tokens, cl.token)
	rand.Read(cl.token[:]) // never fails (Go 1.24+); 128 bits from the system's generator
	c.tokens[cl.token] = cl
}

// resume handles a Resume: the avatar bound to the token comes back on
// this connection, with a new token, its ID, cell and input numbering.
// If the avatar's old connection is still open on this side (half-open:
// the client saw it break, the server has not yet), that one is closed in
// favour of the new.
func (c *Core) resume(now time.Duration, cl *client, r *protocol.Resume) {
	if !c.versionOK(cl, r.Version) {
		return
	}
	av := c.tokens[r.Token]
	if av == nil {
		c.refuse(cl, protocol.ErrCodeResume, fmt.Sprintf(
			"resume refused: the token is unknown, already used or expired (avatars are kept %v after a drop); join again", c.cfg.Resume))
		return
	}
	from := av.conn
	if av.away {
		av.away = false
		c.awayN--
	} else {
		// The old connection stays known, closed, until the adapter
		// reports it gone.
		c.conns[from] = &client{conn: from, phase: phaseClosed}
		c.sendClose(from, &protocol.Bye{Reason: "resumed on another connection"})
	}
	// The avatar's client and its entry in the world are kept whole, so
	// whatever a player has (its cell, its input numbering, a score) comes
	// back with it; only the connection changes.
	av.conn = cl.conn
	av.version = cl.version                     // the map follows in the form the new connection reads
	av.ranked, av.toldWinner = av.ranked[:0], 0 // the client's names went with the old connection
	av.rtt = rttMeter{}
	av.trace, av.staged = false, av.staged[:0] // a resumed client asks again (protocol.Trace)
	c.conns[cl.conn] = av
	c.issue(av)
	c.stats.Resumes++
	c.events = append(c.events, Event{Kind: EventResume, Conn: av.conn, From: from, Player: av.player, Name: av.info.Name, Bot: av.bot, Version: av.version})
	c.welcome(av)
	// A full picture of its area, with a Join for each player in it: what
	// it knew went with the old connection.
	av.area.reset()
	c.sendOwnState(now, av)
	c.tellProtected(now, av, av)
	c.tellScores(now) // its points and a freeze come back with it
}

// Resync makes the next State to connection id, if it plays, a full
// picture of its area with a Join for each player in it, as after a
// resume: the adapter skipped States for a client too far behind to take
// them (it is sent the newest instead of a backlog), so what the skipped
// ones told is unknown to it.
func (c *Core) Resync(id ConnID) {
	if cl := c.conns[id]; cl != nil && cl.phase == phaseJoined {
		cl.area.reset()
	}
}

// TokenConn returns the connection of the player whose resume token t is
// (the one it dropped from, if it is away), if t is one of this Core's:
// the adapter counts a resume against the caps of the address it comes
// from, not that of the player's old connection.
func (c *Core) TokenConn(t protocol.Token) (ConnID, bool) {
	cl, ok := c.tokens[t]
	if !ok {
		return 0, false
	}
	return cl.conn, true
}

// AwayNamed returns the connection an away player (kept for resume)
// dropped from, if its name is or looks the same as name (names.Key):
// a newcomer with that name is refused while it is kept, unless the
// adapter releases it (ReleaseAway), as a server does for a newcomer from
// the same address.
func (c *Core) AwayNamed(name string) (ConnID, bool) {
	cl := c.names[names.Key(name)]
	if cl == nil || !cl.away {
		return 0, false
	}
	return cl.conn, true
}

// ReleaseAway ends the resume window of the away player whose name is or
// looks the same as name, for reason: it leaves the world now.
func (c *Core) ReleaseAway(now time.Duration, name, reason string) {
	c.begin()
	cl := c.names[names.Key(name)]
	if cl == nil || !cl.away {
		return
	}
	cl.away = false
	c.awayN--
	c.leaveWorld(now, cl, reason)
}
