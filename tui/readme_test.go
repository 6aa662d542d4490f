package tui

import (
	"fmt"
	"testing"

	"gridlag/grid"
	"gridlag/internal/doctest"
)

// TestReadmeSaysTheSmallestTerminal: the documentation's set-up names
// the smallest terminal the game asks for on the default map, and the
// lab's.
func TestReadmeSaysTheSmallestTerminal(t *testing.T) {
	m := grid.DefaultMap()
	w, h := minSize(m)
	want := fmt.Sprintf("The game needs a terminal of at least %dx%d on the default map", w, h)
	if !doctest.Says(t, want) {
		t.Errorf("no page of the documentation says %q", want)
	}
	if lab := fmt.Sprintf("`gridlag lab` needs %dx%d", 2*m.Width(), m.Height()+2); !doctest.Says(t, lab) {
		t.Errorf("no page of the documentation says %q", lab)
	}
}
