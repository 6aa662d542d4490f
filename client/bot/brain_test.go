package bot

import (
	"testing"

	"gridlag/client"
	"gridlag/grid"
)

// walk plays a brain alone on m from start for steps steps, moving the
// player as the server would, and returns the directions it chose and the
// cells it stood on. others are fixed players in the way.
func walk(t *testing.T, b *Brain, m *grid.Map, start grid.Pos, steps int, others []client.Other) ([]grid.Dir, []grid.Pos) {
	t.Helper()
	taken := map[grid.Pos]bool{}
	for _, o := range others {
		taken[o.Pos] = true
	}
	here := start
	var dirs []grid.Dir
	cells := []grid.Pos{here}
	for i := 0; i < steps; i++ {
		v := client.View{Connected: true, HasState: true, Map: m, Predicted: here, Server: here, Others: others}
		d := b.Next(v)
		dirs = append(dirs, d)
		if d == grid.None {
			continue
		}
		to := here.Add(d)
		if m.Wall(to) {
			t.Fatalf("step %d: %v from %v walks into a wall", i, d, here)
		}
		if taken[to] {
			t.Fatalf("step %d: %v from %v walks into another player", i, d, here)
		}
		here = to
		cells = append(cells, here)
	}
	return dirs, cells
}

func TestBrainNeverWallNorSpawn(t *testing.T) {
	m := grid.DefaultMap()
	others := []client.Other{{ID: 7, Pos: grid.Pos{X: 12, Y: 12}}, {ID: 8, Pos: grid.Pos{X: 8, Y: 9}}}
	for seed := int64(1); seed <= 200; seed++ {
		b := NewBrain(seed, grid.DefaultSpawn)
		_, cells := walk(t, b, m, grid.Pos{X: 11, Y: 10}, 300, others)
		for i, c := range cells {
			if c == grid.DefaultSpawn {
				t.Fatalf("seed %d: stood on the human spawn %v after %d moves", seed, c, i)
			}
		}
	}
}

func TestBrainAvoidsSpawnWhenAMoveMayBeBlocked(t *testing.T) {
	// The server last had the bot at (11,10), next to the spawn; one Down
	// is pending, so prediction shows (11,11). If another player blocks
	// that Down on the server, a Left would land on the spawn (10,10): the
	// brain must not press Left, though (10,11) is free in its View.
	m := grid.DefaultMap()
	v := client.View{
		Connected: true, HasState: true, Map: m,
		Server:    grid.Pos{X: 11, Y: 10},
		Predicted: grid.Pos{X: 11, Y: 11},
		Pending:   []client.PendingInput{{Seq: 5, Dir: grid.Down}},
	}
	seen := map[grid.Dir]int{}
	for seed := int64(1); seed <= 200; seed++ {
		d := NewBrain(seed, grid.DefaultSpawn).Next(v)
		if d == grid.Left {
			t.Fatalf("seed %d: pressed Left, which may put the bot on the spawn", seed)
		}
		seen[d]++
	}
	if seen[grid.None] > 0 || len(seen) != 3 {
		t.Fatalf("directions chosen over 200 seeds: %v, want Up, Down and Right", seen)
	}
}

func TestBrainBoxedInStandsStill(t *testing.T) {
	m, err := grid.ParseMap("#####\n#...#\n#####\n")
	if err != nil {
		t.Fatal(err)
	}
	b := NewBrain(1, grid.Pos{X: 1, Y: 1})
	v := client.View{Connected: true, HasState: true, Map: m,
		Predicted: grid.Pos{X: 2, Y: 1}, Server: grid.Pos{X: 2, Y: 1},
		Others: []client.Other{{ID: 2, Pos: grid.Pos{X: 3, Y: 1}}}}
	for i := 0; i < 10; i++ {
		if d := b.Next(v); d != grid.None {
			t.Fatalf("boxed in between a wall, the avoided cell and a player, it pressed %v", d)
		}
	}
	if d := b.Next(client.View{}); d != grid.None {
		t.Fatalf("before the first State it pressed %v", d)
	}
}

func TestBrainDeterministic(t *testing.T) {
	m := grid.DefaultMap()
	a, _ := walk(t, NewBrain(42, grid.DefaultSpawn), m, grid.Pos{X: 20, Y: 10}, 200, nil)
	b, _ := walk(t, NewBrain(42, grid.DefaultSpawn), m, grid.Pos{X: 20, Y: 10}, 200, nil)
	c, _ := walk(t, NewBrain(43, grid.DefaultSpawn), m, grid.Pos{X: 20, Y: 10}, 200, nil)
	same := func(x, y []grid.Dir) bool {
		for i := range x {
			if x[i] != y[i] {
				return false
			}
		}
		return true
	}
	if !same(a, b) {
		t.Fatal("the same seed gave different walks")
	}
	if same(a, c) {
		t.Fatal("seeds 42 and 43 gave the same walk")
	}
}

func TestBrainWalks(t *testing.T) {
	m := grid.DefaultMap()
	dirs, cells := walk(t, NewBrain(7, grid.DefaultSpawn), m, grid.Pos{X: 20, Y: 10}, 100, nil)
	distinct := map[grid.Pos]bool{}
	for _, c := range cells {
		distinct[c] = true
	}
	if len(distinct) < 20 {
		t.Errorf("100 steps covered %d distinct cells, want at least 20", len(distinct))
	}
	turns, still := 0, 0
	for i, d := range dirs {
		if d == grid.None {
			still++
		}
		if i > 0 && d != dirs[i-1] {
			turns++
		}
	}
	if still > 0 {
		t.Errorf("stood still %d times on an open map", still)
	}
	if turns > 100/MinRun+1 {
		t.Errorf("turned %d times in 100 steps: jittering, not walking", turns)
	}
}
