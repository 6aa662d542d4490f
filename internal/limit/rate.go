package limit

import (
	"maps"
	"time"

	"gridlag/grid"
)

// Rate is Burst events at once, then one every Every: a bucket of Burst
// tokens that gains one each Every. A Burst below one is one.
type Rate struct {
	Burst int
	Every time.Duration
}

// PerSecond is n events a second, burst of them at once; n is at least
// one.
func PerSecond(n, burst int) Rate {
	return Rate{Burst: burst, Every: time.Second / time.Duration(max(n, 1))}
}

// Allow reports whether an event at now keeps to r, given what l has
// counted, and counts it if it does.
func (r Rate) Allow(l *grid.Limiter, now time.Duration) bool {
	return l.Allow(int64(now), int64(r.Every), r.Burst)
}

// Wait is how long from now until r allows an event on l: 0 if it
// does now.
func (r Rate) Wait(l *grid.Limiter, now time.Duration) time.Duration {
	return max(time.Duration(l.Earliest(int64(r.Every), r.Burst))-now, 0)
}

// PerKey is a Rate for each key (a remote address): a key costs one map
// entry while it has used its burst lately, and nothing once its whole
// burst is back (Sweep). The zero PerKey is not usable: make one with
// NewPerKey.
type PerKey struct {
	Rate
	held map[string]grid.Limiter
}

// NewPerKey returns r for each key.
func NewPerKey(r Rate) *PerKey {
	return &PerKey{Rate: r, held: make(map[string]grid.Limiter)}
}

// Allow reports whether key may do it once more at now, and counts it if
// so.
func (p *PerKey) Allow(key string, now time.Duration) bool {
	l := p.held[key]
	if !p.Rate.Allow(&l, now) {
		return false
	}
	p.held[key] = l
	return true
}

// Wait is how long from now until key may do it once more: 0 if it may
// now. It counts nothing.
func (p *PerKey) Wait(key string, now time.Duration) time.Duration {
	l := p.held[key]
	return p.Rate.Wait(&l, now)
}

// Fresh reports whether key has its whole burst at now: it has done
// nothing lately.
func (p *PerKey) Fresh(key string, now time.Duration) bool {
	l := p.held[key]
	return l.Full(int64(now))
}

// Sweep forgets the keys whose whole burst is back at now: they are as if
// never seen.
func (p *PerKey) Sweep(now time.Duration) {
	for key, l := range p.held {
		if l.Full(int64(now)) {
			delete(p.held, key)
		}
	}
}

// Len is the number of keys remembered.
func (p *PerKey) Len() int { return len(p.held) }

// Trim lets go of the room the keys of a crowd made (a map never
// shrinks).
func (p *PerKey) Trim() { p.held = maps.Clone(p.held) }
