package tui_test

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/grid"
	"gridlag/lab"
)

// cellAt returns the character and the foreground colour of screen cell
// (x, y).
func (r *labRig) cellAt(x, y int) (string, tcell.Color) {
	ch, _, st, _ := r.screen.GetContent(x, y)
	fg, _, _ := st.Decompose()
	return string(ch), fg
}

// TestLabScreenMarksAndColours: at 160x45 the two players have different
// marks on the server's board, and each player keeps its mark and its
// colour on all three boards, and in its strip and ledger.
func TestLabScreenMarksAndColours(t *testing.T) {
	cfg := lab.Default()
	cfg.Players[0].Presses = nil
	r := newLabRig(t, cfg, 160, 45)
	r.pass(time.Second) // every board has both players
	cells := [2]grid.Pos{{X: 10, Y: 10}, {X: 14, Y: 10}}
	var colours [2]tcell.Color
	for p, cell := range cells {
		want := []string{"1", "2"}[p]
		for b := range 3 {
			x, y, ok := r.s.BoardCell(b, cell)
			if !ok {
				t.Fatalf("board %d is not drawn at 160x45", b)
			}
			mark, fg := r.cellAt(x, y)
			if mark != want {
				t.Fatalf("board %d: Player %d at %v is drawn %q, want %q:\n%s", b, p+1, cell, mark, want, r.text())
			}
			if b == 0 {
				colours[p] = fg
			} else if fg != colours[p] {
				t.Errorf("board %d: Player %d's colour is %v, on Player 1's board %v", b, p+1, fg, colours[p])
			}
		}
	}
	if colours[0] == colours[1] || colours[0] == tcell.ColorDefault {
		t.Fatalf("the players' colours are %v and %v", colours[0], colours[1])
	}
	// Player 1's input on its strip and in its ledger, in its colour.
	r.key(tcell.KeyRight, 0)
	r.pass(20 * time.Millisecond)
	for _, s := range []string{"#1 →", "last ack #0   pending 1", "1 Player 1"} {
		x, y, ok := r.find(s)
		if !ok {
			t.Fatalf("no %q:\n%s", s, r.text())
		}
		if _, fg := r.cellAt(x, y); fg != colours[0] {
			t.Errorf("%q is drawn in %v, Player 1's colour is %v", s, fg, colours[0])
		}
	}
}

// TestLabScreenTwoAtATime: at 100x30 (a projector with a large font)
// Player 1's board and the server's show side by side, Player 1's strip
// between them, its status line, toggles and ledger under its board; Tab
// shows the server's and Player 2's, and back.
func TestLabScreenTwoAtATime(t *testing.T) {
	r := newLabRig(t, lab.Default(), 100, 30)
	r.boardsFit(0, 1)
	r.mustShow("1 Player 1", "Server", "to server ▸", "◂ to Player 1", "you (10,10)  server (10,10)",
		"[x]pred [x]recon [x]interp 1 2 3", "last ack #0   pending 0", "Player 1 (10,10) ack #0", "[Tab Player 2]")
	r.key(tcell.KeyRight, 0)
	r.mustShow("you (11,10)  server (10,10)", "pending 1")
	r.key(tcell.KeyRune, 'n')
	r.mustShow("PAUSED", "▸ ")
	r.key(tcell.KeyTab, 0)
	r.boardsFit(1, 2)
	r.mustShow("Server", "2 Player 2", "◂ to server", "to Player 2 ▸", "[x]pred [x]recon [x]interp 4 5 6", "[Tab Player 1]")
	r.key(tcell.KeyTab, 0)
	r.boardsFit(0, 1)
}

// TestLabScreenLessonAtProjectorSizes: lesson 2 on the screen at 100x30
// and 80x24: its words show, then its question, and on Space the answer
// with what the lab shows, whole, beside the boards.
func TestLabScreenLessonAtProjectorSizes(t *testing.T) {
	for _, size := range [][2]int{{100, 30}, {80, 24}} {
		lesson, err := lab.BuiltinLesson(2)
		if err != nil {
			t.Fatal(err)
		}
		r := newRigOf(t, size[0], size[1], func(wall func() time.Time) (*lab.Lab, error) {
			return lab.NewLesson(lesson, lab.Default(), wall)
		})
		r.mustShow("Lesson 2: prediction", "[Space: run the step]")
		r.key(tcell.KeyRune, ' ')
		for n := 0; !strings.Contains(r.text(), "[Space: the answer]"); n++ {
			if n > 1000 {
				t.Fatalf("%dx%d: no question after %d frames:\n%s", size[0], size[1], n, r.text())
			}
			r.pass(10 * time.Millisecond)
		}
		r.mustShow("Q: Both presses are out.")
		r.key(tcell.KeyRune, ' ')
		var text []string // at 80x24, right of the board
		for _, row := range rows(r.screen) {
			if size[0] == 80 {
				row = string([]rune(row)[41:])
			}
			text = append(text, row)
		}
		shown := strings.Join(strings.Fields(strings.Join(text, " ")), " ")
		for _, want := range []string{"Q: Both presses are out. Where does Player 1 see itself?", "A: At (12,10): prediction applied each press at once.",
			"The lab: ✓ Player 1 sees itself at (12,10); ✓ Player 1's pending inputs: #1 #2", "[Space: go on]"} {
			if !strings.Contains(shown, want) {
				t.Errorf("%dx%d: the answer does not show %q:\n%s", size[0], size[1], want, r.text())
			}
		}
		if size[0] == 100 {
			r.mustShow("1 Player 1", "Server")
		}
	}
}

// TestLabScreenRehearsePartFour: at 100x30 a teacher runs Part IV (at the
// articles' -rate 0): Player 1's panel says the hit and the server's
// rewind; c and Backspace play it again without lag compensation, and
// the panel says the miss.
func TestLabScreenRehearsePartFour(t *testing.T) {
	cfg := partFour()
	cfg.Rate = 0
	r := newLabRig(t, cfg, 100, 30)
	r.pass(time.Second)
	r.mustShow("hit Player 2 (rewound 317ms)")
	r.key(tcell.KeyRune, 'c')
	r.key(tcell.KeyBackspace2, 0)
	r.mustShow("t 0.000s")
	if r.lab.LagComp() {
		t.Fatal("the restart turned lag compensation back on")
	}
	r.pass(time.Second)
	r.mustShow("miss: Player 2 had left the line")
}
