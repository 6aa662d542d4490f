package admit

import (
	"fmt"
	"sync"
)

// Slots counts what a front end holds at once (sessions, connections), in
// all and per remote address, under a Pool's rules: a cap in all, a cap
// per address, and the last places kept for addresses holding few. It is
// safe for concurrent use.
type Slots struct {
	whole, each string // what is counted, for the refusals: "players", "sessions"

	mu   sync.Mutex
	pool Pool
}

// NewSlots returns slots for at most max things in all and perAddr from
// one address; the refusals name them as whole, when all are taken ("the
// server is full (64 players)"), and as each, when an address holds its
// share ("too many sessions from your address (16)").
func NewSlots(max, perAddr int, whole, each string) *Slots {
	return &Slots{whole: whole, each: each, pool: NewPool(max, perAddr)}
}

// Take takes a slot for key (an address's, see Key), or says why not:
// the verdict, and the refusal for the client. unlimited exempts key from
// the rules per address, its cap and the reserve (a trusted reverse proxy,
// whose connections are many clients'), not from the cap in all. The
// caller calls release, once or more, when the slot is free again.
func (s *Slots) Take(key string, unlimited bool) (release func(), v Verdict, refusal string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := &s.pool
	switch v = p.Admit(key, unlimited); v {
	case PoolFull:
		return nil, v, fmt.Sprintf("the server is full (%d %s): try again later", p.rule.Pool, s.whole)
	case AddrFull:
		return nil, v, fmt.Sprintf("too many %s from your address (%d): close one and try again", s.each, p.rule.PerAddr)
	case Reserved:
		// Short enough for 80 columns after "gridlag: ".
		return nil, v, fmt.Sprintf("server nearly full, last places kept for other addresses (yours has %d)", p.Held(key))
	}
	p.Take(key)
	var once sync.Once
	return func() { once.Do(func() { s.release(key) }) }, Admitted, ""
}

func (s *Slots) release(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pool.Give(key)
}

// Held is the number of slots taken, in all and by key.
func (s *Slots) Held(key string) (all, byKey int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pool.Used(), s.pool.Held(key)
}
