package tui_test

import (
	"regexp"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/internal/perception"
	"gridlag/lab"
	"gridlag/protocol"
)

// TestLabPerceptionScreen: the lab's perception test on the lab's
// screen, at 160x45 (where every board, strip and panel shows) and at
// 80x24: p starts it; during a round the screen shows Player 1's board
// and the round's question, and no round trip, no server board, no
// strip, no panel, no instrument (g does not open the net graph); a
// click on [ y  laggy ] answers; at the end the plot of both curves and
// the answers show, Esc closes them.
func TestLabPerceptionScreen(t *testing.T) {
	for _, size := range [][2]int{{160, 45}, {80, 24}} {
		cfg := lab.Default()
		s, err := perception.ParseSettings("levels=0,370 repeats=1 controls=0 predict=both play=2s answer=5s")
		if err != nil {
			t.Fatal(err)
		}
		cfg.Perception = s
		r := newLabRig(t, cfg, size[0], size[1])
		r.mustShow("Player 1", "250ms")
		r.key(tcell.KeyRune, 'p')
		figures := regexp.MustCompile(`\d+ ?ms|370|250|150|Server|rtt|ack|pending|interp`)
		for round := 1; round <= s.Rounds(); round++ {
			r.mustShow("Perception test round", "Play: move and zap.", "Player 1 (you)")
			r.key(tcell.KeyRight, 0)
			r.key(tcell.KeyRune, 'g') // the net graph: not during a round
			r.pass(time.Second)
			if m := figures.FindString(r.text()); m != "" {
				t.Fatalf("%dx%d round %d: the screen shows %q:\n%s", size[0], size[1], round, m, r.text())
			}
			r.pass(time.Second)
			r.mustShow("Did that feel laggy?")
			if m := figures.FindString(r.text()); m != "" {
				t.Fatalf("%dx%d round %d, answering: the screen shows %q:\n%s", size[0], size[1], round, m, r.text())
			}
			x, y, ok := r.find("[ y  laggy ]")
			if !ok {
				t.Fatalf("no answer button:\n%s", r.text())
			}
			r.click(x+2, y)
		}
		r.mustShow("how much lag did Player 1 feel?", "prediction on", "prediction off", "Your threshold", "370",
			"answers not saved", "Esc back to the lab")
		for _, tr := range r.lab.PerceptionTrials() {
			if tr.Answer != perception.Laggy {
				t.Errorf("%dx%d: round %d answered %v, the click said laggy", size[0], size[1], tr.Round, tr.Answer)
			}
		}
		r.key(tcell.KeyEscape, 0)
		if r.lab.Perception().Phase != 0 {
			t.Fatalf("Esc left the results: %+v", r.lab.Perception())
		}
		r.mustShow("250ms")
		if r.lab.Perception().Phase == protocol.TrialOver || !r.has("Player 1") {
			t.Fatalf("not back to the lab:\n%s", r.text())
		}
	}
}
