package lab

import (
	"strings"
	"testing"
	"time"

	"gridlag/grid"
)

// TestLessonSixEvenPace holds lesson 6's last step to its words: through
// the satellite's handover, Player 1 draws Player 2 a cell at a time, at
// an even pace (a cell every 80 to 120 ms once it walks), never skipping
// one, never standing still in between, on the lesson's own settings.
func TestLessonSixEvenPace(t *testing.T) {
	lesson, err := BuiltinLesson(6)
	if err != nil {
		t.Fatal(err)
	}
	step := lesson.Steps[len(lesson.Steps)-1]
	cfg := Default()
	for _, s := range append(append([]Setting(nil), lesson.Settings...), step.Settings...) {
		if err := cfg.Set(s.Name, s.Value); err != nil {
			t.Fatal(err)
		}
	}
	if cfg.Players[0].Trace == nil || cfg.Players[0].Trace.Name != "starlink" {
		t.Fatalf("the step's Player 1 follows %v, want starlink", cfg.Players[0].Trace)
	}
	l, err := New(cfg, func() time.Time { return time.Time{} })
	if err != nil {
		t.Fatal(err)
	}
	drawn := func() (grid.Pos, bool) {
		v := l.players[0].View()
		other := l.players[1].View().Me
		for _, o := range v.Others {
			if o.ID == other {
				return o.Pos, true
			}
		}
		return grid.Pos{}, false
	}
	last, ok := drawn()
	if !ok {
		t.Fatal("Player 1 does not draw Player 2")
	}
	var moved []time.Duration
	for at := time.Duration(0); at <= 1100*time.Millisecond; at += 5 * time.Millisecond {
		l.RunTo(at)
		p, _ := drawn()
		if p == last {
			continue
		}
		if p.X != last.X+1 || p.Y != last.Y {
			t.Fatalf("at %v Player 2 is drawn at %v, from %v: not one cell on", at, p, last)
		}
		moved, last = append(moved, at), p
	}
	if len(moved) < 9 {
		t.Fatalf("Player 2 drawn moving at %v, want a cell every 100 ms", moved)
	}
	for i := 1; i < len(moved); i++ {
		if gap := moved[i] - moved[i-1]; gap < 80*time.Millisecond || gap > 120*time.Millisecond {
			t.Fatalf("Player 2 drawn moving at %v: %v between two cells, not an even pace", moved, gap)
		}
	}
}

// TestStepNamesTheTraceStep: stepping the lab (n) stops at a step of
// the trace a player's link follows, and the caption says what changed.
func TestStepNamesTheTraceStep(t *testing.T) {
	cfg := Default()
	if err := cfg.Set("trace", "lte-handover@4.9s"); err != nil {
		t.Fatal(err)
	}
	cfg.Paused = true
	l, err := New(cfg, func() time.Time { return time.Time{} })
	if err != nil {
		t.Fatal(err)
	}
	for range 50 {
		l.Step()
		if l.Now() > 150*time.Millisecond {
			break
		}
		if c := l.Caption(); strings.Contains(c, "network changes") {
			if want := "Player 1's network changes (trace lte-handover): handover, same frequency"; !strings.Contains(c, want) || l.Now() != 100*time.Millisecond {
				t.Fatalf("at %v the caption says %q, want %q at 100ms", l.Now(), c, want)
			}
			return
		}
	}
	t.Fatal("no step stopped at the trace's handover, 100 ms in")
}
