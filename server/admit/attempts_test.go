package admit

import (
	"strings"
	"testing"
	"time"
)

// An address's new connections: its burst at once, then one per the
// rate's interval; past it each is refused with the kind, the rate and
// the wait in its sentence, and counted, while another address comes in
// as usual. An address idle for a minute is forgotten.
func TestAttemptsRatePerAddress(t *testing.T) {
	var now time.Duration
	a := NewAttempts(60, 3, func() time.Duration { return now })
	for i := range 3 {
		if r, _ := a.Allow("10.0.0.1"); r.Refused() {
			t.Fatalf("attempt %d of the burst of 3 refused: %+v", i+1, r)
		}
	}
	r, wait := a.Allow("10.0.0.1")
	if r.Kind != KindAttempts || wait != time.Second || !strings.Contains(r.Text, "at most 60 a minute") {
		t.Fatalf("the fourth at once: %+v, wait %v; want refused for the rate of 60 a minute, a second's wait", r, wait)
	}
	if r, _ := a.Allow("10.0.0.2"); r.Refused() {
		t.Fatalf("another address refused for the first's attempts: %+v", r)
	}
	now = 500 * time.Millisecond
	if r, wait := a.Allow("10.0.0.1"); !r.Refused() || wait != 500*time.Millisecond || Seconds(wait) != 1 {
		t.Fatalf("half a second later: %+v, wait %v; want refused, half a second to wait, told 1 s", r, wait)
	}
	now = time.Second
	if r, _ := a.Allow("10.0.0.1"); r.Refused() {
		t.Fatalf("a second later refused: %+v", r)
	}
	if a.Refused() != 2 {
		t.Fatalf("%d refusals counted, want 2", a.Refused())
	}
	now = 2 * time.Minute
	a.Allow("10.0.0.3")
	if n := a.Remembered(); n != 1 {
		t.Fatalf("two minutes later %d addresses remembered, want the one that just came", n)
	}
}

// However many addresses knock, Attempts remembers at most AttemptAddrs.
func TestAttemptsBoundedMemory(t *testing.T) {
	a := NewAttempts(DefaultAttempts, DefaultAttemptBurst, func() time.Duration { return 0 })
	for i := range 3 * AttemptAddrs {
		a.Allow(string(rune(i + 1)))
		if n := a.Remembered(); n > AttemptAddrs {
			t.Fatalf("after %d addresses %d remembered, past %d", i+1, n, AttemptAddrs)
		}
	}
}
