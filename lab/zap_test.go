package lab

import (
	"strings"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/lab/scenario"
	"gridlag/protocol"
)

// TestLabZapBothSides: the lab's default players, Player 2 stepping down
// out of Player 1's line at 0 while Player 1 zaps at 200 ms from a script.
// With lag compensation the server tags Player 2 where Player 1 saw it,
// and both views say so; switched off live, the next such zap misses.
func TestLabZapBothSides(t *testing.T) {
	for _, on := range []bool{true, false} {
		cfg := Default()
		cfg.Players[0].Presses = []scenario.Press{{At: 200 * ms, Zap: true}}
		cfg.Players[1].Presses = []scenario.Press{{At: 0, Dir: grid.Down}}
		l, w := newLab(t, cfg)
		l.SetLagComp(on)
		if l.LagComp() != on {
			t.Fatalf("SetLagComp(%v): LagComp() = %v", on, l.LagComp())
		}
		if _, ok := l.LastZap(); ok {
			t.Fatal("a zap judged before any")
		}
		w.pass(time.Second)
		l.Sync()
		z, ok := l.LastZap()
		if !ok || z.Shooter != "Player 1" || z.Target != "Player 2" || z.Seen != (grid.Pos{X: 14, Y: 10}) {
			t.Fatalf("lag compensation %v: the server's last zap %+v", on, z)
		}
		p1, p2 := l.Players()[0].View(), l.Players()[1].View()
		if on {
			if z.Outcome != protocol.ZapHit || z.Rewind <= 0 || len(z.Beam) != 4 {
				t.Errorf("with lag compensation: %+v, want a hit 4 cells away, rewound", z)
			}
			if p1.LastZap == nil || !strings.HasPrefix(p1.LastZap.Line(), "hit Player 2 (rewound ") {
				t.Errorf("Player 1 reads %+v", p1.LastZap)
			}
			if p2.LastTagged == nil || !strings.HasPrefix(p2.LastTagged.Line(), "tagged by Player 1, who saw you at (14,10) ") || !p2.Frozen {
				t.Errorf("Player 2 reads %+v, frozen %v", p2.LastTagged, p2.Frozen)
			}
			continue
		}
		if z.Outcome != protocol.ZapLeft || z.Rewind != 0 {
			t.Errorf("without lag compensation: %+v, want a miss, Player 2 had left the line", z)
		}
		if p1.LastZap == nil || p1.LastZap.Line() != "miss: Player 2 had left the line" || p2.LastTagged != nil || p2.Frozen {
			t.Errorf("Player 1 reads %+v; Player 2 tagged %+v, frozen %v", p1.LastZap, p2.LastTagged, p2.Frozen)
		}
	}
}
