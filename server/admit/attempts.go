package admit

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"gridlag/internal/limit"
)

// The default rate of new connections from one address (a front end's
// -web-attempts and -ssh-attempts): DefaultAttempts a minute, the first
// DefaultAttemptBurst at once. A class of 40 behind one school's NAT
// opens its 40 pages (or ssh sessions) at once within the burst, with a
// third to spare for reloads and a teacher, then two a second, a reload
// by each of the 40 every 20 seconds, for ever; a script reconnecting in
// a loop is held to the same, each attempt past it turned away before
// the costly part (a session, a key exchange).
const (
	DefaultAttempts     = 120
	DefaultAttemptBurst = 60
)

// AttemptAddrs bounds the addresses whose attempts an Attempts
// remembers at once (a few hundred kilobytes): an address that has done
// nothing for a minute is forgotten anyway, and past the bound those
// that tried the least lately are forgotten first (limit.PerKey.MaxKeys),
// so a spread over many addresses costs no memory past it, and never
// frees an address held back.
const AttemptAddrs = 4096

// KindAttempts is the kind of an attempt refused for its address's rate,
// for the log's summaries and the counters.
const KindAttempts = "attempt_rate"

// Attempts is the rate of new connections (a WebSocket upgrade, an SSH
// connection) from each address (see Key), checked when one arrives,
// before anything is spent on it. It is safe for concurrent use.
type Attempts struct {
	perMinute int
	now       func() time.Duration

	mu      sync.Mutex
	rate    *limit.PerKey
	swept   time.Duration // when the rate last forgot the idle
	peak    int           // the most addresses remembered since the last Trim
	refused atomic.Uint64
}

// NewAttempts returns the rate of perMinute new connections a minute
// from one address, burst of them at once (each at least 1), on the
// clock now (a monotonic clock from now on if nil).
func NewAttempts(perMinute, burst int, now func() time.Duration) *Attempts {
	perMinute = max(perMinute, 1)
	if now == nil {
		start := time.Now()
		now = func() time.Duration { return time.Since(start) }
	}
	rate := limit.NewPerKey(limit.Rate{Burst: max(burst, 1), Every: time.Minute / time.Duration(perMinute)})
	rate.MaxKeys = AttemptAddrs
	return &Attempts{perMinute: perMinute, now: now, rate: rate}
}

// sweepEvery is how often Allow forgets the addresses whose whole burst
// is back.
const sweepEvery = time.Minute

// Allow counts a new connection from key, or says why it may not come
// now: the refusal (KindAttempts, and a sentence with the rate, for the
// peer) and the wait until one more may come, which the front end tells
// in its own way (a line over SSH, a countdown on the page).
func (a *Attempts) Allow(key string) (Refusal, time.Duration) {
	a.mu.Lock()
	defer a.mu.Unlock()
	now := a.now()
	if now-a.swept >= sweepEvery {
		a.rate.Sweep(now)
		a.swept = now
		if n := a.rate.Len(); n < a.peak/4 {
			a.rate.Trim() // a crowd left: give its map's room back
			a.peak = n
		}
	}
	if a.rate.Allow(key, now) {
		a.peak = max(a.peak, a.rate.Len())
		return Refusal{}, 0
	}
	a.refused.Add(1)
	wait := a.rate.Wait(key, now)
	return Refusal{Kind: KindAttempts, Text: fmt.Sprintf("too many new connections from your address (at most %d a minute)", a.perMinute)}, wait
}

// Refused counts the attempts refused.
func (a *Attempts) Refused() uint64 { return a.refused.Load() }

// Remembered is the number of addresses remembered now.
func (a *Attempts) Remembered() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.rate.Len()
}

// Seconds is d in whole seconds, rounded up, at least 1: a wait as a
// peer is told it.
func Seconds(d time.Duration) int {
	return max(1, int((d+time.Second-1)/time.Second))
}
