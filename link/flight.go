package link

import "time"

// Flight is a message on a line, as a viewer draws it travelling.
type Flight[T any] struct {
	// Sent is when the message was sent.
	Sent time.Duration
	// At is when it will be delivered.
	At time.Duration
	// Lost is how many times it is lost before a copy gets through; above
	// zero, the message is being retransmitted.
	Lost int
	// Held is true when it is delivered later than its own delay and
	// retransmissions would make it: held by a stall or behind an earlier
	// message (head-of-line blocking).
	Held bool
	// Own is when it would have been delivered had nothing held it up:
	// its send time, the line's delay and its jitter. At less Own is how
	// long the line held it (retransmissions, head-of-line blocking,
	// stalls, the spacing of the way up).
	Own time.Duration
	// Value is the message itself.
	Value T
}

// Progress returns how far along its trip the message is at now, from 0
// (just sent) to 1 (due): (now − Sent) / (At − Sent), clamped.
func (f Flight[T]) Progress(now time.Duration) float64 {
	if f.At <= f.Sent || now >= f.At {
		return 1
	}
	if now <= f.Sent {
		return 0
	}
	return float64(now-f.Sent) / float64(f.At-f.Sent)
}

// InFlight yields every message on the line (sent and not yet received),
// oldest first, without removing any and without allocating. Use it as a
// range function: for f := range line.InFlight { ... }.
func (l *Line[T]) InFlight(yield func(Flight[T]) bool) {
	for _, q := range l.queue[l.head:] {
		f := Flight[T]{Sent: q.sent, At: q.at, Lost: q.lost, Held: q.at > q.due, Own: q.own, Value: q.v}
		if !yield(f) {
			return
		}
	}
}
