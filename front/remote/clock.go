package remote

import "time"

// Clock is the time a session is paced on: its window changes
// (Resizer), its client's requests and messages (limit.Rate). Times are
// durations from the clock's start. WallClock is the real one; a test
// gives its own, which it moves by hand.
type Clock interface {
	// Now is the time since the clock's start.
	Now() time.Duration
	// AfterFunc calls f in its own goroutine once d has passed; stop
	// cancels the call, reporting whether it did so before f began.
	AfterFunc(d time.Duration, f func()) (stop func() bool)
}

// WallClock returns the wall clock, counting from now.
func WallClock() Clock { return wallClock{start: time.Now()} }

type wallClock struct{ start time.Time }

func (c wallClock) Now() time.Duration { return time.Since(c.start) }

func (wallClock) AfterFunc(d time.Duration, f func()) func() bool {
	return time.AfterFunc(d, f).Stop
}
