package limit

import "testing"

// The fair share, one place at a time: an address's share, then the
// reserve kept for addresses holding fewer than Few, then full; an
// address at its share is told so even once the pool is full.
func TestShare(t *testing.T) {
	s := Share{Pool: 8, PerAddr: 4, Reserve: 2, Few: 1}
	held := map[string]int{}
	used := 0
	steps := []struct {
		key  string
		want Verdict
	}{
		{"a", Admitted}, {"a", Admitted}, {"a", Admitted}, {"a", Admitted}, {"a", AddrFull},
		{"b", Admitted}, {"b", Admitted}, // 6: into the reserve
		{"b", Reserved}, {"c", Admitted}, {"c", Reserved}, {"d", Admitted}, // 8: full
		{"e", PoolFull}, {"a", AddrFull},
	}
	for i, st := range steps {
		got := s.Check(used, held[st.key])
		if got != st.want {
			t.Fatalf("step %d, %s holding %d of %d: verdict %d, want %d", i, st.key, held[st.key], used, got, st.want)
		}
		if got == Admitted {
			used++
			held[st.key]++
		}
	}
	// The hub's rooms: the reserve for addresses that opened none.
	rooms := Share{Pool: 16, PerAddr: 8, Reserve: 2, Few: 1}
	if v := rooms.Check(14, 1); v != Reserved {
		t.Errorf("an address holding one room of 14 open, 2 kept: %d, want Reserved", v)
	}
	if v := rooms.Check(14, 0); v != Admitted {
		t.Errorf("an address holding none of 14 open, 2 kept: %d, want Admitted", v)
	}
}
