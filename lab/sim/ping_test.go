package sim

import (
	"testing"
	"time"

	"gridlag/client"
	"gridlag/server/world"
)

// TestPingMeasuresTheRoundTrip: the server knows no round trip until it
// pings (PingEvery: the first Ping an interval from now); one injected
// round trip after a Ping, its overview has it.
func TestPingMeasuresTheRoundTrip(t *testing.T) {
	w := New(world.Config{Rate: 10})
	w.Join("ada", client.Options{Latency: 200 * time.Millisecond})
	if o := w.Server().Overview(0, nil); len(o) != 1 || o[0].HasRTT {
		t.Fatalf("before any Ping: %+v, want one player without a round trip", o)
	}
	w.PingEvery(time.Second)
	w.Advance(time.Second - time.Millisecond)
	if o := w.Server().Overview(0, nil); o[0].HasRTT {
		t.Fatalf("the round trip is known before the first Ping: %v", o[0].RTT)
	}
	w.Advance(time.Millisecond + 199*time.Millisecond)
	if o := w.Server().Overview(0, nil); o[0].HasRTT {
		t.Fatalf("the round trip is known before the Pong could come back: %v", o[0].RTT)
	}
	w.Advance(time.Millisecond)
	o := w.Server().Overview(0, nil)
	if !o[0].HasRTT || o[0].RTT != 200*time.Millisecond {
		t.Fatalf("after one round trip: rtt %v (known %v), want 200ms", o[0].RTT, o[0].HasRTT)
	}
}
