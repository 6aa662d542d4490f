package sshd

import "sync"

// Stats are the server's counts of what its limits turned away, for a
// metrics exporter: by kind, one of RefusalKinds.
type Stats struct {
	Refused map[string]uint64
	// Resizes counts the window changes that resized a session's screen
	// (after clamping, coalescing and the limit: see passRequests).
	Resizes uint64
	// Abandoned counts the sessions Close stopped waiting for: still
	// running after the grace period with their connections closed (see
	// remote.Lifecycle.Close).
	Abandoned uint64
	// Sessions is how many session handlers run now.
	Sessions int
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
		KindBannerTimeout, KindShakeTimeout, KindSessionFull, KindSessionAddr, KindSessionReserved, KindRequestFlood, KindAttempts}
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
