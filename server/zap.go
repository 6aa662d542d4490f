package server

import (
	"time"

	"gridlag/grid"
	"gridlag/protocol"
)

// What belongs where in zap tag: package grid holds the pure rules (the
// beam's Trace, facing, the cooldown, the winner of a round); the Core
// holds what needs time and memory: every player's trail of cells for lag
// compensation, who is frozen until when, the points, the round's clock.

// ZapRecord is how the Core judged one zap: the last one is kept for a
// viewer (Core.LastZap).
type ZapRecord struct {
	At      time.Duration // when the server judged it
	Shooter grid.PlayerID
	Outcome protocol.ZapOutcome
	// Target is the tagged player for a hit, the player the shooter saw in
	// line for ZapLeft, 0 otherwise.
	Target grid.PlayerID
	Rewind time.Duration // how far back the other players were put (0 without lag compensation)
	Seen   grid.Pos      // where the shooter saw the target (hit or ZapLeft)
	Beam   grid.Beam     // the beam as the server traced it
}

// Hit reports whether the zap tagged its target.
func (z ZapRecord) Hit() bool { return z.Outcome == protocol.ZapHit }

// LastZap returns the last zap the Core judged; ok is false before any.
func (c *Core) LastZap() (z ZapRecord, ok bool) { return c.lastZap, c.stats.Zaps > 0 }

// SetLagComp turns lag compensation on or off from now on.
func (c *Core) SetLagComp(on bool) { c.cfg.LagComp = on }

// zap processes one numbered zap: it is acknowledged like a move whatever
// it does.
func (c *Core) zap(now time.Duration, cl *client, z *protocol.Zap) {
	if !c.accept(now, cl, z.Seq) {
		return
	}
	c.stats.Zaps++
	from, _ := c.world.Pos(cl.player)
	rec := ZapRecord{At: now, Shooter: cl.player, Beam: grid.Beam{From: from, Dir: c.world.Facing(cl.player), Stop: grid.StopRange}}
	switch {
	case cl.frozenUntil != 0:
		rec.Outcome = protocol.ZapFrozen
	case !cl.gun.Fire(int64(now)):
		rec.Outcome = protocol.ZapCooldown
	default:
		rec = c.judge(now, cl, time.Duration(min(z.RenderNS, uint64(now))), rec)
	}
	c.lastZap = rec
	c.send(cl.conn, &protocol.ZapResult{
		Seq: z.Seq, Outcome: rec.Outcome, Target: rec.Target, RewindMS: wireMS(rec.Rewind),
		From: rec.Beam.From, Dir: rec.Beam.Dir, Len: uint8(rec.Beam.Len),
	})
	if rec.Hit() {
		c.tag(now, cl, c.slots[rec.Target], rec)
	}
	if c.cfg.Rate == 0 {
		c.sendOwnState(now, cl) // the acknowledgement
		c.showSpectators(now)
	}
}

// judge traces the beam of a zap fired at now by a client showing the
// world at server time seen: against the other players rewound to seen
// (within Unlag) with lag compensation, where they are now without.
func (c *Core) judge(now time.Duration, cl *client, seen time.Duration, rec ZapRecord) ZapRecord {
	if c.cfg.LagComp {
		rec.Rewind = min(now-seen, c.cfg.Unlag)
	}
	c.targets = c.targets[:0]
	if rec.Rewind > 0 {
		c.targets = c.seenAt(c.targets, cl.player, now-rec.Rewind)
	} else {
		c.targets = c.present(c.targets, cl.player)
	}
	rec.Beam = grid.Trace(c.cfg.Map, rec.Beam.From, rec.Beam.Dir, c.targets)
	switch rec.Beam.Stop {
	case grid.StopPlayer:
		rec.Outcome, rec.Target = protocol.ZapHit, rec.Beam.Target
		rec.Seen = rec.Beam.End()
		return rec
	case grid.StopWall:
		rec.Outcome = protocol.ZapWall
	default:
		rec.Outcome = protocol.ZapRange
	}
	// Was someone in line in the world the shooter saw? Then the shot
	// missed because that player had left the line since.
	c.targets = c.seenAt(c.targets[:0], cl.player, seen)
	if b := grid.Trace(c.cfg.Map, rec.Beam.From, rec.Beam.Dir, c.targets); b.Stop == grid.StopPlayer {
		rec.Outcome, rec.Target = protocol.ZapLeft, b.Target
		rec.Seen = b.End()
	}
	return rec
}

// tag scores a hit of shooter on target: a point, and the target frozen.
func (c *Core) tag(now time.Duration, shooter, target *client, rec ZapRecord) {
	c.stats.Tags++
	shooter.points++
	target.frozenUntil = now + time.Duration(grid.FreezeTime)
	if c.thawAt == 0 || target.frozenUntil < c.thawAt {
		c.thawAt = target.frozenUntil
	}
	if !target.away {
		c.send(target.conn, &protocol.Tagged{By: shooter.player, Seen: rec.Seen, AgoMS: wireMS(rec.Rewind), FrozenMS: wireMS(time.Duration(grid.FreezeTime))})
	}
	c.tellScores(now)
}

// thaw respawns every frozen player whose time is up (see respawnCell).
// It reports whether anyone thawed. It runs on every message, so it walks
// the players only when one is due (thawAt).
func (c *Core) thaw(now time.Duration) bool {
	if c.thawAt == 0 || now < c.thawAt {
		return false
	}
	c.thawAt = 0
	thawed := false
	for _, cl := range c.slots {
		if cl == nil || cl.frozenUntil == 0 {
			continue
		}
		if cl.frozenUntil > now {
			if c.thawAt == 0 || cl.frozenUntil < c.thawAt {
				c.thawAt = cl.frozenUntil
			}
			continue
		}
		cl.frozenUntil = 0
		if p, ok := c.respawnCell(); ok {
			c.world.Place(cl.player, p)
		}
		thawed = true
		c.stats.Respawns++
	}
	return thawed
}

// respawnCell is where a thawed player comes back: a free cell spread over
// the map as bots' spawns are, never a human spawn cell. Not where it
// joined: whoever tagged it there would still be in line, and would tag it
// again the moment it thawed.
func (c *Core) respawnCell() (grid.Pos, bool) {
	c.respawns++
	return c.spawnNear(botAnchor(c.cfg.Map, c.respawns), true)
}

// wireMS returns d in whole milliseconds as a 16-bit wire field, saturated.
func wireMS(d time.Duration) uint16 {
	return uint16(min(max(d, 0)/time.Millisecond, 65535))
}
