package sshd

import (
	"net"
	"sync"
)

// pool is one of the server's shared pools: open connections,
// connections still in their handshake, or game sessions, counted in all
// and per remote address (see addrKey). Its rules keep a few addresses
// from exhausting it:
//
//   - an address holds at most perAddr places;
//   - the last reserve places go only to addresses holding fewer than
//     share, so that once the pool is nearly full an address that already
//     holds many is refused before anyone else, and a newcomer from an
//     address holding none still gets in.
//
// The reserve is a quarter of the pool, and never more than the pool has
// beyond one address's places: an operator who lets one address take the
// whole pool (a classroom's server, perAddr = cap) gets all of it. Its
// methods are called with the server's mu held.
type pool struct {
	cap, perAddr int
	reserve      int // the last places, for addresses holding fewer than share
	share        int
	used         int
	from         map[string]int
}

func newPool(cap, perAddr int) pool {
	return pool{
		cap:     cap,
		perAddr: perAddr,
		reserve: min(cap/4, max(cap-perAddr, 0)),
		share:   max(perAddr/4, 1),
		from:    make(map[string]int),
	}
}

// verdict is why a pool refuses one more place, or admitted.
type verdict int

const (
	admitted verdict = iota
	addrFull         // the address holds perAddr places
	reserved         // the pool is into its reserve and the address holds share or more
	poolFull         // the pool is full
)

// check says whether key may take one more place.
func (p *pool) check(key string) verdict {
	held := p.from[key]
	switch {
	case held >= p.perAddr:
		return addrFull
	case p.used >= p.cap:
		return poolFull
	case p.used >= p.cap-p.reserve && held >= p.share:
		return reserved
	}
	return admitted
}

// take counts one more place held by key.
func (p *pool) take(key string) {
	p.used++
	p.from[key]++
}

// give counts one place of key's as given back.
func (p *pool) give(key string) {
	p.used--
	if p.from[key]--; p.from[key] <= 0 {
		delete(p.from, key)
	}
}

// heaviest returns the address holding the most places and how many
// (ties: any of them), "" and 0 for an empty pool.
func (p *pool) heaviest() (key string, held int) {
	for k, n := range p.from {
		if n > held {
			key, held = k, n
		}
	}
	return key, held
}

// addrKey is the key of the per-address caps for a remote address: its
// IP for IPv4, its /64 prefix for IPv6 (one host commonly holds a whole
// /64: counting its addresses one by one would give it thousands of
// shares).
func addrKey(a net.Addr) string {
	ip := hostIP(a)
	if ip == nil {
		return hostOf(a)
	}
	if v4 := ip.To4(); v4 != nil {
		return v4.String()
	}
	return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
}

// hostIP is the IP of a remote address, nil if it has none.
func hostIP(a net.Addr) net.IP {
	if tcp, ok := a.(*net.TCPAddr); ok {
		return tcp.IP
	}
	return net.ParseIP(hostOf(a))
}

// Stats are the server's counts of what its limits turned away, for a
// metrics exporter: by kind, one of RefusalKinds.
type Stats struct {
	Refused map[string]uint64
	// Resizes counts the window changes that resized a session's screen
	// (after clamping, coalescing and the limit: see passRequests).
	Resizes uint64
}

// The kinds of refusals, cuts and evictions the server counts (labels for
// an exporter; never an address or a number).
const (
	KindClosing         = "closing"        // the server is shutting down
	KindConnFull        = "conn_full"      // open connections: the pool is full
	KindConnAddr        = "conn_addr"      // open connections: the address's share
	KindConnReserved    = "conn_reserved"  // open connections: the last places, kept for other addresses
	KindShakeAddr       = "handshake_addr" // handshakes: the address's share
	KindShakeFull       = "handshake_full" // handshakes: the pool is full and nobody holds more than the newcomer's address
	KindShakeReserved   = "handshake_reserved"
	KindShakeEvicted    = "handshake_evicted" // a pending handshake closed to make room for an address holding fewer
	KindBannerTimeout   = "banner_timeout"    // no SSH banner within BannerTimeout
	KindShakeTimeout    = "handshake_timeout" // no game session within HandshakeTimeout
	KindSessionFull     = "session_full"
	KindSessionAddr     = "session_addr"
	KindSessionReserved = "session_reserved"
	KindRequestFlood    = "request_flood" // a session sent requests faster than sessionLimits.requests
)

// RefusalKinds lists every kind Stats counts.
func RefusalKinds() []string {
	return []string{KindClosing, KindConnFull, KindConnAddr, KindConnReserved,
		KindShakeAddr, KindShakeFull, KindShakeReserved, KindShakeEvicted,
		KindBannerTimeout, KindShakeTimeout, KindSessionFull, KindSessionAddr, KindSessionReserved, KindRequestFlood}
}

// counts counts refusals by kind; safe for concurrent use.
type counts struct {
	mu sync.Mutex
	n  map[string]uint64
}

func (c *counts) add(kind string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = make(map[string]uint64)
	}
	c.n[kind]++
}

// snapshot returns the counts, every kind of RefusalKinds present.
func (c *counts) snapshot() map[string]uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]uint64, len(RefusalKinds()))
	for _, k := range RefusalKinds() {
		out[k] = c.n[k]
	}
	return out
}
