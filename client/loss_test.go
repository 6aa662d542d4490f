package client

import (
	"testing"
	"time"
)

// TestDriverLoss: Options.Loss reaches the link: with every message
// lost, the Hello is not written after the one-way latency but waits for
// its retransmissions; without loss it goes after the latency.
func TestDriverLoss(t *testing.T) {
	for _, c := range []struct {
		loss float64
		due  time.Duration
	}{{0, 50 * time.Millisecond}, {1, 50*time.Millisecond + 31*200*time.Millisecond}} {
		d := NewDriver(0, Options{Latency: 100 * time.Millisecond, Loss: c.loss, Seed: 1})
		if d.Link().Loss() != c.loss {
			t.Fatalf("loss %v: the link has %v", c.loss, d.Link().Loss())
		}
		if got := d.Outgoing(c.due - time.Millisecond); len(got) != 0 {
			t.Fatalf("loss %v: the Hello went before %v", c.loss, c.due)
		}
		if got := d.Outgoing(c.due); len(got) != 1 {
			t.Fatalf("loss %v: %d frames due at %v, want the Hello", c.loss, len(got), c.due)
		}
	}
}
