package remote

import (
	"fmt"
	"net"
	"sync"
)

// Slots counts what a front end holds at once (sessions, connections), in
// all and per remote address, under two caps. It is safe for concurrent
// use.
type Slots struct {
	max, perAddr int
	whole, each  string // what is counted, for the refusals: "players", "sessions"

	mu   sync.Mutex
	n    int
	from map[string]int
}

// NewSlots returns slots for at most max things in all and perAddr from
// one address; the refusals name them as whole, when all are taken ("the
// server is full (64 players)"), and as each, when an address holds its
// share ("too many sessions from your address (16)").
func NewSlots(max, perAddr int, whole, each string) *Slots {
	return &Slots{max: max, perAddr: perAddr, whole: whole, each: each, from: make(map[string]int)}
}

// Take takes a slot for host (an address, see HostOf), or says why not
// (the refusal, for the client). unlimited exempts host from the cap per
// address (a trusted reverse proxy, whose connections are many clients'),
// not from the cap in all. The caller calls release, once or more, when the
// slot is free again.
func (s *Slots) Take(host string, unlimited bool) (release func(), refusal string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.n >= s.max:
		return nil, fmt.Sprintf("the server is full (%d %s): try again later", s.max, s.whole)
	case !unlimited && s.from[host] >= s.perAddr:
		return nil, fmt.Sprintf("too many %s from your address (%d): close one and try again", s.each, s.perAddr)
	}
	s.n++
	s.from[host]++
	var once sync.Once
	return func() { once.Do(func() { s.release(host) }) }, ""
}

func (s *Slots) release(host string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n--
	if s.from[host]--; s.from[host] <= 0 {
		delete(s.from, host)
	}
}

// Held is the number of slots taken, in all and by host.
func (s *Slots) Held(host string) (all, byHost int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n, s.from[host]
}

// HostOf is the IP part of a remote address, the key of the per-address
// caps.
func HostOf(a net.Addr) string {
	if tcp, ok := a.(*net.TCPAddr); ok {
		return tcp.IP.String()
	}
	host, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	return host
}
