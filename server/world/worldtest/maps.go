package worldtest

import (
	"strings"
	"testing"

	"gridlag/grid"
)

// OpenMap returns a w x h map of floor walled in.
func OpenMap(tb testing.TB, w, h int) *grid.Map {
	tb.Helper()
	var b strings.Builder
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if x == 0 || y == 0 || x == w-1 || y == h-1 {
				b.WriteByte('#')
			} else {
				b.WriteByte('.')
			}
		}
		b.WriteByte('\n')
	}
	m, err := grid.ParseMap(b.String())
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// BigMap generates a side x side map (seed 3) and finds the floor cell
// nearest its centre, on its main floor, for a spawn.
func BigMap(tb testing.TB, side int) (*grid.Map, grid.Pos) {
	tb.Helper()
	m, err := grid.Generate(side, side, 3)
	if err != nil {
		tb.Fatal(err)
	}
	spawn, _ := grid.NewWorld(m, grid.Rules{}).SpawnWhere(grid.Pos{X: side / 2, Y: side / 2}, m.Reach().Main)
	return m, spawn
}

// SealedMap is 30x14 with a wall down column 12: the part left of it
// (132 floor cells, with (10,10), where players spawn on the default map)
// is sealed off from the larger part right of it (192 cells).
func SealedMap(t testing.TB) *grid.Map {
	t.Helper()
	rows := []string{strings.Repeat("#", 30)}
	for range 12 {
		rows = append(rows, "#"+strings.Repeat(".", 11)+"#"+strings.Repeat(".", 16)+"#")
	}
	rows = append(rows, strings.Repeat("#", 30))
	m, err := grid.ParseMap(strings.Join(rows, "\n"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}
