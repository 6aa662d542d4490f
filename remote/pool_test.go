package remote

import (
	"net"
	"testing"
)

// A pool's rules, one place at a time: an address's share, then the
// reserve kept for addresses holding few, then full.
func TestPoolRules(t *testing.T) {
	p := NewPool(8, 4) // reserve 2, share 1
	if p.reserve != 2 || p.share != 1 {
		t.Fatalf("pool of 8, 4 an address: reserve %d share %d, want 2 and 1", p.reserve, p.share)
	}
	steps := []struct {
		key  string
		want Verdict
	}{
		{"a", Admitted}, {"a", Admitted}, {"a", Admitted}, {"a", Admitted}, {"a", AddrFull},
		{"b", Admitted}, {"b", Admitted}, // 6: into the reserve
		{"b", Reserved}, {"c", Admitted}, {"c", Reserved}, {"d", Admitted}, // 8: full
		{"e", PoolFull}, {"a", AddrFull},
	}
	for i, s := range steps {
		got := p.Check(s.key)
		if got != s.want {
			t.Fatalf("step %d, %s holding %d of %d: verdict %d, want %d", i, s.key, p.from[s.key], p.used, got, s.want)
		}
		if got == Admitted {
			p.Take(s.key)
		}
	}
	if k, n := p.Heaviest(); k != "a" || n != 4 {
		t.Errorf("heaviest %s %d, want a 4", k, n)
	}
	for range 4 {
		p.Give("a")
	}
	if _, ok := p.from["a"]; ok || p.used != 4 {
		t.Errorf("after a gave all back: from %v, used %d", p.from, p.used)
	}
	// One address may take a whole pool its operator gave it: no reserve.
	if q := NewPool(64, 64); q.reserve != 0 {
		t.Errorf("pool of 64, 64 an address: reserve %d, want 0", q.reserve)
	}
}

// IPv4 addresses count one by one, IPv6 ones by their /64.
func TestAddrKey(t *testing.T) {
	for addr, want := range map[string]string{
		"192.0.2.7:22":             "192.0.2.7",
		"[::ffff:192.0.2.7]:22":    "192.0.2.7",
		"[2001:db8:1:2:3::9]:2222": "2001:db8:1:2::/64",
		"[2001:db8:1:2:ffff::1]:1": "2001:db8:1:2::/64",
		"[2001:db8:1:3::1]:1":      "2001:db8:1:3::/64",
	} {
		a, err := net.ResolveTCPAddr("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := AddrKey(a); got != want {
			t.Errorf("AddrKey(%s) = %s, want %s", addr, got, want)
		}
	}
}
