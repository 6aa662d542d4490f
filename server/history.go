package server

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
// carries, when it changed. A steady world records nothing and allocates
// nothing.
func (c *Core) record(now time.Duration, positions []grid.PlayerPos) {
	keep := max(HistoryKeep, c.cfg.Unlag)
	for _, p := range positions {
		cl := c.slots[p.ID]
		if cl != nil && cl.trail.last() != p.Pos {
			cl.trail.push(now, p.Pos, keep)
		}
	}
}

// seenAt returns the other players of shooter, not frozen, at the cells a
// client drawing the server time t showed them: a client switches a
// player's cell halfway between the two States around the move, so at
// update rate r a move recorded at a broadcast shows from half an interval
// before it.
func (c *Core) seenAt(dst []grid.PlayerPos, shooter grid.PlayerID, t time.Duration) []grid.PlayerPos {
	if c.cfg.Rate > 0 {
		t += time.Second / time.Duration(c.cfg.Rate) / 2
	}
	for _, cl := range c.slots {
		if cl != nil && cl.player != shooter && cl.frozenUntil == 0 {
			dst = append(dst, grid.PlayerPos{ID: cl.player, Pos: cl.trail.at(t)})
		}
	}
	return dst
}

// present returns the other players of shooter, not frozen, where the
// server has them now.
func (c *Core) present(dst []grid.PlayerPos, shooter grid.PlayerID) []grid.PlayerPos {
	for _, cl := range c.slots {
		if cl != nil && cl.player != shooter && cl.frozenUntil == 0 {
			p, _ := c.world.Pos(cl.player)
			dst = append(dst, grid.PlayerPos{ID: cl.player, Pos: p})
		}
	}
	return dst
}
