package sim

import (
	"slices"
	"testing"
	"time"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/server/world"
)

func pendingSeqs(v client.View) []uint32 {
	var out []uint32
	for _, p := range v.Pending {
		out = append(out, p.Seq)
	}
	return out
}

// TestStepDoesOneMomentAtATime: in the article's example (250 ms round
// trip, immediate answers), Next names the moment the input reaches the
// server, Step lands exactly there and does only that: the server has
// moved the player, the client still waits; the next Step lands on the
// State's arrival.
func TestStepDoesOneMomentAtATime(t *testing.T) {
	w := New(world.Config{Rate: 0})
	c := w.Join("ada", client.Options{Latency: 250 * ms})
	start := w.Now()
	c.Press(grid.Right)
	if next, ok := w.Next(); !ok || next != start+125*ms {
		t.Fatalf("next at %v (%v), want the input's arrival at start+125ms", next-start, ok)
	}
	if at, ok := w.Step(); !ok || at != start+125*ms || w.Now() != at {
		t.Fatalf("stepped to %v, now %v; want start+125ms", at-start, w.Now()-start)
	}
	if p, _ := w.Position(c); p != (grid.Pos{X: 11, Y: 10}) {
		t.Fatalf("after the step the server has %v, want (11,10)", p)
	}
	if v := c.View(); !slices.Equal(pendingSeqs(v), []uint32{1}) || v.LastAck != 0 {
		t.Fatalf("the step also delivered the answer: pending %v, ack %d", pendingSeqs(v), v.LastAck)
	}
	if at, _ := w.Step(); at != start+250*ms {
		t.Fatalf("second step to %v, want the State's arrival at start+250ms", at-start)
	}
	if v := c.View(); len(v.Pending) != 0 || v.LastAck != 1 {
		t.Fatalf("after the State: pending %v, ack %d", pendingSeqs(v), v.LastAck)
	}
}

// TestSetRateLive: a world at rate 0 answers an input at once; switched to
// 5 Hz, the next acknowledgement waits for a tick, and ticks come five a
// second; switched back to 0, inputs are answered at once and ticks stop.
func TestSetRateLive(t *testing.T) {
	w := New(world.Config{Rate: 0})
	c := w.Join("ada", client.Options{Latency: 100 * ms})
	s := w.Now()
	c.Press(grid.Right)
	w.AdvanceTo(s + 100*ms)
	if v := c.View(); v.LastAck != 1 {
		t.Fatalf("rate 0: ack %d a round trip after the press, want 1", v.LastAck)
	}
	w.SetRate(5) // ticks at s+300, s+500, ...
	if w.Rate() != 5 || w.Server().Config().Rate != 5 {
		t.Fatalf("rate %d, server's %d, want 5", w.Rate(), w.Server().Config().Rate)
	}
	w.AdvanceTo(s + 110*ms)
	c.Press(grid.Right) // reaches the server at s+160, acknowledged by the tick at s+300
	w.AdvanceTo(s + 349*ms)
	if v := c.View(); v.LastAck != 1 {
		t.Fatalf("rate 5: ack %d before the tick's State could arrive", v.LastAck)
	}
	w.AdvanceTo(s + 350*ms)
	if v := c.View(); v.LastAck != 2 {
		t.Fatalf("rate 5: ack %d once the tick's State arrived, want 2", v.LastAck)
	}
	ticks := w.Server().Stats().Ticks
	w.AdvanceTo(s + 1300*ms)
	if n := w.Server().Stats().Ticks - ticks; n != 5 {
		t.Fatalf("%d ticks in one second at 5 Hz", n)
	}
	w.SetRate(0)
	ticks = w.Server().Stats().Ticks
	w.Advance(time.Second)
	if n := w.Server().Stats().Ticks - ticks; n != 0 {
		t.Fatalf("%d ticks after the rate went to 0", n)
	}
	now := w.Now()
	c.Press(grid.Right)
	w.AdvanceTo(now + 100*ms)
	if v := c.View(); v.LastAck != 3 {
		t.Fatalf("back at rate 0: ack %d a round trip after the press, want 3", v.LastAck)
	}
}
