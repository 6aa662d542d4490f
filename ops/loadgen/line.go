package loadgen

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"slices"
	"sync"
	"time"

	"gridlag/protocol"
)

// A server of version 6 says its rules of admission first (Admission):
// how many players one address may have, and the longest it lets anyone
// wait in its line. On a loopback target the run reads them from its
// first player's answer and, if N is more than that cap and no -addrs
// were given, gives every player an address of its own (127.0.0.1 and
// up), and says so: a crowd of people each at home, which the server's
// fairness rules (the last places of its line and of its rooms kept for
// addresses with none) do not take for a few addresses' worth. A player
// the server cannot take at once waits in its line (Queued, about once
// a second, its place falling): the run gives it a fresh handshake
// timeout each time it hears, and counts the waits, those let in and
// those refused apart, and apart again those refused after waiting the
// whole bound the server promised.

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
	refused  []time.Duration // of the players queued and then refused
	atOnce   int             // players the server refused without a place in line
	fell     int             // queued players whose place fell while they waited
	longest  uint32          // the longest line told
	bound    time.Duration   // the longest wait the server promised (Admission.LineWaitS); 0 untold
	firstAns chan struct{}   // closed once the first player heard the server's first answer
	once     sync.Once
	perAddr  int // the server's cap per address (Admission.PerAddr); 0 unknown or none
	spread   int // the players, one an address, of the run's own spread (spreadAddr); 0 none
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

// admits records the bound on the line's waits an Admission told.
func (l *lineStats) admits(a *protocol.Admission) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.bound = time.Duration(a.LineWaitS) * time.Second
}

// took records a handshake's wait in line, if it waited, or, if the
// server refused it without a place in line, that it was refused at once.
func (l *lineStats) took(w waitLine, err error) {
	var refusal serverRefusal
	if !w.queued && !errors.As(err, &refusal) {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case !w.queued:
		l.atOnce++
	case err == nil:
		l.waits = append(l.waits, w.waited)
	default:
		l.refused = append(l.refused, w.waited)
	}
	if w.queued && w.least < w.first {
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

// serverRefusal is the server's Error in answer to a Hello: a refusal,
// in its words.
type serverRefusal string

func (e serverRefusal) Error() string { return string(e) }

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
	// RefusedWaitP50 and RefusedWaitMax are over the queued players
	// refused: from the Hello to the refusal.
	RefusedWaitP50, RefusedWaitMax time.Duration
	// Bound is the longest wait the server said it lets anyone wait in
	// its line (Admission's LineWaitS); 0 if it said none.
	Bound time.Duration
	// RefusedAfterBound is how many of the Refused waited Bound or
	// longer first: the wait the server promised, spent, and no place.
	RefusedAfterBound int
}

// summary folds the waits into a LineSummary; nil if nobody waited.
func (l *lineStats) summary() *LineSummary {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.waits) == 0 && len(l.refused) == 0 {
		return nil
	}
	s := &LineSummary{Queued: len(l.waits) + len(l.refused), Refused: len(l.refused),
		Fell: l.fell, Longest: int(l.longest), Bound: l.bound}
	s.WaitP50, s.WaitMax = p50Max(l.waits)
	s.RefusedWaitP50, s.RefusedWaitMax = p50Max(l.refused)
	if s.Bound > 0 {
		for _, w := range l.refused {
			if w >= s.Bound {
				s.RefusedAfterBound++
			}
		}
	}
	return s
}

// p50Max is the median and the longest of waits; zero if there are none.
func p50Max(waits []time.Duration) (p50, most time.Duration) {
	if len(waits) == 0 {
		return 0, 0
	}
	w := slices.Sorted(slices.Values(waits))
	return w[len(w)/2], w[len(w)-1]
}

// refusedAtOnce is how many players the server refused without a place
// in its line.
func (l *lineStats) refusedAtOnce() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.atOnce
}

// text is the summary's line: "line        2365 queued (the line up to
// 1831), 771 let in after p50 3.7s, max 58.2s, 1594 refused after p50
// 1m0.1s, max 1m0.6s; 1594 of the refused waited the whole 1m0s bound;
// 2293 saw their
// place fall".
func (s *LineSummary) text() string {
	t := fmt.Sprintf("line        %d queued (the line up to %d), %d let in", s.Queued, s.Longest, s.Queued-s.Refused)
	if s.Queued > s.Refused {
		t += fmt.Sprintf(" after p50 %v, max %v", ms(s.WaitP50), ms(s.WaitMax))
	}
	t += fmt.Sprintf(", %d refused", s.Refused)
	switch {
	case s.Refused > 0 && s.Bound > 0:
		t += fmt.Sprintf(" after p50 %v, max %v, %d of them after the whole %v bound", ms(s.RefusedWaitP50), ms(s.RefusedWaitMax), s.RefusedAfterBound, s.Bound)
	case s.Refused > 0:
		t += fmt.Sprintf(" after p50 %v, max %v (the server said no bound)", ms(s.RefusedWaitP50), ms(s.RefusedWaitMax))
	case s.Bound > 0:
		t += fmt.Sprintf(" (the server's bound %v)", s.Bound)
	}
	return t + fmt.Sprintf("; %d saw their place fall\n", s.Fell)
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

// spreadFirst is the first address of the run's own spread: 127.0.0.0
// names the network, not a host.
var spreadFirst = netip.AddrFrom4([4]byte{127, 0, 0, 1})

// spreadFor returns how many 127/8 addresses n players need, one each,
// when one address may have perAddr of them: n, or 0 when one address
// takes them all. MaxPlayers of them end at 127.0.255.254, short of the
// 127/8 broadcast address, 127.255.255.255: no address between needs
// skipping.
func spreadFor(n, perAddr int) int {
	if perAddr <= 0 || n <= perAddr {
		return 0
	}
	return n
}

// spreadAddr is the address of player n (from 1) in the run's own
// spread: 127.0.0.1 for the first, and on.
func spreadAddr(n int) netip.Addr {
	b := spreadFirst.As4()
	v := uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
	v += uint32(n - 1)
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)})
}

// source is the address player n (from 1) connects from: the given
// addresses in turn; or, on a target the run may spread over, the run's
// own spread, one address a player (the first player's, asked before the
// spread is known, is the spread's first too); or nil for the system's
// choice.
func (r *run) source(n int) net.Addr {
	if addrs := r.opts.LocalAddrs; len(addrs) > 0 {
		return &net.TCPAddr{IP: addrs[(n-1)%len(addrs)].AsSlice()}
	}
	if n == 1 && r.autoSpread() || r.line.spread > 0 {
		return &net.TCPAddr{IP: spreadAddr(n).AsSlice()}
	}
	return nil
}
