package limit

import (
	"testing"
	"time"

	"gridlag/grid"
)

// A Rate allows its burst at once, then one event per interval, and says
// how long until the next; a burst below one is one.
func TestRateBurstThenPace(t *testing.T) {
	r := Rate{Burst: 3, Every: 100 * time.Millisecond}
	var l grid.Limiter
	for i := range 3 {
		if !r.Allow(&l, 0) {
			t.Fatalf("event %d of the burst refused", i+1)
		}
	}
	if r.Allow(&l, 0) {
		t.Fatal("a fourth event at once allowed, past the burst of 3")
	}
	if w := r.Wait(&l, 40*time.Millisecond); w != 60*time.Millisecond {
		t.Fatalf("wait at 40ms: %v, want 60ms", w)
	}
	if !r.Allow(&l, 100*time.Millisecond) || r.Allow(&l, 150*time.Millisecond) {
		t.Fatal("after 100ms one more event, and only one, should go")
	}
	if w := r.Wait(&l, time.Hour); w != 0 {
		t.Fatalf("wait an hour later: %v, want 0", w)
	}
	var fresh grid.Limiter
	if w := r.Wait(&fresh, 0); w != 0 {
		t.Fatalf("a new limiter waits %v, want 0", w)
	}
	one := Rate{Every: time.Second}
	if !one.Allow(&fresh, 0) || one.Allow(&fresh, 0) {
		t.Fatal("a burst of 0 should allow one event at once, not two")
	}
	if p := PerSecond(100, 100); p.Every != 10*time.Millisecond || p.Burst != 100 {
		t.Fatalf("PerSecond(100, 100) = %+v", p)
	}
}

// PerKey keeps each key to its rate apart from the others, remembers a
// key only until its burst is back, and says whether a key is fresh.
func TestPerKeyForgetsTheIdle(t *testing.T) {
	p := NewPerKey(Rate{Burst: 2, Every: time.Second})
	if !p.Fresh("a", 0) {
		t.Fatal("an unknown key is not fresh")
	}
	if !p.Allow("a", 0) || !p.Allow("a", 0) || p.Allow("a", 0) {
		t.Fatal("a: want 2 allowed at once, then refused")
	}
	if !p.Allow("b", 0) {
		t.Fatal("b refused for a's events")
	}
	if p.Fresh("a", time.Second) || !p.Fresh("b", time.Second) {
		t.Fatal("after 1s: a (burst used up) should not be fresh, b (one used) should")
	}
	p.Sweep(time.Second)
	if p.Len() != 1 {
		t.Fatalf("after a sweep at 1s %d keys remembered, want a alone", p.Len())
	}
	p.Trim()
	p.Sweep(2 * time.Second)
	if p.Len() != 0 || !p.Allow("a", 2*time.Second) {
		t.Fatal("at 2s a should be forgotten and allowed again")
	}
}
