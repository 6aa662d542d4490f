package grid

import (
	"fmt"
	"strings"
	"testing"
)

// TestReachFindsTheMainFloor: a wall that seals a part of the map off
// leaves the larger part as the main floor; the sealed cells, and a
// pocket walled in on its own, are unreachable; steps are up, down, left
// and right, never diagonal.
func TestReachFindsTheMainFloor(t *testing.T) {
	m, err := ParseMap(strings.Join([]string{
		"##########",
		"#....#...#",
		"#....#...#",
		"#....#####",
		"#....#.#.#",
		"##########",
	}, "\n"))
	if err != nil {
		t.Fatal(err)
	}
	r := m.Reach()
	if r.Floor() != 16+6+2 || r.MainSize() != 16 || r.Unreachable() != 8 {
		t.Errorf("floor %d, main %d, unreachable %d; want 24, 16, 8", r.Floor(), r.MainSize(), r.Unreachable())
	}
	for _, p := range []Pos{{1, 1}, {4, 4}, {1, 4}} {
		if !r.Main(p) {
			t.Errorf("%v is not on the main floor", p)
		}
	}
	for _, p := range []Pos{{6, 1}, {8, 2}, {6, 4}, {8, 4}, {0, 0}, {5, 1}, {-1, 1}, {1, -1}, {10, 1}, {1, 6}} {
		if r.Main(p) {
			t.Errorf("%v is on the main floor", p)
		}
	}
}

// TestReachOfTheShippedMaps: the default map and generated maps are one
// floor, every cell reachable.
func TestReachOfTheShippedMaps(t *testing.T) {
	maps := map[string]*Map{"default": DefaultMap()}
	for _, size := range [][2]int{{60, 12}, {180, 120}} {
		g, err := Generate(size[0], size[1], 7)
		if err != nil {
			t.Fatal(err)
		}
		maps[fmt.Sprintf("generated %dx%d", size[0], size[1])] = g
	}
	for name, m := range maps {
		if r := m.Reach(); r.Unreachable() != 0 || r.MainSize() == 0 {
			t.Errorf("%s map: %d of %d floor cells unreachable", name, r.Unreachable(), r.Floor())
		}
	}
}

// TestSpawnWhere: the free cell nearest to where it is wanted that the
// caller allows.
func TestSpawnWhere(t *testing.T) {
	w := NewWorld(DefaultMap(), Rules{})
	p, ok := w.SpawnWhere(Pos{10, 10}, func(c Pos) bool { return c.X >= 12 })
	if !ok || p != (Pos{12, 10}) {
		t.Errorf("SpawnWhere x >= 12 from (10,10) = %v %v, want (12,10)", p, ok)
	}
	if _, ok := w.SpawnWhere(Pos{10, 10}, func(Pos) bool { return false }); ok {
		t.Error("SpawnWhere found a cell nothing allows")
	}
}
