package agones

import "time"

// Backoff is the wait between the tries of a call the sidecar did not
// answer: First, doubling after every try up to Max. Each wait is drawn at
// random from the upper half of its range (jitter), so that game servers
// started together do not call in step.
type Backoff struct {
	First, Max time.Duration
}

// DefaultBackoff is the Backoff of Options that give none.
var DefaultBackoff = Backoff{First: 50 * time.Millisecond, Max: 2 * time.Second}

// wait returns the wait after try (0 for the first try), for r drawn
// uniformly from [0, 1).
func (b Backoff) wait(try int, r float64) time.Duration {
	d := b.First
	for i := 0; i < try && d < b.Max; i++ {
		d *= 2
	}
	d = min(d, b.Max)
	return d/2 + time.Duration(r*float64(d/2))
}
