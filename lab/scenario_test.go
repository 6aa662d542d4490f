package lab

import (
	"slices"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/lab/scenario"
)

// TestAgreesWithScenario: with the article's flags (rate 0, RIGHT at 0 and
// 100 ms, 250 ms round trip), with reconciliation, without it and without
// prediction, Player 1's board shows exactly what `gridlag scenario`
// prints: stepping the lab event by event, once each moment is done,
// Player 1 sees the cell, the server has the cell, and the pending list is
// the one of the scenario's last line at or before that moment.
func TestAgreesWithScenario(t *testing.T) {
	for _, c := range []struct {
		name               string
		predict, reconcile bool
	}{
		{"default", true, true},
		{"-reconcile=false", true, false},
		{"-predict=false", false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			sc := scenario.Default()
			sc.Predict, sc.Reconcile = c.predict, c.reconcile
			lines, err := scenario.Run(sc)
			if err != nil {
				t.Fatal(err)
			}
			cfg := Default()
			cfg.Rate = 0
			p1 := &cfg.Players[0]
			p1.Presses, p1.Predict, p1.Reconcile = sc.Player.Presses, c.predict, c.reconcile
			l, _ := newLab(t, cfg)
			last := time.Duration(lines[len(lines)-1].T)
			checked := map[int64]bool{}
			for l.Now() <= last+time.Second {
				if l.Next() == l.Now() {
					l.Step() // this moment is not done yet
					continue
				}
				want := lineAt(lines, l.Now())
				checked[want.TMS] = true
				p := l.Players()[0]
				v := p.View()
				pos, _ := serverHas(t, l, 0)
				got := [3]any{[2]int{v.Predicted.X, v.Predicted.Y}, [2]int{pos.X, pos.Y}, seqs(p)}
				if got[0] != want.Client || got[1] != want.Server || !slices.Equal(seqs(p), want.Pending) {
					t.Fatalf("t=%v: sees %v, server %v, pending %v; the scenario at %d ms (%s): %v %v %v",
						l.Now(), got[0], got[1], got[2], want.TMS, want.Event, want.Client, want.Server, want.Pending)
				}
				l.Step()
			}
			for _, ln := range lines {
				if !checked[ln.TMS] {
					t.Errorf("the lab never stood at the scenario's moment %d ms (%s)", ln.TMS, ln.Event)
				}
			}
			if v := l.Players()[0].View(); v.Predicted != (grid.Pos{X: 12, Y: 10}) {
				t.Errorf("Player 1 ends at %v, want (12,10)", v.Predicted)
			}
		})
	}
}

// lineAt returns the scenario's state at t: its last line at or before t.
func lineAt(lines []scenario.Line, t time.Duration) scenario.Line {
	var out scenario.Line
	for _, ln := range lines {
		if time.Duration(ln.T) <= t && ln.Player == "you" {
			out = ln
		}
	}
	return out
}
