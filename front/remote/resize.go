package remote

import (
	"sync"
	"time"

	"gridlag/grid"
	"gridlag/internal/limit"
)

// WindowChanges is the rate at which a session's terminal size may
// resize its screen, on every front end: each change of size costs a new
// screen (up to about 3 MB at the largest, tui.MaxWidth x tui.MaxHeight)
// and a repaint of every cell. A terminal being resized by hand reports a
// few dozen sizes a second, of which the screen needs the last: the front
// ends pass on the latest at this rate and drop the others.
var WindowChanges = limit.Rate{Burst: 4, Every: 250 * time.Millisecond}

// Resizer paces a client's changes of window, the same on every front
// end: a change that leaves the window as it is (see WindowOf) goes
// nowhere; of the others, the rate's burst goes on at once, then one at a
// time at the rate, the latest, the ones it replaces dropped. So a flood
// of them, alternating sizes or not, costs no more screens than the rate
// allows. A change carries what the front end applies (a size, an SSH
// request), which apply is given, in the order of the changes it keeps,
// never two at once. It is safe for concurrent use.
type Resizer[T any] struct {
	clock Clock
	rate  limit.Rate
	apply func(T)

	mu      sync.Mutex
	pace    grid.Limiter
	shown   Window      // the window last applied, or said to be in force
	want    T           // the latest change not applied yet
	wantWin Window      // its window
	held    bool        // want waits for the pace
	stop    func() bool // the timer that runs while held, nil if none
	stopped bool
}

// NewResizer returns a Resizer on clock that applies changes at rate,
// the window shown being in force.
func NewResizer[T any](clock Clock, rate limit.Rate, shown Window, apply func(T)) *Resizer[T] {
	return &Resizer[T]{clock: clock, rate: rate, apply: apply, shown: shown}
}

// Change asks for window w, which v carries: applied now if the pace
// allows, else held until it does, in place of any held before.
func (r *Resizer[T]) Change(w Window, v T) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped {
		return
	}
	if w == r.shown {
		r.held = false // back to the window in force
		return
	}
	r.want, r.wantWin, r.held = v, w, true
	if r.stop == nil { // else the pending timer takes the latest
		r.applyLocked()
	}
}

// Shown says that window w is in force now, applied by other means (an
// SSH session's pty-req): changes to it go nowhere.
func (r *Resizer[T]) Shown(w Window) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.shown = w
}

// Flush applies the held change now if the pace allows it: before
// something the client sent after it (an SSH request) goes on.
func (r *Resizer[T]) Flush() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.stopped && r.held && r.rate.Wait(&r.pace, r.clock.Now()) == 0 {
		r.applyLocked()
	}
}

// Stop drops the held change and stops the timer; once it returns, apply
// is not called again.
func (r *Resizer[T]) Stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopped, r.held = true, false
	if r.stop != nil {
		r.stop()
		r.stop = nil
	}
}

// applyLocked applies the held change if the pace allows it now, else
// sets the timer for when it will.
func (r *Resizer[T]) applyLocked() {
	now := r.clock.Now()
	if wait := r.rate.Wait(&r.pace, now); wait > 0 {
		if r.stop == nil {
			r.stop = r.clock.AfterFunc(wait, r.due)
		}
		return
	}
	r.rate.Allow(&r.pace, now)
	r.held, r.shown = false, r.wantWin
	var zero T
	v := r.want
	r.want = zero
	r.apply(v)
}

// due is the timer's: the held change goes on if it still waits.
func (r *Resizer[T]) due() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stop = nil
	if !r.stopped && r.held {
		r.applyLocked()
	}
}
