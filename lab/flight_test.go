package lab

import (
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/lab/sim"
	"gridlag/protocol"
)

// TestInFlightStrip: right after Player 1 presses RIGHT (250 ms round
// trip, 3 Hz), its way up shows Input #1 RIGHT at progress 0; halfway
// through the 125 ms one-way delay, at 0.5; once delivered, it is gone,
// the server's board says ack #1, and at the server's next update a State
// comes down saying ack #1.
func TestInFlightStrip(t *testing.T) {
	l, w := newLab(t, Default())
	p1 := l.Players()[0]
	p1.Press(grid.Right)
	up := inputs(p1, sim.Up)
	if len(up) != 1 || up[0].Seq != 1 || up[0].Dir != grid.Right || up[0].Progress != 0 {
		t.Fatalf("just pressed, going up %+v; want Input #1 RIGHT at 0", up)
	}
	w.pass(62500 * time.Microsecond)
	l.Sync()
	if up := inputs(p1, sim.Up); len(up) != 1 || up[0].Progress != 0.5 {
		t.Fatalf("halfway, going up %+v; want #1 at 0.5", up)
	}
	w.pass(62500 * time.Microsecond)
	l.Sync()
	if up := inputs(p1, sim.Up); len(up) != 0 {
		t.Fatalf("delivered, going up still %+v", up)
	}
	if pos, ack := serverHas(t, l, 0); pos != (grid.Pos{X: 11, Y: 10}) || ack != 1 {
		t.Fatalf("the server's board: Player 1 %v ack #%d, want (11,10) ack #1", pos, ack)
	}
	l.Pause()
	for range 100 {
		for _, f := range ofType(p1, sim.Down, protocol.TypeState) {
			if f.Ack == 1 {
				if tick := time.Second / 3; f.Sent%tick != 0 || f.Progress != 0 {
					t.Fatalf("the State saying ack #1 left at %v (progress %v), not at an update tick", f.Sent, f.Progress)
				}
				return
			}
		}
		l.Step()
	}
	t.Fatal("no State saying ack #1 came down")
}

// TestLostMessageHoldsBackTheRest: Player 1's input #1 is lost (loss
// forced to 1 for that one message); #2 and #3, sent after it, wait behind
// it on the strip, and the server has none of them until #1 is
// retransmitted; then all three arrive at once, in order, and the server
// walks Player 1 three cells.
func TestLostMessageHoldsBackTheRest(t *testing.T) {
	cfg := Default()
	cfg.Rate = 0
	cfg.Players[0].Latency = 100 * ms
	l, w := newLab(t, cfg)
	p1 := l.Players()[0]
	p1.SetLoss(1)
	p1.Press(grid.Right)
	p1.SetLoss(0)
	for range 2 {
		w.pass(100 * ms)
		l.Sync()
		p1.Press(grid.Right)
	}
	up := inputs(p1, sim.Up)
	if len(up) != 3 || up[0].Lost == 0 || !up[1].Held || !up[2].Held || up[1].At != up[0].At || up[2].At != up[0].At {
		t.Fatalf("going up %+v; want #1 lost, #2 and #3 held behind it", up)
	}
	arrive := up[0].At - l.origin
	w.pass(arrive - l.Now() - 1)
	l.Sync()
	if pos, ack := serverHas(t, l, 0); pos != (grid.Pos{X: 10, Y: 10}) || ack != 0 {
		t.Fatalf("just before #1 gets through, the server has %v ack #%d", pos, ack)
	}
	w.pass(1)
	l.Sync()
	if pos, ack := serverHas(t, l, 0); pos != (grid.Pos{X: 13, Y: 10}) || ack != 3 {
		t.Fatalf("once #1 got through, the server has %v ack #%d, want (13,10) ack #3", pos, ack)
	}
	if up := inputs(p1, sim.Up); len(up) != 0 {
		t.Fatalf("still going up %+v", up)
	}
	if v := p1.View(); v.Corrections != 0 {
		t.Fatalf("%d corrections: the inputs did not arrive in order", v.Corrections)
	}
}

// TestLagSpike: a one-second stall on Player 1's link holds what it sends
// and what comes to it for that second, then releases it; Player 2's link
// goes on as before: its press is answered within the stall.
func TestLagSpike(t *testing.T) {
	l, w := newLab(t, Default())
	p1, p2 := l.Players()[0], l.Players()[1]
	start := l.Now()
	p1.Stall(SpikeLength)
	p1.Press(grid.Right)
	p2.Press(grid.Up)
	end := l.origin + start + SpikeLength
	w.pass(SpikeLength / 2)
	l.Sync()
	for _, way := range []sim.Way{sim.Up, sim.Down} {
		for _, f := range p1.InFlight(way, nil) {
			if f.At < end {
				t.Fatalf("during the stall, %+v arrives before it ends", f)
			}
		}
	}
	if len(ofType(p1, sim.Down, protocol.TypeState)) == 0 {
		t.Fatal("no update held on the way down in half a second at 3 Hz")
	}
	if v := p2.View(); v.LastAck != 1 {
		t.Fatalf("half a second in, Player 2's #1 is not acknowledged (ack #%d): its link was held too", v.LastAck)
	}
	for _, f := range p2.InFlight(sim.Down, nil) {
		if f.Held || f.At-f.Sent != 75*ms {
			t.Fatalf("Player 2's link was held too: %+v", f)
		}
	}
	w.pass(SpikeLength/2 - 1)
	l.Sync()
	if pos, _ := serverHas(t, l, 0); pos != (grid.Pos{X: 10, Y: 10}) {
		t.Fatalf("the server moved Player 1 to %v during the stall", pos)
	}
	w.pass(1)
	l.Sync()
	if pos, ack := serverHas(t, l, 0); pos != (grid.Pos{X: 11, Y: 10}) || ack != 1 {
		t.Fatalf("after the stall the server has Player 1 at %v ack #%d, want (11,10) ack #1", pos, ack)
	}
	for _, f := range p1.InFlight(sim.Down, nil) {
		if f.At <= end {
			t.Fatalf("after the stall, %+v is still held", f)
		}
	}
}
