package admit

import "gridlag/internal/limit"

// Pool is one of a front end's shared pools (open connections,
// connections still in their handshake, game sessions), counted in all
// and per remote address (see Key). A fair pool's rules (NewPool), the
// fair share of every pool by address (limit.Share), keep a few
// addresses from exhausting it:
//
//   - an address holds at most perAddr places;
//   - the last reserve places go only to addresses holding fewer than a
//     quarter of perAddr, so that once the pool is nearly full an
//     address that already holds many is refused before anyone else,
//     and a newcomer from an address holding none still gets in.
//
// The reserve is a quarter of the pool, and never more than the pool has
// beyond one address's places: an operator who lets one address take the
// whole pool (a classroom's server, perAddr = cap) gets all of it. A pool
// of caps (NewCaps) has no reserve: the first comers take its places, up
// to perAddr an address. A Pool is not safe for concurrent use: its
// owner guards it (Slots does with its own mutex).
type Pool struct {
	rule limit.Share
	used int
	from map[string]int
}

// NewPool returns a fair pool of cap places, perAddr of them at most from
// one address, its last places kept for addresses holding few.
func NewPool(cap, perAddr int) Pool {
	return Pool{
		rule: limit.Share{Pool: cap, PerAddr: perAddr, Reserve: min(cap/4, max(cap-perAddr, 0)), Few: max(perAddr/4, 1)},
		from: make(map[string]int),
	}
}

// NewCaps returns a pool of cap places, perAddr of them at most from one
// address, and no reserve.
func NewCaps(cap, perAddr int) Pool {
	return Pool{rule: limit.Share{Pool: cap, PerAddr: perAddr, Few: perAddr}, from: make(map[string]int)}
}

// Verdict is why a pool refuses one more place, or Admitted: the fair
// share's (limit.Share).
type Verdict = limit.Verdict

const (
	Admitted = limit.Admitted
	AddrFull = limit.AddrFull // the address holds perAddr places
	Reserved = limit.Reserved // the pool is into its reserve and the address holds share or more
	PoolFull = limit.PoolFull // the pool is full
)

// Check says whether key may take one more place.
func (p *Pool) Check(key string) Verdict { return p.rule.Check(p.used, p.from[key]) }

// Admit is Check, but an exempt key (the server's own players, a trusted
// reverse proxy whose connections are many clients') is held to the cap
// in all only, not to the rules per address nor the reserve.
func (p *Pool) Admit(key string, exempt bool) Verdict {
	if !exempt {
		return p.Check(key)
	}
	if p.used >= p.rule.Pool {
		return PoolFull
	}
	return Admitted
}

// Take counts one more place held by key.
func (p *Pool) Take(key string) {
	p.used++
	p.from[key]++
}

// Give counts one place of key's as given back.
func (p *Pool) Give(key string) {
	p.used--
	if p.from[key]--; p.from[key] <= 0 {
		delete(p.from, key)
	}
}

// Used is the number of places taken.
func (p *Pool) Used() int { return p.used }

// Held is the number of places key holds.
func (p *Pool) Held(key string) int { return p.from[key] }

// Heaviest returns the address holding the most places and how many
// (ties: any of them), "" and 0 for an empty pool.
func (p *Pool) Heaviest() (key string, held int) {
	for k, n := range p.from {
		if n > held {
			key, held = k, n
		}
	}
	return key, held
}
