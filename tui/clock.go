package tui

import "time"

// Clock is the time the interface's loop runs on: it paces the frames and
// the end-of-session grace. Run uses the real clock unless Options.Clock
// gives another, e.g. a virtual clock in a test.
type Clock interface {
	// Now returns the current time.
	Now() time.Time
	// After returns a channel that receives the time once d has passed.
	After(d time.Duration) <-chan time.Time
}

// realClock is the system's clock.
type realClock struct{}

// Now returns time.Now().
func (realClock) Now() time.Time { return time.Now() }

// After returns time.After(d).
func (realClock) After(d time.Duration) <-chan time.Time { return time.After(d) }
