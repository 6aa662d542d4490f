package remote

import "time"

// Rate is Burst events at once, then one every Every.
type Rate struct {
	Burst int
	Every time.Duration
}

// WindowChanges is the rate at which a session's terminal size may
// resize its screen, on every front end: each change of size costs a new
// screen (up to about 3 MB at the largest, tui.MaxWidth x tui.MaxHeight)
// and a repaint of every cell. A terminal being resized by hand reports a
// few dozen sizes a second, of which the screen needs the last: the front
// ends pass on the latest at this rate and drop the others.
var WindowChanges = Rate{Burst: 4, Every: 250 * time.Millisecond}

// Pace spaces events at a Rate (the generic cell rate algorithm); its zero
// time allows a whole burst at once. Not safe for concurrent use.
type Pace struct {
	Rate
	next time.Time // when an event would be due were there no burst
}

// Wait is how long from now until an event is allowed, 0 if it is now.
func (p *Pace) Wait(now time.Time) time.Duration {
	return max(p.next.Add(-time.Duration(p.Burst-1)*p.Every).Sub(now), 0)
}

// Take counts an event at now.
func (p *Pace) Take(now time.Time) {
	if p.next.Before(now) {
		p.next = now
	}
	p.next = p.next.Add(p.Every)
}
