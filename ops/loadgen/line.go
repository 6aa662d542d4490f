package loadgen

import (
	"fmt"
	"net"
	"net/netip"
	"slices"
	"sync"
	"time"

	"gridlag/protocol"
)

// A server of version 6 says its rules of admission first (Admission):
// how many players one address may have. On a loopback target the run
// reads them from its first player's answer and, if N is more than that
// cap and no -addrs were given, spreads its players over as many 127/8
// addresses as it takes (127.0.0.1 and up), and says so. A player the
// server cannot take at once waits in its line (Queued, about once a
// second, its place falling): the run gives it a fresh handshake
// timeout each time it hears, and counts the waits.

// waitLine is what one player's handshake heard of the server's line.
type waitLine struct {
	queued       bool
	first, least uint32        // the place it was first told, and the least
	waited       time.Duration // from its Hello to its Welcome (or refusal)
}

// lineStats is what the run heard of the server's line, over its players.
type lineStats struct {
	mu       sync.Mutex
	waits    []time.Duration // of the players queued and then welcomed
	refused  int             // queued, then refused
	fell     int             // queued players whose place fell while they waited
	longest  uint32          // the longest line told
	firstAns chan struct{}   // closed once the first player heard the server's first answer
	once     sync.Once
	perAddr  int // the server's cap per address (Admission.PerAddr); 0 unknown or none
	spread   []netip.Addr
}

// answered records the server's first answer to the run's first player:
// its cap per address, if it said one.
func (l *lineStats) answered(a *protocol.Admission) {
	l.once.Do(func() {
		if a != nil {
			l.perAddr = int(a.PerAddr)
		}
		close(l.firstAns)
	})
}

// took records a handshake's wait in line.
func (l *lineStats) took(w waitLine, welcomed bool) {
	if !w.queued {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if welcomed {
		l.waits = append(l.waits, w.waited)
	} else {
		l.refused++
	}
	if w.least < w.first {
		l.fell++
	}
}

// heard records a Queued told to one player.
func (w *waitLine) heard(q *protocol.Queued, l *lineStats) {
	if !w.queued {
		w.queued, w.first = true, q.Place
	}
	w.least = min(w.least, q.Place)
	if w.least == 0 {
		w.least = q.Place
	}
	l.mu.Lock()
	l.longest = max(l.longest, q.Line)
	l.mu.Unlock()
}

// LineSummary is what a run heard of the server's line.
type LineSummary struct {
	// Queued is how many players waited in line before their Welcome or
	// refusal; Refused of them were refused in the end.
	Queued, Refused int
	// Fell is how many of the queued saw their place fall while they
	// waited.
	Fell int
	// Longest is the longest line the server told of.
	Longest int
	// WaitP50 and WaitMax are over the queued players let in: from the
	// Hello to the Welcome.
	WaitP50, WaitMax time.Duration
}

// summary folds the waits into a LineSummary; nil if nobody waited.
func (l *lineStats) summary() *LineSummary {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.waits) == 0 && l.refused == 0 {
		return nil
	}
	s := &LineSummary{Queued: len(l.waits) + l.refused, Refused: l.refused, Fell: l.fell, Longest: int(l.longest)}
	if len(l.waits) > 0 {
		w := slices.Sorted(slices.Values(l.waits))
		s.WaitP50, s.WaitMax = w[len(w)/2], w[len(w)-1]
	}
	return s
}

// text is the summary's line: "line        312 queued (the line up to
// 700), 312 let in after p50 3.2s, max 8.1s; 312 saw their place fall".
func (s *LineSummary) text() string {
	t := fmt.Sprintf("line        %d queued (the line up to %d), %d let in", s.Queued, s.Longest, s.Queued-s.Refused)
	if s.Queued > s.Refused {
		t += fmt.Sprintf(" after p50 %v, max %v", ms(s.WaitP50), ms(s.WaitMax))
	}
	return t + fmt.Sprintf(", %d refused; %d saw their place fall\n", s.Refused, s.Fell)
}

// loopbackTarget reports whether addr, host:port, is a loopback address
// given as an IP (a name is left to the system).
func loopbackTarget(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// autoSpread reports whether the run may spread its players over 127/8
// addresses by itself: a loopback IPv4 target, no source addresses given,
// more than one player.
func (r *run) autoSpread() bool {
	host, _, _ := net.SplitHostPort(r.opts.Addr)
	ip, _ := netip.ParseAddr(host)
	return len(r.opts.LocalAddrs) == 0 && r.opts.N > 1 && loopbackTarget(r.opts.Addr) && ip.Is4()
}

// spreadFor returns the 127/8 source addresses n players need when one
// address may have perAddr of them: 127.0.0.1 and up, nil when one does.
func spreadFor(n, perAddr int) []netip.Addr {
	if perAddr <= 0 || n <= perAddr {
		return nil
	}
	k := (n + perAddr - 1) / perAddr
	addrs := make([]netip.Addr, 0, k)
	a := netip.AddrFrom4([4]byte{127, 0, 0, 1})
	for range k {
		addrs = append(addrs, a)
		a = a.Next()
	}
	return addrs
}

// source is the address player n (from 1) connects from: the given
// addresses in turn, or the run's own spread (perAddr players to each, in
// blocks), or nil for the system's choice.
func (r *run) source(n int) net.Addr {
	if addrs := r.opts.LocalAddrs; len(addrs) > 0 {
		return &net.TCPAddr{IP: addrs[(n-1)%len(addrs)].AsSlice()}
	}
	if s := r.line.spread; len(s) > 0 {
		return &net.TCPAddr{IP: s[min((n-1)/r.line.perAddr, len(s)-1)].AsSlice()}
	}
	return nil
}
