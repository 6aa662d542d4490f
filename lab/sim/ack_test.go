package sim

import (
	"testing"
	"time"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/server/world"
)

// stepUntil steps w one moment at a time until cond holds.
func stepUntil(t *testing.T, w *World, what string, cond func() bool) {
	t.Helper()
	for !cond() {
		if _, ok := w.Step(); !ok {
			t.Fatalf("nothing more happens, and no %s", what)
		}
	}
}

// TestAckAfterTheRoundTripAndATick: with a 200 ms injected round trip at
// 20 Hz, RIGHT from (10,10) shows (11,10) at once, before any answer; the
// acknowledgement comes no sooner than the round trip and no later than
// one update interval after it, whenever in the tick the key is pressed;
// then nothing is pending and nothing was corrected. (Over real TCP,
// client/tcp's TestRealTCPPredictionAndAck checks the "no sooner".)
func TestAckAfterTheRoundTripAndATick(t *testing.T) {
	const rate = 20
	interval := time.Second / rate
	for offset := time.Duration(0); offset < interval; offset += 7 * ms {
		w := New(world.Config{Rate: rate})
		c := w.Join("ada", client.Options{Latency: 200 * ms})
		w.Advance(offset)
		sent := w.Now()
		c.Press(grid.Right)
		v := c.View()
		if v.Predicted != (grid.Pos{X: 11, Y: 10}) || v.Server != (grid.Pos{X: 10, Y: 10}) || len(v.Pending) != 1 || v.Pending[0].Seq != 1 {
			t.Fatalf("offset %v, right after the press: sees %v, server %v, pending %+v; want (11,10), (10,10) and #1", offset, v.Predicted, v.Server, v.Pending)
		}
		stepUntil(t, w, "acknowledgement", func() bool { return c.View().LastAck >= 1 })
		if took := w.Now() - sent; took < 200*ms || took > 200*ms+interval {
			t.Fatalf("offset %v: acknowledged after %v, want 200ms plus at most one update interval (%v)", offset, took, interval)
		}
		v = c.View()
		if len(v.Pending) != 0 || v.Predicted != (grid.Pos{X: 11, Y: 10}) || v.Server != (grid.Pos{X: 11, Y: 10}) || v.Corrections != 0 {
			t.Fatalf("offset %v, after the ack: sees %v, server %v, pending %d, corrections %d", offset, v.Predicted, v.Server, len(v.Pending), v.Corrections)
		}
	}
}

// TestLatencyChangesLive: the slider's call applies to the next messages.
// A client that joined with a 600 ms round trip sets it to 0: once the
// Pong of the Ping sent before the change is in (TCP keeps order, so an
// input would queue behind it), a press is acknowledged within one update
// interval, well within the 300 ms the real-TCP test used to allow.
func TestLatencyChangesLive(t *testing.T) {
	const rate = 50
	w := New(world.Config{Rate: rate})
	c := w.Join("ada", client.Options{Latency: 600 * ms})
	c.SetLatency(0)
	if v := c.View(); v.Latency != 0 {
		t.Fatalf("latency %v after SetLatency(0)", v.Latency)
	}
	stepUntil(t, w, "pong", func() bool { return c.View().RTT != 0 })
	sent := w.Now()
	c.Press(grid.Down)
	stepUntil(t, w, "acknowledgement", func() bool { return c.View().LastAck >= 1 })
	if took, interval := w.Now()-sent, time.Second/rate; took > interval {
		t.Fatalf("acknowledged after %v with the latency set to 0, want within one update interval (%v)", took, interval)
	}
}

// TestChangedOnArrivalAndEnd: a simulated client's Changed receives when
// a message arrives and when the connection ends, as the TCP client's
// does: the adapter, not the driver, owns the channel, and fills it from
// the driver's notes.
func TestChangedOnArrivalAndEnd(t *testing.T) {
	w := New(world.Config{Rate: 20})
	c := w.Join("ada", client.Options{Latency: 100 * ms})
	drain := func() {
		select {
		case <-c.Changed():
		default:
		}
	}
	drain()
	w.Advance(49 * ms)
	drain()
	stepUntil(t, w, "State", func() bool {
		select {
		case <-c.Changed():
			return true
		default:
			return false
		}
	})
	if v := c.View(); v.Err != nil || !v.Connected {
		t.Fatalf("a change that was no message: %+v", v)
	}
	drain()
	w.Hangup(c, "test")
	w.Advance(50 * ms)
	select {
	case <-c.Changed():
	default:
		t.Fatal("no change signalled for the end of the connection")
	}
	select {
	case <-c.Done():
	default:
		t.Fatal("the session is not done after the server hung up")
	}
	if c.View().Err == nil {
		t.Fatal("ended without a reason")
	}
}
