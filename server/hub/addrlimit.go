package hub

import (
	"time"

	"gridlag/server/world"
)

// addrRate limits how often each remote address may do one thing (join,
// open a room, ask for the room list): a token bucket per address, kept
// as the time its bucket will be full again (the generic cell rate
// algorithm), so an address costs one map entry while it has used its
// bucket recently and nothing once the bucket is full again (sweep). The
// hub owns it; times are the hub's clock.
type addrRate struct {
	every time.Duration            // one more allowed per this time
	burst int                      // allowed back to back
	due   map[string]time.Duration // per address: when its bucket is full again
}

func newAddrRate(every time.Duration, burst int) *addrRate {
	return &addrRate{every: every, burst: max(burst, 1), due: make(map[string]time.Duration)}
}

// allow reports whether host may do it once more at now, and counts it if
// so.
func (a *addrRate) allow(host string, now time.Duration) bool {
	due := max(a.due[host], now)
	if due-now > time.Duration(a.burst-1)*a.every {
		return false
	}
	a.due[host] = due + a.every
	return true
}

// fresh reports whether host's bucket is full at now: it has done nothing
// recently.
func (a *addrRate) fresh(host string, now time.Duration) bool { return a.due[host] <= now }

// sweep forgets the addresses whose buckets are full at now: they are as
// if never seen.
func (a *addrRate) sweep(now time.Duration) {
	for host, due := range a.due {
		if due <= now {
			delete(a.due, host)
		}
	}
}

// share is the rule of a pool that addresses hold parts of (rooms, a
// room's spectator slots): no address holds more than its share, and the
// pool's last places go only to addresses that hold none, so that a few
// addresses filling the pool still leave newcomers a way in.
type share struct {
	pool    int // the places in all
	perAddr int // the most one address holds
	reserve int // the last places, for addresses holding none
}

// newShare returns the share of a pool of n places with perAddr for each
// address, and the pool's last eighth (at least one place) kept for
// addresses holding none.
func newShare(n, perAddr int) share {
	return share{pool: n, perAddr: perAddr, reserve: max(1, n/8)}
}

// refusal says why an address holding mine of the pool's used places is
// refused one more: "" if it is welcome, "addr" if it holds its share,
// "reserve" if only the reserve is left and it holds some, "full" if none
// is left.
func (s share) refusal(used, mine int) string {
	switch {
	case used >= s.pool:
		return "full"
	case mine >= s.perAddr:
		return "addr"
	case mine > 0 && used >= s.pool-s.reserve:
		return "reserve"
	}
	return ""
}

// addrCount counts the joined players of each address.
type addrCount struct {
	hosts map[world.ConnID]string // the address of each joined connection
	count map[string]int          // joined connections per address
}

// join counts connection id, from host, as joined, once.
func (a *addrCount) join(id world.ConnID, host string) {
	if _, counted := a.hosts[id]; counted {
		return
	}
	a.hosts[id] = host
	a.count[host]++
}

// leave forgets connection id if it had joined.
func (a *addrCount) leave(id world.ConnID) {
	host, ok := a.hosts[id]
	if !ok {
		return
	}
	delete(a.hosts, id)
	if a.count[host]--; a.count[host] <= 0 {
		delete(a.count, host)
	}
}
