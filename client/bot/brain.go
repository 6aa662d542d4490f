package bot

import (
	"math/rand"

	"gridlag/client"
	"gridlag/grid"
)

// Run lengths of a Brain: how many steps it keeps a heading before it
// picks a new one (fewer if the way is blocked).
const (
	MinRun = 3
	MaxRun = 8
)

// Brain is a bot's mind: a random walk at the speed limit. At each step it
// keeps its heading for a run of MinRun to MaxRun steps, then turns,
// preferring not to walk back the way it came. It only steps onto open
// cells: not a wall, not a cell where the View shows another player, and
// never onto an avoided cell.
//
// The avoidance holds on the server, not only in the client's prediction.
// Another player may block one of the bot's moves that prediction let
// through, so the server may have the bot on any cell reached from the
// last acknowledged cell by a subset of the pending moves; the Brain
// refuses a direction if it leads onto an avoided cell from any of them.
//
// A Brain is deterministic: the same seed and the same Views give the same
// directions. It is not safe for concurrent use.
type Brain struct {
	rng   *rand.Rand
	avoid map[grid.Pos]bool
	zone  int      // keep this many cells away from the avoided cells (KeepAway); 0: none
	loose bool     // boxed in by the zone: one step that ignores it
	dir   grid.Dir // the current heading, None if standing
	left  int      // steps left in the current run

	reach, next map[grid.Pos]bool // scratch sets, reused
	others      map[grid.Pos]bool
}

// NewBrain returns a brain driven by its own random source seeded with
// seed, that never steps onto any of the avoid cells.
func NewBrain(seed int64, avoid ...grid.Pos) *Brain {
	b := &Brain{
		rng:    rand.New(rand.NewSource(seed)),
		avoid:  make(map[grid.Pos]bool, len(avoid)),
		reach:  make(map[grid.Pos]bool),
		next:   make(map[grid.Pos]bool),
		others: make(map[grid.Pos]bool),
	}
	for _, p := range avoid {
		b.avoid[p] = true
	}
	return b
}

// SpawnZone is how far the house bots keep from the human spawn cells
// (Manhattan distance), and the zone where they zap nobody (see
// Brain.KeepAway, Trigger.Spare): a newcomer finds no bot waiting where it
// arrives.
const SpawnZone = 3

// KeepAway makes the brain keep more than r cells (Manhattan distance)
// from its avoided cells: it never steps into that zone, and one that
// finds itself in it (spawned there, or pushed) walks out, each step
// farther from them; boxed in by the zone it takes any open step. It
// returns b.
func (b *Brain) KeepAway(r int) *Brain {
	b.zone = r
	return b
}

// near returns the distance from p to the nearest avoided cell.
func (b *Brain) near(p grid.Pos) int {
	d := -1
	for a := range b.avoid {
		if n := abs(p.X-a.X) + abs(p.Y-a.Y); d < 0 || n < d {
			d = n
		}
	}
	return d
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// Next returns the direction to press now, or grid.None to stand still
// (not playing yet, or boxed in).
func (b *Brain) Next(v client.View) grid.Dir {
	if d := b.step(v); d != grid.None || b.zone == 0 {
		return d
	}
	b.loose = true // boxed in by the zone: walk on all the same
	defer func() { b.loose = false }()
	return b.step(v)
}

// step is Next under the zone's rule (unless loose).
func (b *Brain) step(v client.View) grid.Dir {
	if v.Map == nil || !v.HasState || !v.Connected {
		return grid.None
	}
	b.possible(v)
	clear(b.others)
	for _, o := range v.Others {
		b.others[o.Pos] = true
	}
	here := v.Predicted
	if b.left > 0 && b.open(v.Map, here, b.dir) {
		b.left--
		return b.dir
	}
	var cands [4]grid.Dir
	n := 0
	for d := grid.Up; d <= grid.Right; d++ {
		if d != b.dir.Opposite() && b.open(v.Map, here, d) {
			cands[n] = d
			n++
		}
	}
	if n == 0 && b.dir != grid.None && b.open(v.Map, here, b.dir.Opposite()) {
		cands[0], n = b.dir.Opposite(), 1 // a dead end: walk back
	}
	if n == 0 {
		b.dir, b.left = grid.None, 0
		return grid.None
	}
	b.dir = cands[b.rng.Intn(n)]
	b.left = MinRun - 1 + b.rng.Intn(MaxRun-MinRun+1)
	return b.dir
}

// possible fills b.reach with the cells the server may have the player on
// when its next input arrives: the last acknowledged cell moved by any
// subset of the pending inputs (a move either happens whole or not at all),
// plus the predicted cell. With k pending inputs the set has at most
// (2k+1)^2 cells, a handful at a normal round trip.
func (b *Brain) possible(v client.View) {
	clear(b.reach)
	b.reach[v.Server] = true
	for _, p := range v.Pending {
		clear(b.next)
		for q := range b.reach {
			b.next[q] = true
			b.next[q.Add(p.Dir)] = true
		}
		b.reach, b.next = b.next, b.reach
	}
	b.reach[v.Predicted] = true
}

// open reports whether moving d from here is a good step: onto floor that
// the View shows free, and safe from the avoided cells.
func (b *Brain) open(m *grid.Map, here grid.Pos, d grid.Dir) bool {
	if !d.Valid() {
		return false
	}
	to := here.Add(d)
	if m.Wall(to) || b.others[to] {
		return false
	}
	if b.zone > 0 && !b.loose {
		if n := b.near(to); n >= 0 && n <= b.zone && n <= b.near(here) {
			return false // into the zone, or not out of it
		}
	}
	for q := range b.reach {
		if b.avoid[q.Add(d)] {
			return false
		}
	}
	return true
}
