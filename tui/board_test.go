package tui_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/tui"
)

// Other players are drawn by the first letter of their names, bold in
// their palette colour, with the rest of the cell blank so neighbours stay
// apart, and move on screen when the server says they moved.
func TestOthersByInitials(t *testing.T) {
	r := newRig(t, client.Options{})
	bob := r.world.Join("Bob Smith", client.Options{})
	r.advance(time.Second)
	others := r.me.View().Others
	if len(others) != 1 {
		t.Fatalf("others: %+v", others)
	}
	at := others[0].Pos
	s, st := r.cell(at)
	if s != "B" || fg(st) != tui.PlayerColor(others[0].Color) {
		t.Fatalf("bob at %v drawn as %q in %v, want \"B\" in %v:\n%s", at, s, fg(st), tui.PlayerColor(others[0].Color), r.text())
	}
	if _, _, attrs := st.Decompose(); attrs&tcell.AttrBold == 0 {
		t.Errorf("bob's mark is not bold")
	}
	x, y, _ := r.ui.BoardCell(at)
	if next := []rune(rows(r.screen)[y])[x+1]; next != ' ' {
		t.Fatalf("bob's cell %v has %q in its second column, want a blank:\n%s", at, next, r.text())
	}

	bob.Press(grid.Left)
	r.advance(time.Second)
	moved := r.me.View().Others[0].Pos
	if moved == at {
		t.Fatal("bob did not move")
	}
	if s, _ := r.cell(moved); s != "B" {
		t.Fatalf("bob not drawn at his new cell %v:\n%s", moved, r.text())
	}
	if s, _ := r.cell(at); s == "B" {
		t.Fatalf("bob still drawn at his old cell %v", at)
	}
}

// The palette covers 1..8 with distinct colours and wraps beyond.
func TestPlayerColors(t *testing.T) {
	seen := map[tcell.Color]bool{}
	for i := uint8(1); i <= 8; i++ {
		c := tui.PlayerColor(i)
		if seen[c] || c == tcell.ColorYellow {
			t.Fatalf("colour %d (%v) repeats or is your own avatar's", i, c)
		}
		seen[c] = true
	}
	if tui.PlayerColor(9) != tui.PlayerColor(1) {
		t.Fatal("palette does not wrap")
	}
}

// When the server's word moves the predicted avatar, the cell where the
// prediction was wrong is marked for about a second and the counter grows.
func TestCorrectionMark(t *testing.T) {
	r := newRig(t, client.Options{Latency: 400 * time.Millisecond})
	bob := r.world.Join("Bob Smith", client.Options{})
	r.advance(time.Second)
	r.mustShow("corrections 0")
	// Alice and Bob race for neighbouring cells; Bob's input reaches the
	// server 200 ms earlier, so the server's order differs from what
	// Alice's client could predict.
	bob.Press(grid.Right)
	r.key(tcell.KeyUp)
	var c *client.Correction
	for i := 0; i < 40 && c == nil; i++ {
		r.advance(10 * time.Millisecond)
		c = r.me.View().LastCorrection
	}
	if c == nil {
		t.Fatal("no correction happened")
	}
	r.mustShow("corrections 1")
	r.mustShow(fmt.Sprintf("last %v → %v", c.From, c.To))
	r.mustShow(c.Reason)
	s, st := r.cell(c.From)
	_, bg, _ := st.Decompose()
	if s != "×" && bg != tcell.ColorDarkRed {
		t.Fatalf("correction at %v not marked: %q %v\n%s", c.From, s, st, r.text())
	}
	r.advance(tui.CorrectionMarkTime + 50*time.Millisecond)
	s, st = r.cell(c.From)
	_, bg, _ = st.Decompose()
	if s == "×" || bg == tcell.ColorDarkRed {
		t.Fatalf("correction mark still shown after %v", tui.CorrectionMarkTime)
	}
	r.mustShow("corrections 1")
}
