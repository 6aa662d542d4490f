package server

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"gridlag/protocol"
	"gridlag/server/world"
)

// TestHeartbeatStopsWhileTheWorldIsStuck: the heartbeat comes from the
// goroutine that owns the world, so while that goroutine is stuck (here in
// OnEvent, on a join) no beat comes, and the beats resume after.
func TestHeartbeatStopsWhileTheWorldIsStuck(t *testing.T) {
	var beats atomic.Int64
	stuck := make(chan struct{})
	release := make(chan struct{})
	events := make(chan world.Event, 8)
	ts := startServer(t, Options{
		HeartbeatInterval: 2 * time.Millisecond,
		Heartbeat:         func() { beats.Add(1) },
		OnEvent: func(ev world.Event) {
			events <- ev
			if ev.Kind == world.EventJoin {
				close(stuck)
				<-release
			}
		},
	})
	waitBeats(t, &beats, 3)

	c := dial(t, ts)
	c.send(&protocol.Hello{Version: protocol.Version, Name: "ann"})
	<-stuck
	before := beats.Load()
	// Nothing may happen meanwhile: this sleep is what is tested, a lower
	// bound (fifteen beats' worth) that a busy machine only lengthens.
	time.Sleep(30 * time.Millisecond)
	if n := beats.Load(); n != before {
		t.Fatalf("%d beats while the world was stuck, want none", n-before)
	}
	close(release)
	waitBeats(t, &beats, before+3)

	c.join("ann") // the Welcome, sent once the world went on
	c.send(&protocol.Bye{})
	for _, want := range []world.EventKind{world.EventJoin, world.EventLeave} {
		select {
		case ev := <-events:
			if ev.Kind != want || ev.Name != "ann" {
				t.Fatalf("OnEvent got %v of %q, want %v of ann", ev.Kind, ev.Name, want)
			}
		case <-time.After(wait):
			t.Fatalf("OnEvent never got the %v", want)
		}
	}
}

// waitBeats waits until beats reaches n.
func waitBeats(t *testing.T, beats *atomic.Int64, n int64) {
	t.Helper()
	eventually(t, func() bool { return beats.Load() >= n },
		func() string { return fmt.Sprintf("%d heartbeats, want %d", beats.Load(), n) })
}
