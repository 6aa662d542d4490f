package world

import (
	"time"

	"gridlag/grid"
)

// HistoryKeep is the least history of positions the Core keeps for every
// player, for lag compensation; more when Config.Unlag is longer.
const HistoryKeep = time.Second

// stamped is a player's cell from time t on.
type stamped struct {
	t   time.Duration
	pos grid.Pos
}

// trail is one player's recent cells: a ring of the moments its cell
// changed as clients saw it (at the broadcast that carried it), oldest
// first. The oldest entry is the cell as of the start of the kept window,
// so a look-up further back gets the oldest cell known.
type trail struct {
	buf   []stamped
	start int // index of the oldest entry in buf
	n     int // entries in use
}

// trailCap is a new trail's capacity: a second of moves at the default
// speed limit, and the burst; a faster walk grows it once.
const trailCap = 16

func newTrail(t time.Duration, p grid.Pos) trail {
	tr := trail{buf: make([]stamped, trailCap)}
	tr.buf[0], tr.n = stamped{t: t, pos: p}, 1
	return tr
}

func (tr *trail) entry(i int) *stamped { return &tr.buf[(tr.start+i)%len(tr.buf)] }

// last returns the latest cell.
func (tr *trail) last() grid.Pos { return tr.entry(tr.n - 1).pos }

// push records that the cell is p from time t on, dropping what is older
// than keep before t but the entry in force then.
func (tr *trail) push(t time.Duration, p grid.Pos, keep time.Duration) {
	for tr.n >= 2 && tr.entry(1).t <= t-keep {
		tr.start = (tr.start + 1) % len(tr.buf)
		tr.n--
	}
	if tr.n == len(tr.buf) {
		grown := make([]stamped, 2*len(tr.buf))
		for i := range tr.n {
			grown[i] = *tr.entry(i)
		}
		tr.buf, tr.start = grown, 0
	}
	*tr.entry(tr.n) = stamped{t: t, pos: p}
	tr.n++
}

// at returns the cell at time t: the latest entry not after t, or the
// oldest one known.
func (tr *trail) at(t time.Duration) grid.Pos {
	for i := tr.n - 1; i > 0; i-- {
		if e := tr.entry(i); e.t <= t {
			return e.pos
		}
	}
	return tr.entry(0).pos
}

// record adds to every player's trail the cell a broadcast at time now
// carries, when it changed, and begins the life of every player placed
// since the last broadcast (a join, a respawn): the clients see it from
// now on. A steady world records nothing and allocates nothing.
func (c *Core) record(now time.Duration, positions []grid.PlayerPos) {
	keep := max(HistoryKeep, c.cfg.Unlag)
	for _, p := range positions {
		cl := c.slots[p.ID]
		if cl == nil {
			continue
		}
		if cl.spawning {
			c.startLife(now, cl)
		}
		if cl.trail.last() != p.Pos {
			cl.trail.push(now, p.Pos, keep)
		}
	}
}

// Liveness. A zap may be judged against a moment in the past, so whether
// a player could be tagged then matters as much as where it stood. A
// tagged player is frozen, respawns elsewhere when it thaws, and is then
// protected for Config.Protect; its frozen time and its life before the
// tag are over for good: nobody can tag it again for a moment before its
// current life began, wherever it stood then. So a player's liveness at
// any moment t of the kept history follows from when its current life
// began as the clients saw it (life: the broadcast that showed it at its
// join or respawn cell), whether that life followed a tag (respawned), and
// whether it is frozen now. See standingAt.
//
// A moment before a player joined is judged with the player at its join
// cell, as its first State shows it: a client draws a player that appears
// between two States from halfway between them, and one whose first States
// came together from the oldest; spawn protection covers that moment.

// standing is what a zap fired at a player finds, as of one moment.
type standing uint8

const (
	standAbsent    standing = iota // not shown to anyone yet
	standOpen                      // it can be tagged
	standProtected                 // within Config.Protect of its join or respawn
	standTagged                    // frozen then, or tagged since: that life is over
)

// startLife starts the life of cl, placed at its join or respawn cell, at now:
// the broadcast that shows it there.
func (c *Core) startLife(now time.Duration, cl *client) {
	cl.respawned = cl.lived
	cl.spawning, cl.lived, cl.life = false, true, now
	c.spawned = append(c.spawned, cl.player)
}

// standingAt says what a zap judged now finds of cl as of moment t (now,
// or a moment of the history).
func (c *Core) standingAt(cl *client, t time.Duration) standing {
	switch {
	case cl.frozenUntil != 0:
		return standTagged
	case cl.spawning && !cl.lived:
		return standAbsent // joined, not shown to anyone yet
	case cl.spawning:
		return standTagged // respawned, not shown yet: its last life ended in a tag
	case t < cl.life && cl.respawned:
		return standTagged
	case c.cfg.Protect > 0 && t < cl.life+c.cfg.Protect:
		return standProtected
	}
	return standOpen
}

// protectedUntil returns when cl's spawn protection ends, and whether it
// is still on at now.
func (c *Core) protectedUntil(cl *client, now time.Duration) (time.Duration, bool) {
	until := cl.life + c.cfg.Protect
	return until, c.cfg.Protect > 0 && cl.lived && !cl.spawning && cl.frozenUntil == 0 && now < until
}

// lineup appends the other players of shooter that a zap finds at moment t
// to dst: with
// rewound, at the cells a client drawing the server time t showed them
// (a client switches a player's cell halfway between the two States
// around the move, so at update rate r a move recorded at a broadcast
// shows from half an interval before it); without, where the server has
// them now. With open, only those that can be tagged. Players absent then
// are left out.
func (c *Core) lineup(dst []grid.PlayerPos, shooter grid.PlayerID, t time.Duration, rewound, open bool) []grid.PlayerPos {
	for _, cl := range c.slots {
		if cl == nil || cl.player == shooter {
			continue
		}
		s := c.standingAt(cl, t)
		if s == standAbsent || open && s != standOpen {
			continue
		}
		dst = append(dst, grid.PlayerPos{ID: cl.player, Pos: c.cellAt(cl, t, rewound)})
	}
	return dst
}

// cellAt returns the cell a zap judged at t finds player cl on: rewound,
// the cell its trail had then (as the shooter drew it, see lineup);
// else where it is now.
func (c *Core) cellAt(cl *client, t time.Duration, rewound bool) grid.Pos {
	if !rewound {
		p, _ := c.world.Pos(cl.player)
		return p
	}
	if c.cfg.Rate > 0 {
		t += time.Second / time.Duration(c.cfg.Rate) / 2
	}
	return cl.trail.at(t)
}
