package server

import (
	"sync/atomic"
	"testing"
	"time"
)

// chunks is a connection whose reads return the given chunks in turn,
// each at its time on a virtual clock.
type chunks struct {
	now   time.Duration
	reads []timedRead
}

type timedRead struct {
	at time.Duration
	n  int // bytes
}

func (c *chunks) Read(p []byte) (int, error) {
	r := c.reads[0]
	c.reads = c.reads[1:]
	c.now = r.at
	return r.n, nil
}

// inputs returns the reads of count 8-byte Inputs, split into reads of at
// most per Inputs, the first at start and one every gap.
func inputs(count, per int, start, gap time.Duration) []timedRead {
	var reads []timedRead
	for at := start; count > 0; at += gap {
		n := min(per, count)
		reads = append(reads, timedRead{at: at, n: 8 * n})
		count -= n
	}
	return reads
}

// admitted feeds the reads through arrivals and a flood limit of rate
// messages per second, and returns how many of the 8-byte messages pass
// before the first refused.
func admitted(reads []timedRead, rate int) int {
	conn := &chunks{reads: reads}
	var seen atomic.Int64
	in := newArrivals(conn, func() time.Duration { return conn.now }, 0, &seen)
	flood := newFloodLimit(in, rate)
	var end int64
	passed := 0
	for len(conn.reads) > 0 {
		n, _ := in.Read(nil)
		for range n / 8 {
			end += 8
			if !flood.allow(end) {
				return passed
			}
			passed++
		}
	}
	return passed
}

// TestFloodLimitCountsWhenSent: an honest client (10 inputs a second)
// whose reader was starved for 10 s reads its backlog of 100 inputs in one
// call: they are charged over the 10 s they took to come, not at once, so
// a limit of 20 a second (bursts of 40) lets every one through. A flooder
// whose reads come back to back, full, is refused within its burst.
func TestFloodLimitCountsWhenSent(t *testing.T) {
	const rate = 20
	if got := admitted(inputs(100, 100, 10*time.Second, 0), rate); got != 100 {
		t.Errorf("a starved reader's backlog of 100 honest inputs: %d passed, want all", got)
	}
	if got := admitted(inputs(300, 30, time.Millisecond, time.Millisecond), rate); got > 2*rate+rate/5 {
		t.Errorf("a flood of 30 inputs a millisecond: %d passed, want it refused after its burst of %d", got, 2*rate)
	}
}
