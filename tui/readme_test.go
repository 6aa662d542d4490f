package tui

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"gridlag/grid"
)

// TestReadmeSaysTheSmallestTerminal: the README's set-up names the
// smallest terminal the game asks for on the default map, and the lab's.
func TestReadmeSaysTheSmallestTerminal(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := grid.DefaultMap()
	w, h := minSize(m)
	text := strings.Join(strings.Fields(string(readme)), " ")
	want := fmt.Sprintf("The game needs a terminal of at least %dx%d on the default map", w, h)
	if !strings.Contains(text, want) {
		t.Errorf("the README does not say %q", want)
	}
	if lab := fmt.Sprintf("`gridlag lab` needs %dx%d", 2*m.Width(), m.Height()+2); !strings.Contains(text, lab) {
		t.Errorf("the README does not say %q", lab)
	}
}
