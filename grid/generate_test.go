package grid

import (
	"bytes"
	"testing"
)

// floodCount returns how many floor cells can be reached from from.
func floodCount(m *Map, from Pos) int {
	seen := make([]bool, m.w*m.h)
	seen[from.Y*m.w+from.X] = true
	queue := []Pos{from}
	for i := 0; i < len(queue); i++ {
		for _, d := range directions {
			q := queue[i].Add(d)
			if !m.Wall(q) && !seen[q.Y*m.w+q.X] {
				seen[q.Y*m.w+q.X] = true
				queue = append(queue, q)
			}
		}
	}
	return len(queue)
}

func TestGenerateIsPlayable(t *testing.T) {
	sizes := [][2]int{{8, 8}, {9, 30}, {80, 24}, {180, 120}, {255, 256}, {1024, 1024}}
	for _, sz := range sizes {
		for seed := int64(1); seed <= 3; seed++ {
			w, h := sz[0], sz[1]
			m, err := Generate(w, h, seed)
			if err != nil {
				t.Fatalf("%dx%d seed %d: %v", w, h, seed, err)
			}
			if m.Width() != w || m.Height() != h {
				t.Fatalf("%dx%d seed %d: got %dx%d", w, h, seed, m.Width(), m.Height())
			}
			for x := 0; x < w; x++ {
				for _, y := range []int{0, h - 1} {
					if !m.Wall(Pos{x, y}) {
						t.Fatalf("%dx%d seed %d: border cell (%d,%d) is floor", w, h, seed, x, y)
					}
				}
			}
			for y := 0; y < h; y++ {
				for _, x := range []int{0, w - 1} {
					if !m.Wall(Pos{x, y}) {
						t.Fatalf("%dx%d seed %d: border cell (%d,%d) is floor", w, h, seed, x, y)
					}
				}
			}
			floor := bytes.Count(m.cells, []byte{FloorCell})
			if floor < w*h/5 {
				t.Errorf("%dx%d seed %d: only %d floor cells of %d", w, h, seed, floor, w*h)
			}
			i := bytes.IndexByte(m.cells, FloorCell)
			first := Pos{i % w, i / w}
			if n := floodCount(m, first); n != floor {
				t.Errorf("%dx%d seed %d: %d of %d floor cells reachable from %v", w, h, seed, n, floor, first)
			}
		}
	}
}

func TestGenerateIsDeterministic(t *testing.T) {
	a, _ := Generate(120, 80, 42)
	b, _ := Generate(120, 80, 42)
	if a.String() != b.String() {
		t.Error("the same seed gave two maps")
	}
	c, _ := Generate(120, 80, 43)
	if a.String() == c.String() {
		t.Error("seeds 42 and 43 gave the same map")
	}
	// The map is a map like any other: it survives the text format.
	if p, err := ParseMap(a.String()); err != nil || p.String() != a.String() {
		t.Errorf("ParseMap(String()) = %v", err)
	}
}

func TestGenerateRefusesSizes(t *testing.T) {
	for _, sz := range [][2]int{{7, 20}, {20, 7}, {0, 0}, {-5, 10}, {1025, 10}, {10, 1025}} {
		if _, err := Generate(sz[0], sz[1], 1); err == nil {
			t.Errorf("Generate(%d, %d) gave a map, want an error", sz[0], sz[1])
		}
	}
}

// BenchmarkGenerate1024 reports how long the largest map takes to generate.
func BenchmarkGenerate1024(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := Generate(MaxMapSide, MaxMapSide, int64(i)); err != nil {
			b.Fatal(err)
		}
	}
}
