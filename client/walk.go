package client

import (
	"time"

	"gridlag/grid"
	"gridlag/protocol"
)

// walkMaxCells bounds the cells one search for a walk looks at, whatever
// the map and the time between two states.
const walkMaxCells = 4096

// walks holds, for one pair of consecutive states, the walk each player
// took between them: the cells from the first state's cell to the
// second's, nil when no walk explains the move.
type walks map[grid.PlayerID][]grid.Pos

// walker finds how other players walked between two states: along a
// shortest walk over the floor of the map, within the game's speed limit.
type walker struct {
	m        *grid.Map
	moveTime time.Duration // one move per moveTime...
	burst    int           // ...after at most burst moves back to back
}

func newWalker(w *protocol.Welcome, m *grid.Map) walker {
	return walker{m: m, moveTime: time.Duration(w.MoveTimeMS) * time.Millisecond, burst: int(w.Burst)}
}

// at returns where a player is drawn num/den of the way (0 <= num < den)
// from one state, where they were at from, to the next, elapsed later,
// where they are at to: the cell of their walk (see walk) that many of its
// steps along, rounded, halves going to the later state, so a one-cell
// move switches at the midpoint. The walk is searched once per player and
// pair of states, and kept in cache, the later state's. A move that no
// walk explains (a respawn, a teleport) is drawn at from until the later
// state's time, never in between.
func (wk walker) at(cache *walks, id grid.PlayerID, from, to grid.Pos, elapsed time.Duration, num, den int64) grid.Pos {
	if from == to {
		return from
	}
	path, ok := (*cache)[id]
	if !ok {
		path = wk.walk(from, to, elapsed)
		if *cache == nil {
			*cache = make(walks)
		}
		(*cache)[id] = path
	}
	if path == nil {
		return from
	}
	steps := int64(len(path) - 1)
	return path[(2*num*steps+den)/(2*den)]
}

// walk returns a shortest walk from from to to over floor cells, one
// neighbour at a time, if one is short enough to have been walked in
// elapsed: at most burst moves back to back, then one per moveTime, and
// one more for rounding. It returns nil if there is none.
func (wk walker) walk(from, to grid.Pos, elapsed time.Duration) []grid.Pos {
	steps := walkMaxCells
	if wk.moveTime > 0 {
		steps = min(steps, int(elapsed/wk.moveTime)+wk.burst+1)
	}
	path, _ := wk.m.Path(from, to, steps, walkMaxCells)
	return path
}
