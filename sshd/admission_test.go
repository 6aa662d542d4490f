package sshd

import (
	"net"
	"strings"
	"testing"
)

// A pool's rules, one place at a time: an address's share, then the
// reserve kept for addresses holding few, then full.
func TestPoolRules(t *testing.T) {
	p := newPool(8, 4) // reserve 2, share 1
	if p.reserve != 2 || p.share != 1 {
		t.Fatalf("pool of 8, 4 an address: reserve %d share %d, want 2 and 1", p.reserve, p.share)
	}
	steps := []struct {
		key  string
		want verdict
	}{
		{"a", admitted}, {"a", admitted}, {"a", admitted}, {"a", admitted}, {"a", addrFull},
		{"b", admitted}, {"b", admitted}, // 6: into the reserve
		{"b", reserved}, {"c", admitted}, {"c", reserved}, {"d", admitted}, // 8: full
		{"e", poolFull}, {"a", addrFull},
	}
	for i, s := range steps {
		got := p.check(s.key)
		if got != s.want {
			t.Fatalf("step %d, %s holding %d of %d: verdict %d, want %d", i, s.key, p.from[s.key], p.used, got, s.want)
		}
		if got == admitted {
			p.take(s.key)
		}
	}
	if k, n := p.heaviest(); k != "a" || n != 4 {
		t.Errorf("heaviest %s %d, want a 4", k, n)
	}
	for range 4 {
		p.give("a")
	}
	if _, ok := p.from["a"]; ok || p.used != 4 {
		t.Errorf("after a gave all back: from %v, used %d", p.from, p.used)
	}
	// One address may take a whole pool its operator gave it: no reserve.
	if q := newPool(64, 64); q.reserve != 0 {
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
		if got := addrKey(a); got != want {
			t.Errorf("addrKey(%s) = %s, want %s", addr, got, want)
		}
	}
}

// Sessions keep their last places for addresses holding few: two
// addresses that took most of them cannot take the rest, and a player
// from a third address still gets in and plays.
func TestSessionReserve(t *testing.T) {
	s := startSSH(t, Options{Handler: echoHandler(nil), MaxSessions: 8, MaxPerAddr: 4}) // reserve 2
	for _, local := range []string{"127.0.0.2", "127.0.0.3"} {
		for i := range 3 {
			playFrom(t, s, local, "mob"+string(rune('a'+i)))
		}
	}
	tm := playFromTerm(t, s, "127.0.0.2", "mobd")
	screen := tm.waitText("gridlag: server nearly full")
	if !strings.Contains(screen, "yours has 3") {
		t.Errorf("refusal does not say how many the address holds:\n%s", screen)
	}
	if status, _ := tm.waitExit(tm.start); status != 1 {
		t.Errorf("refused session exit status %d, want 1", status)
	}
	ada := playFrom(t, s, "127.0.0.4", "ada")
	ada.send("x")
	ada.waitText("keys [x]")
	if n := s.Stats().Refused[KindSessionReserved]; n != 1 {
		t.Errorf("%d reserve refusals counted, want 1", n)
	}
}
