package world

import (
	"runtime"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
)

// heapNow is the heap's live bytes after a collection.
func heapNow() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestTrimLetsACrowdsBuffersGo: the buffers 1,000 players' ticks grew (a
// million cells of States a tick) stay with the Core after 996 of them
// leave, kept for reuse; Trim lets them go, and the 4 who stayed play on
// (a move, their States), a steady tick allocating nothing again.
func TestTrimLetsACrowdsBuffersGo(t *testing.T) {
	c := busyCore(t, 1000)
	now := 2 * time.Second
	c.Tick(now)
	c.Outbox()
	for i := 5; i <= 1000; i++ {
		c.Disconnect(now, ConnID(i), "gone")
	}
	c.Outbox()
	for range 3 {
		now += 50 * time.Millisecond
		c.Tick(now)
		c.Outbox()
	}
	if s := c.Stats(); s.Players != 4 {
		t.Fatalf("%d players after the crowd left", s.Players)
	}
	kept := heapNow()
	c.Trim()
	trimmed := heapNow()
	t.Logf("the Core's heap after the crowd: %d kB kept, %d kB trimmed", kept>>10, trimmed>>10)
	if kept < trimmed+16<<20 {
		t.Errorf("Trim let %d kB go of %d kB, want the crowd's 16 MB and more", (kept-trimmed)>>10, kept>>10)
	}
	c.Receive(now, 1, &protocol.Input{Seq: 2, Dir: grid.Right})
	c.Outbox()
	now += 50 * time.Millisecond
	c.Tick(now)
	out := c.Outbox().Envelopes
	acked := false
	for _, e := range out {
		if st, ok := e.Msg.(*protocol.State); ok && e.To == 1 && st.Ack == 2 {
			acked = true
		}
	}
	if len(out) != 4 || !acked {
		t.Fatalf("a tick after Trim sent %d envelopes (acked #2: %v), want a State to each of 4", len(out), acked)
	}
	allocs := testing.AllocsPerRun(20, func() {
		now += 50 * time.Millisecond
		c.Tick(now)
		c.Outbox()
	})
	if allocs != 0 {
		t.Errorf("a steady tick after Trim allocates %.1f times, want 0", allocs)
	}
}
