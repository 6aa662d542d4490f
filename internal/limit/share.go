package limit

// Share is the fair-share rule of a pool whose places remote addresses
// hold (a front end's connections and sessions, the server's rooms, a
// room's spectator slots), the one rule of every such pool: an address
// holds at most PerAddr places, and the pool's last Reserve places go
// only to addresses holding fewer than Few, so that a few addresses
// filling the pool still leave a newcomer a way in, and an address that
// already holds many is refused before anyone else.
type Share struct {
	Pool    int // the places in all
	PerAddr int // the most one address holds
	Reserve int // the last places, for addresses holding fewer than Few
	Few     int
}

// Verdict is why a Share refuses one more place, or Admitted.
type Verdict int

const (
	Admitted Verdict = iota
	AddrFull         // the address holds PerAddr places
	Reserved         // the pool is into its reserve and the address holds Few or more
	PoolFull         // the pool is full
)

// Check says whether an address holding held of the pool's used places
// may take one more. An address at its share is told so before the pool
// is full: what it holds is what it can give back.
func (s Share) Check(used, held int) Verdict {
	switch {
	case held >= s.PerAddr:
		return AddrFull
	case used >= s.Pool:
		return PoolFull
	case used >= s.Pool-s.Reserve && held >= s.Few:
		return Reserved
	}
	return Admitted
}
