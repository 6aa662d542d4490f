package server

import (
	"maps"
	"runtime/debug"
	"sync/atomic"
	"time"
)

// The loop's watch on a crowd's going (release): when the connections
// have stood at a quarter of their peak or fewer for releaseSettle, the
// buffers the peak grew are let go (trim) and the runtime is told to
// give the memory back to the system (debug.FreeOSMemory), at most once
// every releaseEvery, and only after a peak of releaseMin connections or
// more: below it the buffers are small anyway. Without it the heap kept a
// crowd's buffers for reuse and the runtime held the pages it freed:
// 5,000 offered and gone left 650 MB of RSS for 4 players.
const (
	releaseMin    = 64
	releaseSettle = 3 * time.Second // the crowd's last connections close, their goroutines end
	releaseEvery  = 30 * time.Second
)

// fall is the state of the watch: the peak since the last release,
// since when the connections have been at a quarter of it, and when the
// memory was last released.
type fall struct {
	peak    int
	low     time.Duration // since when len(conns) <= peak/4; -1 while above
	last    time.Duration
	done    bool        // released once: last is meaningful
	freeing atomic.Bool // a FreeOSMemory is under way
	// free returns the memory to the system (debug.FreeOSMemory; a test's
	// own); it runs on a goroutine of its own, not the loop.
	free func()
}

// watchFall looks at the connections (every second, from the loop) and
// releases the memory of a crowd gone. It reports whether it did.
func (s *Server) watchFall(now time.Duration) bool {
	r := &s.fall
	n := len(s.conns)
	r.peak = max(r.peak, n) // and at each connection's coming (handle)
	if r.peak < releaseMin || n*4 > r.peak {
		r.low = -1
		return false
	}
	if r.low < 0 {
		r.low = now
	}
	if now-r.low < releaseSettle || r.done && now-r.last < releaseEvery {
		return false
	}
	peak := r.peak
	s.trim()
	r.peak, r.low, r.last, r.done = n, -1, now, true
	s.log.Info("memory released after a crowd went", "conns", n, "peak_conns", peak)
	if r.freeing.CompareAndSwap(false, true) {
		free := r.free
		if free == nil {
			free = debug.FreeOSMemory
		}
		go func() {
			defer r.freeing.Store(false)
			free()
		}()
	}
	return true
}

// trim lets go of what the loop's buffers and the hub's grew to (see
// hub.Hub.Trim): the encoders, their arenas and frames, the shards'
// shares of a flush and inboxes' spare halves, and the maps of
// connections, which never shrink. Called by the loop between flushes.
func (s *Server) trim() {
	s.hub.Trim()
	s.enc, s.queuer, s.slow = encoder{}, queuer{}, nil
	for _, sh := range s.shards {
		sh.q, sh.inSpare = queuer{}, nil
		sh.inMu.Lock()
		if len(sh.inbox) == 0 {
			sh.inbox = nil
		}
		sh.inMu.Unlock()
	}
	s.conns, s.gone = maps.Clone(s.conns), maps.Clone(s.gone)
	s.mu.Lock()
	s.live, s.published = maps.Clone(s.live), maps.Clone(s.published)
	s.mu.Unlock()
}
