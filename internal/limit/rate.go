package limit

import (
	"cmp"
	"maps"
	"slices"
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
	// MaxKeys, if positive, bounds the keys remembered at once, so that
	// keys never seen before (a spread over many addresses) cannot grow
	// the map without bound: a new key past it first sweeps, then, if
	// all are still in use, makes room by forgetting the eighth of the
	// keys nearest to their whole burst (see makeRoom).
	MaxKeys int
	held    map[string]grid.Limiter
}

// NewPerKey returns r for each key.
func NewPerKey(r Rate) *PerKey {
	return &PerKey{Rate: r, held: make(map[string]grid.Limiter)}
}

// Allow reports whether key may do it once more at now, and counts it if
// so.
func (p *PerKey) Allow(key string, now time.Duration) bool {
	l, known := p.held[key]
	if !p.Rate.Allow(&l, now) {
		return false
	}
	if !known && p.MaxKeys > 0 && len(p.held) >= p.MaxKeys {
		p.makeRoom(now)
	}
	p.held[key] = l
	return true
}

// Wait is how long from now until key may do it once more: 0 if it may
// now.
func (p *PerKey) Wait(key string, now time.Duration) time.Duration {
	l := p.held[key]
	return p.Rate.Wait(&l, now)
}

// makeRoom brings the keys remembered below MaxKeys: it forgets those
// whose burst is back (Sweep), then, if that was not enough, an eighth of
// MaxKeys more, those that would have their whole burst back the soonest.
// Forgetting a key forgives what it used of its burst: the ones forgotten
// first are those that used the least lately (a key seen once among many
// new ones), and the keys held back, which used the most, are kept
// until every key remembered is as busy. Sorting the keys costs
// O(n log n) once for each eighth of MaxKeys new keys.
func (p *PerKey) makeRoom(now time.Duration) {
	p.Sweep(now)
	if len(p.held) < p.MaxKeys {
		return
	}
	type due struct {
		key string
		at  int64
	}
	all := make([]due, 0, len(p.held))
	for k, l := range p.held {
		all = append(all, due{k, l.Earliest(int64(p.Every), p.Burst)})
	}
	slices.SortFunc(all, func(a, b due) int { return cmp.Compare(a.at, b.at) })
	for _, d := range all[:len(all)-p.MaxKeys+max(p.MaxKeys/8, 1)] {
		delete(p.held, d.key)
	}
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
