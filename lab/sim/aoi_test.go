package sim

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/server/world"
)

// inArea reports whether p is within the area around c, or within its
// reach (world.AreaReachX, AreaReachY) if reach.
func inArea(p, c grid.Pos, reach bool) bool {
	if reach {
		return abs(p.X-c.X) <= world.AreaReachX && abs(p.Y-c.Y) <= world.AreaReachY
	}
	return abs(p.X-c.X) <= world.AreaHalfWidth && abs(p.Y-c.Y) <= world.AreaHalfHeight
}

func abs(v int) int { return max(v, -v) }

// TestViewsWithAreasMatchTheServer: clients on a map wider than the area,
// walking at random, each draw (interpolation off, no latency) every player
// within its area at the server's cell, with its name, and no one beyond
// the area's reach, others also at their cells: what a client sees of the
// players within its window is what it saw when every State carried
// everyone. A property over a few seeds.
func TestViewsWithAreasMatchTheServer(t *testing.T) {
	for seed := int64(1); seed <= 3; seed++ {
		rng := rand.New(rand.NewSource(seed))
		m, err := grid.ParseMap(strings.Repeat(strings.Repeat(".", 400)+"\n", 60))
		if err != nil {
			t.Fatal(err)
		}
		const n = 12
		spawns := make([]grid.Pos, n)
		for i := range spawns {
			spawns[i] = grid.Pos{X: rng.Intn(400), Y: rng.Intn(60)}
		}
		w := New(world.Config{Map: m, Spawn: spawns[0], Spawns: spawns[1:], Rate: 20})
		clients := make([]*Client, n)
		for i := range clients {
			clients[i] = w.Join(fmt.Sprint("p", i), client.Options{NoInterpolate: true})
		}
		for step := 0; step < 200; step++ {
			for _, c := range clients {
				// every other tick at most: never sooner than the speed
				// limit, so that no held press moves anyone after the tick
				if step%2 == 0 && rng.Intn(4) > 0 {
					c.Press([]grid.Dir{grid.Left, grid.Right, grid.Up, grid.Down}[rng.Intn(4)])
				}
			}
			w.AdvanceTo((w.Now()/(50*ms)+1)*50*ms + ms) // past the next tick
			world := w.Server().Positions(nil)
			for _, c := range clients {
				checkView(t, seed, step, c.View(), world)
			}
		}
	}
}

// checkView checks one client's view against the server's world.
func checkView(t *testing.T, seed int64, step int, v client.View, world []grid.PlayerPos) {
	t.Helper()
	drawn := map[grid.PlayerID]client.Other{}
	for _, o := range v.Others {
		drawn[o.ID] = o
	}
	for _, p := range world {
		if p.ID == v.Me {
			continue
		}
		o, ok := drawn[p.ID]
		switch {
		case ok && (o.Pos != p.Pos || o.Name != fmt.Sprint("p", p.ID-1)): // joined in order, named p0, p1, ...
			t.Fatalf("seed %d step %d: player %d draws %d as %q at %v, it is at %v", seed, step, v.Me, p.ID, o.Name, o.Pos, p.Pos)
		case !ok && inArea(p.Pos, v.Server, false):
			t.Fatalf("seed %d step %d: player %d at %v does not draw %d at %v", seed, step, v.Me, v.Server, p.ID, p.Pos)
		case ok && !inArea(p.Pos, v.Server, true):
			t.Fatalf("seed %d step %d: player %d at %v still draws %d at %v", seed, step, v.Me, v.Server, p.ID, p.Pos)
		}
	}
}
