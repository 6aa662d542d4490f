package admit

import (
	"strings"
	"testing"
)

// A pool's rules, one place at a time: an address's share, then the
// reserve kept for addresses holding few, then full.
func TestPoolRules(t *testing.T) {
	p := NewPool(8, 4) // reserve 2, share 1
	if p.rule.Reserve != 2 || p.rule.Few != 1 {
		t.Fatalf("pool of 8, 4 an address: reserve %d share %d, want 2 and 1", p.rule.Reserve, p.rule.Few)
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
	if q := NewPool(64, 64); q.rule.Reserve != 0 {
		t.Errorf("pool of 64, 64 an address: reserve %d, want 0", q.rule.Reserve)
	}
}

// Slots refuse past either cap, saying which, free a slot once however
// often it is released, and let an unlimited address past its share but
// not past the whole.
func TestSlots(t *testing.T) {
	s := NewSlots(3, 2, "players", "sessions") // no reserve: 3 - 2 leaves one
	r1, _, _ := s.Take("a", false)
	r2, _, _ := s.Take("a", false)
	if _, v, why := s.Take("a", false); v != AddrFull || why != "too many sessions from your address (2): close one and try again" {
		t.Errorf("a third from a: %v %q", v, why)
	}
	r3, _, _ := s.Take("b", false)
	if _, v, why := s.Take("c", false); v != PoolFull || why != "the server is full (3 players): try again later" {
		t.Errorf("a fourth in all: %v %q", v, why)
	}
	r1()
	r1()
	if all, a := s.Held("a"); all != 2 || a != 1 {
		t.Errorf("after one release, twice: %d held, %d by a; want 2, 1", all, a)
	}
	rp, _, why := s.Take("a", true)
	if why != "" {
		t.Errorf("an unlimited address over its share: %q", why)
	}
	if _, v, _ := s.Take("proxy", true); v != PoolFull {
		t.Error("an unlimited address past the whole was let in")
	}
	for _, r := range []func(){r2, r3, rp} {
		r()
	}
	if all, a := s.Held("a"); all != 0 || a != 0 {
		t.Errorf("after every release: %d held, %d by a", all, a)
	}
}

// Slots keep a pool's reserve: past three quarters, an address holding its
// share is refused, saying so in a line that fits 80 columns, while a
// newcomer's address and a trusted proxy still get in.
func TestSlotsReserve(t *testing.T) {
	s := NewSlots(8, 4, "players", "sessions") // reserve 2, share 1
	for _, k := range []string{"a", "a", "b", "b", "c", "d"} {
		if r, v, why := s.Take(k, false); r == nil {
			t.Fatalf("%s refused before the reserve: %v %q", k, v, why)
		}
	}
	_, v, why := s.Take("a", false)
	if v != Reserved || !strings.Contains(why, "yours has 2") || len("gridlag: "+why) > 80 {
		t.Errorf("a, holding 2, in the reserve: %v %q", v, why)
	}
	if r, _, why := s.Take("proxy", true); r == nil {
		t.Errorf("a trusted proxy in the reserve: %q", why)
	}
	if r, _, why := s.Take("e", false); r == nil {
		t.Errorf("a newcomer in the reserve: %q", why)
	}
	if _, v, _ := s.Take("f", false); v != PoolFull {
		t.Errorf("a ninth: %v, want the pool full", v)
	}
}

// A pool of caps keeps no reserve: one address takes places up to its
// cap however full the pool, and an exempt key is held to the cap in all
// only.
func TestCaps(t *testing.T) {
	p := NewCaps(4, 3)
	for i, want := range []Verdict{Admitted, Admitted, Admitted, AddrFull} {
		if got := p.Check("a"); got != want {
			t.Fatalf("a's place %d: %d, want %d", i+1, got, want)
		}
		if want == Admitted {
			p.Take("a")
		}
	}
	if got := p.Admit("a", true); got != Admitted {
		t.Errorf("exempt a over its cap: %d, want Admitted", got)
	}
	p.Take("b")
	if got, exempt := p.Check("c"), p.Admit("own", true); got != PoolFull || exempt != PoolFull {
		t.Errorf("a full pool: %d, exempt %d; want PoolFull for both", got, exempt)
	}
}

// A pool's refusal is said in its words, with the number the verdict is
// about.
func TestPoolRefusal(t *testing.T) {
	w := Words{
		PoolFull: {Kind: "full", Text: "full (%d)"},
		AddrFull: {Kind: "addr", Text: "yours (%d)"},
		Reserved: {Kind: "reserved", Text: "kept (yours %d)"},
	}
	p := NewPool(3, 2)
	if r := p.Refusal("a", w); r.Refused() {
		t.Fatalf("an empty pool refused: %+v", r)
	}
	p.Take("a")
	p.Take("a")
	if r := p.Refusal("a", w); r != (Refusal{Kind: "addr", Text: "yours (2)"}) {
		t.Errorf("a third from a: %+v", r)
	}
	p.Take("b")
	if r := p.Refusal("c", w); r != (Refusal{Kind: "full", Text: "full (3)"}) {
		t.Errorf("a fourth: %+v", r)
	}
}
