package limit

import "testing"

// The fair share's verdicts, pool by pool: an address at its share is
// refused first, then a full pool, then, in the reserve, an address
// holding Few or more; a newcomer takes the reserve's last place.
func TestShare(t *testing.T) {
	front := Share{Pool: 8, PerAddr: 4, Reserve: 2, Few: 1}  // admit.NewPool(8, 4)
	rooms := Share{Pool: 16, PerAddr: 8, Reserve: 2, Few: 1} // the hub's, an eighth kept
	caps := Share{Pool: 4, PerAddr: 2, Few: 2}               // admit.NewCaps: no reserve
	for _, c := range []struct {
		name       string
		s          Share
		used, held int
		want       Verdict
	}{
		{"an empty pool", front, 0, 0, Admitted},
		{"an address at its share", front, 4, 4, AddrFull},
		{"an address at its share, the pool full", front, 8, 4, AddrFull},
		{"a full pool", front, 8, 1, PoolFull},
		{"the reserve, to an address holding one", front, 6, 1, Reserved},
		{"the reserve, to a newcomer", front, 7, 0, Admitted},
		{"a room in the reserve, from an address that opened one", rooms, 14, 1, Reserved},
		{"a room in the reserve, from one that opened none", rooms, 15, 0, Admitted},
		{"the last place of caps", caps, 3, 1, Admitted},
		{"caps full", caps, 4, 0, PoolFull},
	} {
		if got := c.s.Check(c.used, c.held); got != c.want {
			t.Errorf("%s (%d used, %d held, %+v): %d, want %d", c.name, c.used, c.held, c.s, got, c.want)
		}
	}
}
