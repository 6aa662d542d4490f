package world

import (
	"fmt"
	"slices"

	"gridlag/grid"
)

// The R2 low-discrepancy sequence's steps in 32-bit fixed point: the
// fractional parts of 1/g and 1/g^2 for the plastic number g. Consecutive
// points of the sequence are spread evenly over the unit square.
const (
	r2StepX = 3242174889 // 0.7548776662466927 * 2^32
	r2StepY = 2447445413 // 0.5698402909980532 * 2^32
)

// botAnchor returns where the search for the k-th bot's spawn cell starts:
// the k-th point of a low-discrepancy sequence scaled to the map, so that
// bots spread out over the whole map, deterministically. The first anchor
// is the middle of the map.
func botAnchor(m *grid.Map, k uint32) grid.Pos {
	fx := uint32(1<<31) + k*r2StepX
	fy := uint32(1<<31) + k*r2StepY
	return grid.Pos{
		X: int(uint64(fx) * uint64(m.Width()) >> 32),
		Y: int(uint64(fy) * uint64(m.Height()) >> 32),
	}
}

// nearestFloor returns the cell of m's main floor (see grid.Reach)
// nearest to want; ok is false when m has no floor. want is first moved to
// the nearest cell inside the map, which keeps the order of the distances
// (World.Spawn searches only as far as a cell inside the map needs to).
func nearestFloor(m *grid.Map, want grid.Pos) (p grid.Pos, ok bool) {
	inside := grid.Pos{X: min(max(want.X, 0), m.Width()-1), Y: min(max(want.Y, 0), m.Height()-1)}
	return grid.NewWorld(m, grid.Rules{}).SpawnWhere(inside, m.Reach().Main)
}

// spawnNear is the free cell nearest to want on the map's main floor,
// the largest set of floor cells joined by walks (grid.Reach), and not
// a human spawn cell if avoidSpawns: nobody joins or respawns in a part of
// the map sealed off from the others. The human spawn cells of the Config
// are its operator's choice and are not checked.
func (c *Core) spawnNear(want grid.Pos, avoidSpawns bool) (grid.Pos, bool) {
	reach := c.share.reach
	return c.world.SpawnWhere(want, func(p grid.Pos) bool {
		return reach.Main(p) && !(avoidSpawns && slices.Contains(c.spawns, p))
	})
}

// Holds is how many players the room can hold at once: its cap
// (Config.MaxPlayers), or the cells of its map's main floor if fewer
// (one player a cell; a bot takes a human spawn cell only when no other
// is free). A Hello past it is refused "room full" (RoomFullText).
func (c *Core) Holds() int {
	return max(min(c.cfg.MaxPlayers, c.share.reach.MainSize()), 0)
}

// RoomFullText says why a room takes no more players: it has players,
// and waiting more wait in line to enter it, of the most it holds (its
// cap; or its map's floor cells, one player a cell, when cells). The
// words begin "room full", apart from a server full or at capacity:
// another room may take the player now, and waiting for this one does
// not help.
func RoomFullText(players, most, waiting int, cells bool) string {
	who := fmt.Sprintf("%d of %d players", players, most)
	if waiting > 0 {
		who += fmt.Sprintf(" and %d in line for it", waiting)
	}
	why := "the most it takes"
	if cells {
		why = "as many as its map's floor holds, one a cell"
	}
	return "room full: " + who + ", " + why + "; another room may have a place"
}
