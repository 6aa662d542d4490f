package grid

// Limiter enforces the speed limit of one player: on average at most one move
// per move time, with a burst allowance of a few moves so that network jitter,
// which can bunch an honest player's inputs together, never rejects them.
//
// It is a generic cell rate algorithm: it remembers only the theoretical
// arrival time of the next move. The zero value allows the first move at any
// time.
//
// It is gridlag's one rate limiter: every other rate (joins, rooms and
// room lists per address, a connection's messages, a session's requests
// and window changes) is this one, on durations (package internal/limit).
type Limiter struct {
	next  int64 // theoretical time of the next move
	begun bool
}

// Allow reports whether a move at time now respects the limit, and if it
// does, records it. moveTime is the time one move takes; burst is how many
// moves may come back to back (1 means strictly one per moveTime).
func (l *Limiter) Allow(now, moveTime int64, burst int) bool {
	if burst < 1 {
		burst = 1
	}
	if !l.begun {
		l.begun = true
		l.next = now
	}
	if now < l.next-int64(burst-1)*moveTime {
		return false
	}
	if now > l.next {
		l.next = now
	}
	l.next += moveTime
	return true
}

// Earliest returns the earliest time at which Allow would accept a move, for
// the given move time and burst.
func (l *Limiter) Earliest(moveTime int64, burst int) int64 {
	if !l.begun {
		return -1 << 62
	}
	if burst < 1 {
		burst = 1
	}
	return l.next - int64(burst-1)*moveTime
}

// Full reports whether at time now the limiter is as if it had allowed
// nothing yet: its whole burst is there again. A full limiter can be
// forgotten and made anew at no cost.
func (l *Limiter) Full(now int64) bool { return !l.begun || l.next <= now }
