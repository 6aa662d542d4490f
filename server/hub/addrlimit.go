package hub

import "gridlag/server/world"

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
