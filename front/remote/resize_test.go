package remote

import (
	"slices"
	"sync"
	"testing"
	"time"

	"gridlag/internal/limit"
)

// handClock is a Clock a test moves by hand: Advance runs the calls that
// fall due, in the test's goroutine.
type handClock struct {
	mu    sync.Mutex
	now   time.Duration
	calls []*handCall
}

type handCall struct {
	at      time.Duration
	f       func()
	stopped bool
}

func (c *handClock) Now() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *handClock) AfterFunc(d time.Duration, f func()) func() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	call := &handCall{at: c.now + d, f: f}
	c.calls = append(c.calls, call)
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		was := !call.stopped
		call.stopped = true
		return was
	}
}

// Advance moves the clock d on and runs the calls due by then.
func (c *handClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now += d
	var due []func()
	for _, call := range c.calls {
		if !call.stopped && call.at <= c.now {
			call.stopped = true
			due = append(due, call.f)
		}
	}
	c.mu.Unlock()
	for _, f := range due {
		f()
	}
}

// A flood of window changes on the session's clock: the burst goes on at
// once, then only the latest, when the rate allows; a change back to the
// window in force drops the one held, and one to the window in force
// goes nowhere and costs nothing.
func TestResizerBurstThenLatest(t *testing.T) {
	clock := &handClock{}
	var applied []int
	r := NewResizer(clock, limit.Rate{Burst: 2, Every: time.Second}, WindowOf(80, 24), func(cols int) { applied = append(applied, cols) })
	change := func(cols int) { r.Change(WindowOf(cols, 24), cols) }
	change(80) // the window in force: nothing, and no cost
	change(81)
	change(82)
	for cols := 83; cols < 100; cols++ {
		change(cols)
	}
	if want := []int{81, 82}; !slices.Equal(applied, want) {
		t.Fatalf("at once: applied %v, want the burst %v", applied, want)
	}
	clock.Advance(999 * time.Millisecond)
	if len(applied) != 2 {
		t.Fatalf("before the interval: applied %v", applied)
	}
	clock.Advance(time.Millisecond)
	if want := []int{81, 82, 99}; !slices.Equal(applied, want) {
		t.Fatalf("after the interval: applied %v, want the latest last: %v", applied, want)
	}
	change(50)
	change(99) // back to the window in force: the held 50 is dropped
	clock.Advance(time.Hour)
	if len(applied) != 3 {
		t.Fatalf("a change taken back was applied: %v", applied)
	}
}

// Shown sets the window in force without pacing; Flush applies a held
// change once the rate allows, before what follows it; after Stop
// nothing is applied.
func TestResizerShownFlushStop(t *testing.T) {
	clock := &handClock{}
	var applied []int
	r := NewResizer(clock, limit.Rate{Burst: 1, Every: time.Second}, Window{}, func(cols int) { applied = append(applied, cols) })
	r.Shown(WindowOf(100, 30))
	r.Change(WindowOf(100, 30), 100) // in force already
	r.Change(WindowOf(90, 30), 90)
	r.Change(WindowOf(91, 30), 91) // held
	r.Flush()                      // too soon: still held
	if want := []int{90}; !slices.Equal(applied, want) {
		t.Fatalf("applied %v, want %v", applied, want)
	}
	clock.mu.Lock()
	clock.now += time.Second // the rate allows it, the timer not run yet
	clock.mu.Unlock()
	r.Flush()
	if want := []int{90, 91}; !slices.Equal(applied, want) {
		t.Fatalf("after Flush: applied %v, want %v", applied, want)
	}
	clock.Advance(0) // the timer finds nothing held
	r.Change(WindowOf(92, 30), 92)
	r.Stop()
	clock.Advance(time.Hour)
	r.Change(WindowOf(93, 30), 93)
	if want := []int{90, 91}; !slices.Equal(applied, want) {
		t.Fatalf("after Stop: applied %v, want %v", applied, want)
	}
}
