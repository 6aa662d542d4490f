package loadgen

import (
	"math/rand"

	"gridlag/grid"
)

// turnOdds: a walking player turns, where it need not, once in this many
// moves.
const turnOdds = 8

var dirs = [...]grid.Dir{grid.Up, grid.Down, grid.Left, grid.Right}

// step chooses the player's next move and moves its guess of where it
// stands: on in the same direction, turning at walls and now and then at
// random. The guess knows walls, not other players; a player blocked by
// another drifts from its guess, which changes where it walks, not how
// often. Before its cell is known it moves at random. The caller holds
// p.mu.
func (p *player) step(rng *rand.Rand) grid.Dir {
	if !p.placed {
		return dirs[rng.Intn(len(dirs))]
	}
	d := p.dir
	if !d.Valid() || p.m.Wall(p.pos.Add(d)) || rng.Intn(turnOdds) == 0 {
		var open []grid.Dir
		for _, o := range dirs {
			if !p.m.Wall(p.pos.Add(o)) {
				open = append(open, o)
			}
		}
		if len(open) == 0 {
			return dirs[rng.Intn(len(dirs))]
		}
		d = open[rng.Intn(len(open))]
	}
	p.dir, p.pos = d, p.pos.Add(d)
	return d
}
