package link

import (
	"cmp"
	"math"
	"math/rand"
	"slices"
	"time"
)

// Datagram carries messages one way as datagrams do (UDP): each takes the
// delay plus a random jitter between 0 and the jitter, independently of
// the others, so a later one may arrive first; a lost one is never sent
// again and never arrives; nothing waits behind anything. A stall holds
// what would arrive during it until its end, as on a Line. It is what
// the simulator's datagram link is made of; the game's real link is TCP.
// A Datagram is not safe for concurrent use.
type Datagram[T any] struct {
	delay  time.Duration
	jitter time.Duration
	loss   float64
	rng    *rand.Rand
	queue  []datagram[T] // in the order sent
	floor  time.Duration // a stall's end: nothing arrives before it
	stall  time.Duration // a stall's start
}

type datagram[T any] struct {
	sent, due, at time.Duration
	lost          bool
	v             T
}

// NewDatagram returns a datagram line with the given one-way delay and
// jitter; seed drives the jitter and the loss.
func NewDatagram[T any](delay, jitter time.Duration, seed int64) *Datagram[T] {
	return &Datagram[T]{delay: max(delay, 0), jitter: max(jitter, 0), rng: rand.New(rand.NewSource(seed))}
}

// SetDelay changes the delay and jitter of datagrams sent from now on.
func (d *Datagram[T]) SetDelay(delay, jitter time.Duration) {
	d.delay, d.jitter = max(delay, 0), max(jitter, 0)
}

// SetLoss sets the probability that a datagram sent from now on is lost.
func (d *Datagram[T]) SetLoss(p float64) {
	if math.IsNaN(p) {
		p = 0
	}
	d.loss = min(max(p, 0), 1)
}

// Delay, Jitter and Loss return the line's conditions.
func (d *Datagram[T]) Delay() time.Duration  { return d.delay }
func (d *Datagram[T]) Jitter() time.Duration { return d.jitter }
func (d *Datagram[T]) Loss() float64         { return d.loss }

// Send puts v on the line at time now and returns when it arrives, or
// lost true if it never will (At is then when it would have).
func (d *Datagram[T]) Send(now time.Duration, v T) (at time.Duration, lost bool) {
	at = now + d.delay
	if d.jitter > 0 {
		at += time.Duration(d.rng.Int63n(int64(d.jitter) + 1))
	}
	lost = d.loss > 0 && d.rng.Float64() < d.loss
	due := at
	if at > d.stall && at < d.floor {
		at = d.floor
	}
	d.queue = append(d.queue, datagram[T]{sent: now, due: due, at: at, lost: lost, v: v})
	return at, lost
}

// Stall holds what would arrive after now and before now+d until now+d.
func (d *Datagram[T]) Stall(now, length time.Duration) {
	if length <= 0 {
		return
	}
	end := now + length
	for i := range d.queue {
		if q := &d.queue[i]; q.at > now && q.at < end {
			q.at = end
		}
	}
	d.stall, d.floor = now, max(d.floor, end)
}

// Receive appends to dst every datagram that arrives at or before now, in
// the order they arrive (the order sent among those arriving together),
// removes them and the lost ones due by then, and returns dst.
func (d *Datagram[T]) Receive(now time.Duration, dst []T) []T {
	var due []datagram[T]
	d.queue = slices.DeleteFunc(d.queue, func(q datagram[T]) bool {
		if q.at > now {
			return false
		}
		if !q.lost {
			due = append(due, q)
		}
		return true
	})
	slices.SortStableFunc(due, func(a, b datagram[T]) int { return cmp.Compare(a.at, b.at) })
	for _, q := range due {
		dst = append(dst, q.v)
	}
	return dst
}

// Next returns the earliest time a datagram on the line arrives, or is
// lost; ok is false when the line is empty.
func (d *Datagram[T]) Next() (at time.Duration, ok bool) {
	for _, q := range d.queue {
		if !ok || q.at < at {
			at, ok = q.at, true
		}
	}
	return at, ok
}

// Len returns the number of datagrams on the line, lost ones included.
func (d *Datagram[T]) Len() int { return len(d.queue) }

// InFlight yields every datagram on the line, in the order sent: Lost is
// 1 for one that will never arrive (At is when it would have), and Held
// is true for one a stall holds.
func (d *Datagram[T]) InFlight(yield func(Flight[T]) bool) {
	for _, q := range d.queue {
		f := Flight[T]{Sent: q.sent, At: q.at, Held: q.at > q.due, Value: q.v}
		if q.lost {
			f.Lost = 1
		}
		if !yield(f) {
			return
		}
	}
}
