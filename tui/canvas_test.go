package tui

import (
	"testing"

	"github.com/gdamore/tcell/v2"
)

// The canvas reaches the screen with one write per cell: a frame drawn
// with overdraw (clear, then content) changes nothing on screen when the
// content is the same as before.
func TestCanvasFlushKeepsUnchangedCellsClean(t *testing.T) {
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	defer scr.Fini()
	scr.SetSize(20, 3)
	var c canvas
	draw := func(s string) {
		c.reset(scr, 20, 3)
		c.Clear()
		putText(&c, 0, 1, 20, s, styleText)
		c.flush(nil)
		scr.Show()
	}
	draw("hello 山田 · world")
	cells, w, _ := scr.GetContents()
	if got := string(cells[w+6].Runes); got != "山" {
		t.Fatalf("wide character not drawn: %q", got)
	}
	if got := string(cells[w+11].Runes); got != "·" {
		t.Fatalf("cell 11 is %q, want ·", got)
	}
	// Overwriting half of a wide character blanks the other half.
	c.reset(scr, 20, 3)
	putText(&c, 0, 1, 20, "山", styleText)
	c.Put(1, 1, "x", styleText)
	if s, _, _ := c.Get(0, 1); s != " " {
		t.Fatalf("left half of a broken wide character is %q, want a space", s)
	}
	// Control characters never reach the screen.
	c.reset(scr, 20, 3)
	putText(&c, 0, 0, 20, "a\x1b[2Jb\x07c", styleText)
	for x, want := range []string{"a", "[", "2", "J", "b", "c"} {
		if s, _, _ := c.Get(x, 0); s != want {
			t.Fatalf("cell %d is %q, want %q", x, s, want)
		}
	}
}

func TestFirstCluster(t *testing.T) {
	for _, tc := range []struct {
		in, cluster string
		width       int
	}{
		{"ab", "a", 1},
		{"·x", "·", 1},
		{"e\u0301x", "e\u0301", 1},
		{"山田", "山", 2},
		{"██", "█", 1},
	} {
		cl, _, w := firstCluster(tc.in)
		if cl != tc.cluster || w != tc.width {
			t.Errorf("firstCluster(%q) = %q, %d; want %q, %d", tc.in, cl, w, tc.cluster, tc.width)
		}
	}
}
