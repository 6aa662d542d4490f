package hub

import (
	"gridlag/internal/limit"
	"gridlag/server/world"
)

// share is the fair share (limit.Share) of a pool that addresses hold
// parts of (rooms, a room's spectator slots) with n places, perAddr for
// each address, and the pool's last eighth (at least one place) kept for
// addresses holding none.
func share(n, perAddr int) limit.Share {
	return limit.Share{Pool: n, PerAddr: perAddr, Reserve: max(1, n/8), Few: 1}
}

// addrCount counts the joined players of each address.
type addrCount struct {
	hosts map[world.ConnID]string // the address of each joined connection
	count map[string]int          // joined connections per address, those of free not counted
	// free are the joined connections that count against no address:
	// those a class's code let in (classcode.go).
	free map[world.ConnID]bool
}

// join counts connection id, from host, as joined, once; free: it counts
// against no address, but its address is known.
func (a *addrCount) join(id world.ConnID, host string, free bool) {
	if _, counted := a.hosts[id]; counted {
		return
	}
	a.hosts[id] = host
	if free {
		a.free[id] = true
		return
	}
	a.count[host]++
}

// leave forgets connection id if it had joined.
func (a *addrCount) leave(id world.ConnID) {
	host, ok := a.hosts[id]
	if !ok {
		return
	}
	delete(a.hosts, id)
	if a.free[id] {
		delete(a.free, id)
		return
	}
	if a.count[host]--; a.count[host] <= 0 {
		delete(a.count, host)
	}
}
