package world

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
	// line for a miss that names one (ZapLeft, ZapProtected, ZapTagged),
	// 0 otherwise.
	Target grid.PlayerID
	Rewind time.Duration // how far back the other players were put (0 without lag compensation)
	Seen   grid.Pos      // where the shooter saw the target (when there is one)
	// Judged is where the target was in the world the server judged the
	// zap against: Seen with lag compensation, where the target had gone
	// since without (a miss: it had left the line).
	Judged grid.Pos
	Beam   grid.Beam // the beam as the server traced it
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
		c.stage(now, cl, z.Seq, protocol.StageFrozen)
	case !cl.gun.Fire(int64(now)):
		rec.Outcome = protocol.ZapCooldown
		c.stage(now, cl, z.Seq, protocol.StageCooldown)
	default:
		rec = c.judge(now, cl, time.Duration(min(z.RenderNS, uint64(now))), rec)
		c.stage(now, cl, z.Seq, protocol.StageZapped)
	}
	c.lastZap = rec
	res := &protocol.ZapResult{
		Seq: z.Seq, Outcome: rec.Outcome, Target: rec.Target, RewindMS: wireMS(rec.Rewind),
		From: rec.Beam.From, Dir: rec.Beam.Dir, Len: uint8(rec.Beam.Len),
	}
	if cl.version < 4 && (rec.Outcome == protocol.ZapProtected || rec.Outcome == protocol.ZapTagged) {
		// Outcomes of version 4: an older client is told what the beam met.
		res.Outcome, res.Target = beamOutcome(rec.Beam), 0
	}
	c.send(cl.conn, res)
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
// (within Unlag) with lag compensation, where they are now without. Only
// a player that could be tagged at the moment judged is in the beam's
// way (see standingAt): one frozen then, tagged since, or under spawn
// protection lets it through.
func (c *Core) judge(now time.Duration, cl *client, seen time.Duration, rec ZapRecord) ZapRecord {
	if c.cfg.LagComp {
		rec.Rewind = min(now-seen, c.cfg.Unlag)
	}
	at := now - rec.Rewind
	c.targets = c.lineup(c.targets[:0], cl.player, at, rec.Rewind > 0, true)
	rec.Beam = grid.Trace(c.cfg.Map, rec.Beam.From, rec.Beam.Dir, c.targets)
	if rec.Beam.Stop == grid.StopPlayer {
		rec.Outcome, rec.Target = protocol.ZapHit, rec.Beam.Target
		rec.Seen = rec.Beam.End()
		rec.Judged = rec.Seen
		return rec
	}
	rec.Outcome = beamOutcome(rec.Beam)
	// Was someone in line in the world the shooter saw? Then say why the
	// shot missed: that player had left the line since, was protected, or
	// was frozen (or tagged since).
	c.targets = c.lineup(c.targets[:0], cl.player, seen, true, false)
	b := grid.Trace(c.cfg.Map, rec.Beam.From, rec.Beam.Dir, c.targets)
	if b.Stop != grid.StopPlayer {
		return rec
	}
	rec.Target, rec.Seen = b.Target, b.End()
	rec.Judged = c.cellAt(c.slots[b.Target], at, rec.Rewind > 0)
	why := c.standingAt(c.slots[b.Target], seen)
	if why == standOpen {
		why = c.standingAt(c.slots[b.Target], at)
	}
	switch why {
	case standProtected:
		rec.Outcome = protocol.ZapProtected
	case standTagged:
		rec.Outcome = protocol.ZapTagged
	default:
		rec.Outcome = protocol.ZapLeft
	}
	return rec
}

// beamOutcome is the outcome of a beam that tagged nobody: what stopped it.
func beamOutcome(b grid.Beam) protocol.ZapOutcome {
	if b.Stop == grid.StopWall {
		return protocol.ZapWall
	}
	return protocol.ZapRange
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
		cl.spawning = true // its new life begins with the broadcast that shows it
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

// wireMS returns d in whole milliseconds, rounded to the nearest as every
// screen writes a time (client.Millis), as a 16-bit wire field, saturated.
func wireMS(d time.Duration) uint16 {
	return uint16(min(max(d, 0).Round(time.Millisecond)/time.Millisecond, 65535))
}
