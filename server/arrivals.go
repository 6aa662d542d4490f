package server

import (
	"io"
	"sync/atomic"
	"time"

	"gridlag/grid"
	"gridlag/internal/limit"
)

// arrivals wraps a connection's reads to tell when the bytes of a message
// came: the flood limit charges a message at the time its bytes were read
// from the kernel, spread evenly over the time since the read before, not
// at the time the reader decodes it. So a reader that the scheduler
// starved, and that then reads a backlog in one call, sees the messages
// at the pace the client sent them, and an honest client is never taken
// for a flooder; a flooder's reads come back to back, full.
type arrivals struct {
	r     io.Reader
	clock func() time.Duration
	seen  *atomic.Int64 // set to the time of every read that brings bytes

	prev, last    time.Duration // times of the read before the last one, and of the last one
	before, total int64         // bytes read before the last read, and in all
}

// newArrivals reads from r; born is when the connection was accepted,
// on clock.
func newArrivals(r io.Reader, clock func() time.Duration, born time.Duration, seen *atomic.Int64) *arrivals {
	seen.Store(int64(born))
	return &arrivals{r: r, clock: clock, seen: seen, prev: born, last: born}
}

// Read reads from the connection, noting when bytes came.
func (a *arrivals) Read(p []byte) (int, error) {
	n, err := a.r.Read(p)
	a.came(n)
	return n, err
}

// came notes that n bytes were just read from the connection (a reader
// that reads the socket itself calls it after each read; r is nil then).
func (a *arrivals) came(n int) {
	if n > 0 {
		a.prev, a.last = a.last, a.clock()
		a.before, a.total = a.total, a.total+int64(n)
		a.seen.Store(int64(a.last))
	}
}

// at returns when the byte at offset end-1 (end bytes consumed) arrived:
// between the last two reads, in proportion to its place in the last one.
func (a *arrivals) at(end int64) time.Duration {
	if end <= a.before || a.total == a.before {
		return a.prev
	}
	frac := float64(min(end, a.total)-a.before) / float64(a.total-a.before)
	return a.prev + time.Duration(frac*float64(a.last-a.prev))
}

// floodLimit is a connection's message rate limit, charged by arrivals.
type floodLimit struct {
	in   *arrivals
	rate limit.Rate
	lim  grid.Limiter
}

// newFloodLimit limits what comes through in to rate messages per second,
// sustained, with bursts of twice as many.
func newFloodLimit(in *arrivals, rate int) *floodLimit {
	return &floodLimit{in: in, rate: limit.PerSecond(rate, 2*rate)}
}

// allow charges the message whose last byte is at offset end-1 of the
// stream, at the time it arrived; false means the client floods.
func (f *floodLimit) allow(end int64) bool {
	return f.rate.Allow(&f.lim, f.in.at(end))
}
