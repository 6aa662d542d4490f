package web

import (
	"fmt"
	"sync"
	"sync/atomic"
)

// flow is the flow control of one page's screen. The page acknowledges
// the bytes it has drawn (xterm.js's write callback), in all since the
// socket opened; a write goes while fewer than window bytes are in
// flight, and is left out, whole, otherwise, as every write after it
// until the page has drawn all it was sent: then redraw sends it the
// present whole (tcell's Sync). A game needs its newest frame, not the
// backlog.
type flow struct {
	window int64
	stats  *flowStats
	redraw func() // set once before the screen's first write; must not block

	mu     sync.Mutex
	sent   int64 // bytes sent, in all
	acked  int64 // bytes the page says it drew, in all
	behind bool  // writes were left out since the page last caught up
}

// flowStats are the flow control's counts over all pages.
type flowStats struct {
	maxInFlight atomic.Int64  // the most bytes ever in flight toward one page
	skipped     atomic.Uint64 // writes left out for a page that had not drawn
	redraws     atomic.Uint64 // whole screens sent to a page that caught up
}

func newFlow(window int64, stats *flowStats) *flow {
	return &flow{window: window, stats: stats}
}

// take reports whether a write of n bytes goes now, counting it if so.
func (f *flow) take(n int) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	// Once a write was left out, none goes until the page has drawn
	// all it was sent: then it is redrawn whole (ack). A page that drew
	// the later writes on a screen missing the one left out would show
	// a wrong screen for as long as the output goes on.
	if f.behind || f.sent-f.acked >= f.window {
		f.behind = true
		f.stats.skipped.Add(1)
		return false
	}
	f.sent += int64(n)
	inFlight := f.sent - f.acked
	for {
		m := f.stats.maxInFlight.Load()
		if inFlight <= m || f.stats.maxInFlight.CompareAndSwap(m, inFlight) {
			break
		}
	}
	return true
}

// ack takes the page's acknowledgement: n bytes drawn in all. A page
// that caught up after writes were left out is redrawn (redraw starts
// it: it writes to the page, and ack's caller reads from it).
func (f *flow) ack(n int64) error {
	f.mu.Lock()
	if n < f.acked || n > f.sent {
		acked, sent := f.acked, f.sent
		f.mu.Unlock()
		return fmt.Errorf("acknowledged %d bytes of the screen, after %d, of %d sent", n, acked, sent)
	}
	f.acked = n
	catchUp := f.behind && f.acked == f.sent && f.redraw != nil
	if catchUp {
		f.behind = false
	}
	f.mu.Unlock()
	if catchUp {
		f.stats.redraws.Add(1)
		f.redraw()
	}
	return nil
}

// inFlight is how many bytes are sent and not yet drawn.
func (f *flow) inFlight() int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.sent - f.acked
}
