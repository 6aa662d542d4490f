package link

import (
	"math/rand"
	"time"
)

// Line delays the messages sent one way. Each message is delivered at the
// time it was sent plus the line's delay plus a random jitter between 0 and
// the line's jitter, later if it is lost and sent again (see SetLoss) or
// caught in a stall (see Stall), and never before a message sent earlier:
// the order is kept, as TCP keeps it. A Line is not safe for concurrent use.
type Line[T any] struct {
	delay  time.Duration
	jitter time.Duration
	loss   float64
	rng    *rand.Rand
	queue  []item[T]
	head   int
	floor  time.Duration // no message sent from now on is delivered before this
	stall  time.Duration // the end of the last stall: nothing reaches the far end before it
	own    time.Duration // when the latest message queued was due, had nothing been lost or stalled
	sent   time.Duration // send time of the latest message queued
	sentAt time.Duration // the delay in force when it was sent
	credit time.Duration // compression a lowered delay allows and messages have not used yet
	spaced bool          // jitter never delivers closer together than sent
	any    bool          // a message was sent
	follow *follower     // the trace the line follows; nil for none
}

type item[T any] struct {
	sent time.Duration
	// resent is when the copy that gets through was sent: sent, unless
	// the message is lost.
	resent time.Duration
	own    time.Duration // its send time plus the delay and its jitter: nothing lost, held or stalled
	due    time.Duration // its own delivery time, losses included: later is a hold-up
	// arrive is when it reaches the far end: due, or the end of a stall
	// that holds it. From then until at it waits there, behind an earlier
	// message (in the receiver's buffer, as TCP keeps it).
	arrive time.Duration
	at     time.Duration
	lost   int
	v      T
}

// NewLine returns a line with the given one-way delay and jitter; seed
// drives the jitter, so the same seed gives the same delays.
func NewLine[T any](delay, jitter time.Duration, seed int64) *Line[T] {
	return &Line[T]{delay: delay, jitter: jitter, rng: rand.New(rand.NewSource(seed))}
}

// SetDelay changes the delay and jitter for messages sent from now on.
// Messages already on the line keep their delivery times.
func (l *Line[T]) SetDelay(delay, jitter time.Duration) {
	l.delay, l.jitter = max(delay, 0), max(jitter, 0)
}

// KeepSpacing makes jitter unable to bunch messages together: they are
// delivered at least as far apart as they were sent, less only what a
// lowered delay takes off (which applies at once, to the next message). The
// client-to-server line keeps spacing so that an honest player's inputs,
// sent no faster than the speed limit, reach the server no faster either,
// whatever the jitter. Loss and stalls still bunch messages, as TCP
// releases its backlog in a burst.
func (l *Line[T]) KeepSpacing(on bool) { l.spaced = on }

// Delay returns the one-way delay.
func (l *Line[T]) Delay() time.Duration { return l.delay }

// Jitter returns the jitter bound.
func (l *Line[T]) Jitter() time.Duration { return l.jitter }

// Send puts v on the line at time now and returns when it will be delivered
// (a later Stall may hold it longer).
func (l *Line[T]) Send(now time.Duration, v T) time.Duration {
	l.sync(now)
	own, due := l.schedule(now)
	lost := l.losses()
	wait := backoff(l.RTO(), lost)
	due += wait
	at := max(due, l.floor)
	l.floor = at
	l.queue = append(l.queue, item[T]{sent: now, resent: now + wait, own: own, due: due, arrive: max(due, l.stall), at: at, lost: lost, v: v})
	return at
}

// schedule returns when a message sent at now is due if it is not lost and
// nothing stalls: delay and jitter (own), then kept in order behind the
// previous message and, with KeepSpacing, spaced as sent (due).
func (l *Line[T]) schedule(now time.Duration) (own, due time.Duration) {
	at := now + l.delay
	if l.jitter > 0 {
		at += time.Duration(l.rng.Int63n(int64(l.jitter) + 1))
	}
	own = at
	if at < l.own {
		at = l.own
	}
	if l.spaced && l.any {
		// A lowered delay may bring messages closer together by as much
		// as it was lowered, in total, over as many messages as the order
		// needs; a raised one cancels what is left of that.
		l.credit = max(l.credit+l.sentAt-l.delay, 0)
		spaced := l.own + (now - l.sent)
		if floor := spaced - l.credit; at < floor {
			at = floor
		}
		if at < spaced {
			l.credit -= spaced - at
		}
	}
	l.own, l.sent, l.sentAt, l.any = at, now, l.delay, true
	return own, at
}

// Receive appends to dst, in the order sent, every message due at or before
// now, removes them from the line and returns the extended slice.
func (l *Line[T]) Receive(now time.Duration, dst []T) []T {
	l.sync(now)
	for l.head < len(l.queue) && l.queue[l.head].at <= now {
		dst = append(dst, l.queue[l.head].v)
		var zero T
		l.queue[l.head].v = zero
		l.head++
	}
	if l.head == len(l.queue) {
		l.queue, l.head = l.queue[:0], 0
	} else if l.head > 64 && l.head*2 > len(l.queue) {
		n := copy(l.queue, l.queue[l.head:])
		clear(l.queue[n:])
		l.queue, l.head = l.queue[:n], 0
	}
	return dst
}

// Next returns the delivery time of the oldest message on the line; ok is
// false when the line is empty.
func (l *Line[T]) Next() (at time.Duration, ok bool) {
	if l.head == len(l.queue) {
		return 0, false
	}
	return l.queue[l.head].at, true
}

// Len returns the number of messages on the line.
func (l *Line[T]) Len() int { return len(l.queue) - l.head }
