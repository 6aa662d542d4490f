package agones

import (
	"testing"
	"time"
)

// TestBackoffDoublesToItsMaxWithJitter: the waits double from First, stop
// at Max, and each is drawn from the upper half of its range.
func TestBackoffDoublesToItsMaxWithJitter(t *testing.T) {
	b := Backoff{First: 10 * time.Millisecond, Max: 80 * time.Millisecond}
	ceilings := []time.Duration{10, 20, 40, 80, 80, 80}
	for try, ceiling := range ceilings {
		ceiling *= time.Millisecond
		if lo := b.wait(try, 0); lo != ceiling/2 {
			t.Errorf("try %d: the shortest wait is %v, want %v", try, lo, ceiling/2)
		}
		if hi := b.wait(try, 0.999999); hi < ceiling*99/100 || hi > ceiling {
			t.Errorf("try %d: the longest wait is %v, want just under %v", try, hi, ceiling)
		}
	}
	if w := b.wait(1000, 0.5); w > b.Max {
		t.Errorf("the thousandth wait is %v, more than Max %v", w, b.Max)
	}
}
