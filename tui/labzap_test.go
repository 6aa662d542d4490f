package tui_test

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/grid"
	"gridlag/lab"
	"gridlag/lab/scenario"
	"gridlag/tui"
)

// Part IV's case: Player 2 at (12,10) steps down at 0; Player 1, with a
// 200 ms round trip, zaps at 150 ms where it still sees Player 2.
func partFour() lab.Config {
	cfg := lab.Default()
	cfg.Players[0].Latency = 200 * time.Millisecond
	cfg.Players[0].Presses = []scenario.Press{{At: 150 * time.Millisecond, Zap: true}}
	cfg.Players[1].Start = grid.Pos{X: 12, Y: 10}
	cfg.Players[1].Presses = []scenario.Press{{At: 0, Dir: grid.Down}}
	return cfg
}

// The lag compensation switch of the server's controls (c, or a click)
// switches the lab's server live.
func TestLabLagCompToggle(t *testing.T) {
	r := newLabRig(t, lab.Default(), 160, 45)
	r.mustShow("[x] lag compensation  c")
	r.key(tcell.KeyRune, 'c')
	if r.lab.LagComp() {
		t.Fatal("c left lag compensation on")
	}
	r.mustShow("[ ] lag compensation")
	x, y, ok := r.find("[ ] lag compensation")
	if !ok || !r.click(x+1, y) || !r.lab.LagComp() {
		t.Fatalf("a click on the switch at (%d,%d) left lag compensation %v", x, y, r.lab.LagComp())
	}
	r.mustShow("[x] lag compensation")
}

// Enter zaps for Player 1, f for Player 2: each player's ledger has its
// zap.
func TestLabZapKeys(t *testing.T) {
	r := newLabRig(t, lab.Default(), 160, 45)
	r.key(tcell.KeyEnter, 0)
	r.key(tcell.KeyRune, 'f')
	for i, p := range r.lab.Players() {
		v := p.View()
		if len(v.Pending) != 1 || !v.Pending[0].Zap {
			t.Errorf("Player %d's pending after its zap key: %+v", i+1, v.Pending)
		}
	}
	r.mustShow("#1     zap")
}

// Part IV's case on screen: with lag compensation Player 1's panel reads
// a hit and Player 2's a tag; without, a miss. The server's board shows
// the judged zap and, for a second, a faint mark of Player 2 where
// Player 1 saw it.
func TestLabPartFourOnScreen(t *testing.T) {
	for _, on := range []bool{true, false} {
		cfg := partFour()
		cfg.LagComp = on
		r := newLabRig(t, cfg, 160, 45)
		r.pass(500 * time.Millisecond)
		want, other := "miss: Player 2 had left the line", "hit Player 2"
		if on {
			want, other = "hit Player 2 (rewound ", "miss: Player 2"
		}
		x, _, ok := r.find(want)
		if !ok || x >= 40 {
			t.Fatalf("lag compensation %v: %q is not on Player 1's panel (column %d):\n%s", on, want, x, r.text())
		}
		if strings.Contains(r.text(), other) {
			t.Errorf("lag compensation %v: the screen shows %q", on, other)
		}
		seen := grid.Pos{X: 12, Y: 10}
		if on {
			r.mustShow("zap Player 1: hit Player 2", "judged at (12,10), rewound ", "tagged by Player 1, who", "score Player 1 1, Player 2 0 (frozen)")
		} else {
			// Without lag compensation the server judged the zap against
			// the world as it was: Player 2 at (12,11), out of the line.
			r.mustShow("zap Player 1: miss: Player 2 had left", "judged at (12,11), no rewind", "(Player 1 saw it at (12,10))", "score Player 2 0, Player 1 0")
		}
		x, y, _ := r.s.BoardCell(1, seen)
		if got := r.at(x, y); got != "2" {
			t.Errorf("lag compensation %v: the server's board shows %q at %v, want Player 2's faint mark", on, got, seen)
		}
		r.pass(tui.JudgedZapTime)
		if got := r.at(x, y); got != "·" {
			t.Errorf("lag compensation %v: the mark at %v is still there after a second: %q", on, seen, got)
		}
	}
}

// TestLabJudgedAfterRestartWithoutRewind: Part IV with lag compensation,
// then c and Backspace: the server's panel says where the server judged
// the zap, Player 2 at (12,11), and where Player 1 saw it, not the cell
// the rewound world had (issue 32, item 8).
func TestLabJudgedAfterRestartWithoutRewind(t *testing.T) {
	r := newLabRig(t, partFour(), 160, 45)
	r.pass(500 * time.Millisecond)
	r.mustShow("judged at (12,10), rewound ")
	r.key(tcell.KeyRune, 'c')
	r.key(tcell.KeyBackspace2, 0)
	r.pass(500 * time.Millisecond)
	r.mustShow("zap Player 1: miss: Player 2 had left", "judged at (12,11), no rewind", "(Player 1 saw it at (12,10))")
	r.mustNotShow("judged at (12,10)")
}

// The repro in the lab: Player 1 tags Player 2 at once, and zaps
// again as it thaws, seeing it frozen where it was tagged: the panels and
// the server's lines say it was already tagged, not a second hit; with
// -protect, its first zap finds Player 2 protected.
func TestLabNoTagAfterRespawnOnScreen(t *testing.T) {
	cfg := lab.Default()
	cfg.Players[0].Latency = 200 * time.Millisecond
	cfg.Players[0].Presses = []scenario.Press{{At: 0, Zap: true}, {At: 2100 * time.Millisecond, Zap: true}}
	cfg.Players[1].Start = grid.Pos{X: 12, Y: 10}
	r := newLabRig(t, cfg, 160, 45)
	r.pass(3 * time.Second)
	r.mustShow("miss: Player 2 was already tagged", "zap Player 1: miss: Player 2 was tagged", "score Player 1 1, Player 2 0")

	cfg.Protect = 2 * time.Second
	r = newLabRig(t, cfg, 160, 45)
	r.pass(time.Second)
	r.mustShow("miss: Player 2 was protected", "zap Player 1: miss: Player 2 safe", "Player 2 (12,10) ack #0  safe")
}
