package grid

import (
	"math/rand"
	"slices"
	"testing"
)

func mustMap(t *testing.T, text string) *Map {
	t.Helper()
	m, err := ParseMap(text)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// checkWalk fails unless path walks from from to to over floor, one
// 4-neighbour step at a time.
func checkWalk(t *testing.T, m *Map, from, to Pos, path []Pos) {
	t.Helper()
	if len(path) == 0 || path[0] != from || path[len(path)-1] != to {
		t.Fatalf("path %v does not go from %v to %v", path, from, to)
	}
	for i, p := range path {
		if m.Wall(p) {
			t.Fatalf("path %v steps on the wall %v", path, p)
		}
		if i > 0 && distance(path[i-1], p) != 1 {
			t.Fatalf("path %v jumps from %v to %v", path, path[i-1], p)
		}
	}
}

func TestPathGoesRoundTheCorner(t *testing.T) {
	m := mustMap(t, `
######
#....#
#.####
#.####
######`[1:])
	from, to := Pos{1, 3}, Pos{4, 1}
	path, ok := m.Path(from, to, 5, 100)
	want := []Pos{{1, 3}, {1, 2}, {1, 1}, {2, 1}, {3, 1}, {4, 1}}
	if !ok || !slices.Equal(path, want) {
		t.Fatalf("Path(%v, %v) = %v, %v; want %v", from, to, path, ok, want)
	}
	if path, ok := m.Path(from, to, 4, 100); ok {
		t.Errorf("Path with at most 4 steps = %v, want none: the walk takes 5", path)
	}
	if path, ok := m.Path(from, to, 5, 4); ok {
		t.Errorf("Path looking at 4 cells at most = %v, want none", path)
	}
}

func TestPathAroundAWall(t *testing.T) {
	m := mustMap(t, `
#######
#.....#
#.###.#
#.#.#.#
#######`[1:])
	path, ok := m.Path(Pos{1, 3}, Pos{5, 3}, 100, 100)
	if !ok || len(path) != 9 {
		t.Fatalf("Path = %v, %v; want 8 steps over the wall", path, ok)
	}
	checkWalk(t, m, Pos{1, 3}, Pos{5, 3}, path)
	if path, ok := m.Path(Pos{1, 3}, Pos{3, 3}, 100, 100); ok {
		t.Errorf("Path into a closed pocket = %v, want none", path)
	}
}

func TestPathEnds(t *testing.T) {
	m := DefaultMap()
	if path, ok := m.Path(Pos{10, 10}, Pos{10, 10}, 0, 1); !ok || !slices.Equal(path, []Pos{{10, 10}}) {
		t.Errorf("Path to the same cell = %v, %v; want just that cell", path, ok)
	}
	for _, c := range [][2]Pos{{{0, 0}, {1, 1}}, {{1, 1}, {0, 0}}, {{1, 1}, {-1, 1}}} {
		if path, ok := m.Path(c[0], c[1], 100, 1000); ok {
			t.Errorf("Path(%v, %v) = %v, want none: an end is a wall", c[0], c[1], path)
		}
	}
}

func TestPathOnOpenFloorIsAStaircase(t *testing.T) {
	m := DefaultMap()
	path, ok := m.Path(Pos{10, 10}, Pos{12, 12}, 4, 100)
	want := []Pos{{10, 10}, {10, 11}, {11, 11}, {11, 12}, {12, 12}}
	if !ok || !slices.Equal(path, want) {
		t.Fatalf("Path = %v, %v; want the staircase %v", path, ok, want)
	}
}

// Random pairs of floor cells: every path found is a walk, as short one
// way as the other, and found again the same.
func TestPathIsAShortestWalk(t *testing.T) {
	m := DefaultMap()
	rng := rand.New(rand.NewSource(9))
	floor := func() Pos {
		for {
			p := Pos{rng.Intn(m.Width()), rng.Intn(m.Height())}
			if !m.Wall(p) {
				return p
			}
		}
	}
	for range 300 {
		a, b := floor(), floor()
		there, ok := m.Path(a, b, 80, m.Width()*m.Height())
		back, ok2 := m.Path(b, a, 80, m.Width()*m.Height())
		if !ok || !ok2 {
			t.Fatalf("no path between %v and %v on the default map", a, b)
		}
		checkWalk(t, m, a, b, there)
		checkWalk(t, m, b, a, back)
		if len(there) != len(back) {
			t.Fatalf("%v to %v: %d steps there, %d back", a, b, len(there)-1, len(back)-1)
		}
		if again, _ := m.Path(a, b, 80, m.Width()*m.Height()); !slices.Equal(again, there) {
			t.Fatalf("%v to %v: %v, then %v", a, b, there, again)
		}
	}
}
