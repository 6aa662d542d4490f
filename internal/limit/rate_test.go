package limit

import (
	"fmt"
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

// A PerKey with MaxKeys remembers at most that many keys, however many
// come: one key trying a thousand times is one key; ten thousand keys
// seen once each, all within the rate's interval (nothing to sweep), stay
// under the bound; and the key being held back is not the one forgotten
// to make room, so the spread does not free it.
func TestPerKeyBoundedMemory(t *testing.T) {
	const bound = 64
	p := NewPerKey(Rate{Burst: 5, Every: time.Minute})
	p.MaxKeys = bound
	allowed := 0
	for range 1000 {
		if p.Allow("storm", 0) {
			allowed++
		}
	}
	if allowed != 5 || p.Len() != 1 {
		t.Fatalf("one key trying 1000 times: %d allowed (want its burst, 5), %d keys remembered (want 1)", allowed, p.Len())
	}
	most := 0
	for i := range 10000 {
		now := time.Duration(i) * time.Millisecond // 10 s in all: no key's burst comes back
		if !p.Allow(fmt.Sprintf("10.%d.%d.%d", i>>16, i>>8&255, i&255), now) {
			t.Fatalf("key %d, new, refused", i)
		}
		most = max(most, p.Len())
		if p.Allow("storm", now) {
			t.Fatalf("the storm's key allowed again at %v, its burst forgiven by the spread (key %d)", now, i)
		}
	}
	if most > bound {
		t.Fatalf("%d keys remembered at once, past the bound of %d", most, bound)
	}
	if w := p.Wait("storm", 10*time.Second); w <= 0 {
		t.Fatalf("the storm's key waits %v after the spread, want it still held back", w)
	}
	// Once every key's burst is back the next new key sweeps them all.
	p.Allow("late", time.Hour)
	p.Sweep(time.Hour)
	if p.Len() != 1 {
		t.Fatalf("an hour later %d keys remembered, want the late one alone", p.Len())
	}
}
