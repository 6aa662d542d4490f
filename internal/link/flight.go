package link

import "time"

// Flight is a message on a line, as a viewer draws it travelling.
type Flight[T any] struct {
	// Sent is when the message was sent.
	Sent time.Duration
	// Resent is when the copy that gets through was (or will be) sent:
	// Sent, unless the message is lost.
	Resent time.Duration
	// Arrive is when it reaches the far end (the receiver's buffer). It
	// is delivered then, or at At if it waits there behind an earlier
	// message that is late (head-of-line blocking).
	Arrive time.Duration
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

// Progress returns how far along its trip the copy that gets through is
// at now, from 0 (not sent yet, or just sent) to 1 (at the far end):
// (now − Resent) / (Arrive − Resent), clamped. A lost message stays at 0
// until it is sent again; one that waits behind an earlier message is at
// 1 from its arrival until it is delivered (see Waiting).
func (f Flight[T]) Progress(now time.Duration) float64 {
	if f.Arrive <= f.Resent || now >= f.Arrive {
		return 1
	}
	if now <= f.Resent {
		return 0
	}
	return float64(now-f.Resent) / float64(f.Arrive-f.Resent)
}

// Waiting reports whether at now the message has reached the far end and
// waits there to be delivered, behind an earlier message.
func (f Flight[T]) Waiting(now time.Duration) bool { return now >= f.Arrive && now < f.At }

// Resending reports whether at now a lost message waits at the sender
// for its retransmission.
func (f Flight[T]) Resending(now time.Duration) bool { return now < f.Resent }

// InFlight yields every message on the line (sent and not yet received),
// oldest first, without removing any and without allocating. Use it as a
// range function: for f := range line.InFlight { ... }.
func (l *Line[T]) InFlight(yield func(Flight[T]) bool) {
	for _, q := range l.queue[l.head:] {
		f := Flight[T]{Sent: q.sent, Resent: q.resent, Arrive: q.arrive, At: q.at, Lost: q.lost, Held: q.at > q.due, Own: q.own, Value: q.v}
		if !yield(f) {
			return
		}
	}
}
