package server

import (
	"sync"
	"sync/atomic"
	"time"

	"gridlag/internal/notify"
)

// retryInterval is how often a writer comes back to the connections whose
// sockets did not take everything (their clients read slowly, or not at
// all), to write more and to check them for a stall.
const retryInterval = 20 * time.Millisecond

// shard is a share of the connections. One writer goroutine writes what is
// queued for all of them, each connection's frames of a tick in one write
// that never waits; their readers pass what they decode to the loop
// through the shard's inbox, which the loop takes whole.
type shard struct {
	wake chan struct{} // signalled when frames were queued

	mu     sync.Mutex // guards ready, marked and the connections' queues
	ready  []*conn    // connections with frames queued since the writer last looked
	marked uint64     // the last tick whose frames are all queued (Server.markTick)

	// The last tick whose frames the writer has handed to the sockets
	// (all but those of connections whose sockets were full), and when,
	// on the loop's clock: set by the writer, read by the loop.
	wrote   atomic.Uint64
	wroteAt atomic.Int64

	inMu  sync.Mutex
	inbox []event // from the shard's readers and writer, for the loop

	poller *poller // reads the shard's TCP connections; nil: a goroutine reads each

	// Owned by the loop goroutine (q while queue runs: by the goroutine
	// that encodes the shard's share of a flush).
	q       queuer
	inSpare []event // the other half of inbox's double buffer
	queued  bool    // frames were queued since the writer was last woken

	// Owned by the writer goroutine.
	spare   []*conn  // the other half of ready's double buffer
	pending []*conn  // connections with bytes still to write
	iov     [][]byte // one connection's pieces for one write
	// The pass's write system calls and the bytes they wrote, for the
	// metrics (Metrics.Wrote).
	writes, written int
}

func newShard() *shard { return &shard{wake: make(chan struct{}, 1)} }

// signal wakes the shard's writer.
func (sh *shard) signal() {
	notify.Poke(sh.wake)
}

// post passes ev to the loop through sh and wakes the loop. It reports
// false if the server is stopping and ev was dropped.
func (s *Server) post(sh *shard, ev event) bool {
	if !s.postQuiet(sh, ev) {
		return false
	}
	notify.Poke(s.posted)
	return true
}

// postQuiet passes ev to the loop through sh without waking it: the loop
// takes it at its next wake, the next tick at the latest.
func (s *Server) postQuiet(sh *shard, ev event) bool {
	if s.stopping() {
		return false
	}
	sh.inMu.Lock()
	sh.inbox = append(sh.inbox, ev)
	sh.inMu.Unlock()
	return true
}

// postBatch passes evs to the loop through sh at once, waking it if loud.
// It reports false if the server is stopping and evs were dropped.
func (s *Server) postBatch(sh *shard, evs []event, loud bool) bool {
	if s.stopping() {
		return false
	}
	sh.inMu.Lock()
	sh.inbox = append(sh.inbox, evs...)
	sh.inMu.Unlock()
	if loud {
		notify.Poke(s.posted)
	}
	return true
}

// takeInbox returns what sh's goroutines posted since the last call; the
// slice is the loop's until the next call.
func (sh *shard) takeInbox() []event {
	clear(sh.inSpare)
	sh.inMu.Lock()
	evs := sh.inbox
	sh.inbox = sh.inSpare[:0]
	sh.inMu.Unlock()
	sh.inSpare = evs
	return evs
}

// writeLoop is a shard's writer goroutine. It writes whenever the loop
// queued frames, and every retryInterval while some socket has not taken
// everything; once the loop has ended, it returns when everything is
// written or given up.
func (s *Server) writeLoop(sh *shard) {
	defer s.wg.Done()
	retry := time.NewTimer(retryInterval)
	retry.Stop()
	var retried <-chan time.Time
	done := s.loopDone
	for {
		select {
		case <-sh.wake:
		case <-retried:
		case <-done:
			done = nil
		}
		s.writePass(sh)
		if len(sh.pending) == 0 {
			if done == nil {
				return
			}
			retried = nil
			continue
		}
		retry.Reset(retryInterval)
		retried = retry.C
	}
}

// writePass writes what is queued for the shard's connections, behind
// what their sockets did not take last time.
func (s *Server) writePass(sh *shard) {
	sh.mu.Lock()
	tick := sh.marked
	ready := sh.ready
	sh.ready = sh.spare[:0]
	for _, c := range ready {
		c.listed = false
	}
	sh.mu.Unlock()
	for _, c := range ready {
		if !c.inPending {
			c.inPending = true
			sh.pending = append(sh.pending, c)
		}
	}
	clear(ready)
	sh.spare = ready

	now := time.Now()
	timeout := s.opts.WriteTimeout
	if s.stopping() {
		timeout = min(timeout, lingerTime)
	}
	kept := sh.pending[:0]
	for _, c := range sh.pending {
		if s.writeConn(sh, c, now, timeout) {
			kept = append(kept, c)
		} else {
			c.inPending = false
		}
	}
	clear(sh.pending[len(kept):])
	sh.pending = kept
	if sh.writes > 0 {
		s.opts.Metrics.Wrote(sh.writes, sh.written)
		sh.writes, sh.written = 0, 0
	}
	if tick > sh.wrote.Load() {
		sh.wroteAt.Store(int64(s.now()))
		sh.wrote.Store(tick)
	}
}

// writeConn writes what is queued for c, a writeBudget per write (all
// of a tick's frames in one system call), until the socket is full or
// nothing is left. It reports whether bytes still wait: the socket is
// full, and c has not been stalled for timeout yet (then it is dropped as
// too slow).
func (s *Server) writeConn(sh *shard, c *conn, now time.Time, timeout time.Duration) bool {
	if c.killed() {
		return false
	}
	if !c.blocked {
		c.progress = now // nothing was waiting: a stall starts now at the earliest
	}
	for {
		var closing bool
		sh.iov, closing = c.pieces(sh.iov[:0])
		if len(sh.iov) == 0 {
			c.blocked = false
			if closing && !c.killed() {
				s.wg.Add(1)
				go s.linger(c)
			}
			return false
		}
		size := 0
		for _, b := range sh.iov {
			size += len(b)
		}
		n, err := c.writeSome(sh.iov)
		clear(sh.iov) // hold no client's bytes between passes
		sh.writes++
		sh.written += n
		if err != nil {
			// The reason first: closing first would let the reader report a
			// mere "connection closed".
			s.post(sh, event{kind: evGone, c: c, reason: "write error: " + err.Error()})
			s.hardClose(c)
			return false
		}
		if n > 0 {
			c.progress = now
		}
		c.wrote(n, n < size)
		if n < size {
			c.blocked = true
			return s.stillWaiting(c, now, timeout)
		}
	}
}

// stillWaiting reports whether c, whose socket did not take everything,
// may wait for the next pass: it has not taken anything for timeout. Else
// it is dropped as too slow.
func (s *Server) stillWaiting(c *conn, now time.Time, timeout time.Duration) bool {
	if c.killed() {
		return false
	}
	if now.Sub(c.progress) < timeout {
		return true
	}
	s.post(c.shard, event{kind: evGone, c: c, reason: "too slow: read nothing for " + timeout.String(), abuse: true})
	s.hardClose(c)
	return false
}

// tickMarks is what the loop knows of the last tick it marked: its number
// and when it was due.
type tickMarks struct {
	last     uint64
	due      time.Duration
	measured bool
}

// markTick records that every frame of a tick due at due is queued: each
// shard's writer is woken, and notes when it has handed them to the
// sockets (writePass). The loop calls it after the tick's flush.
func (s *Server) markTick(due time.Duration) {
	s.ticks.last++
	s.ticks.due, s.ticks.measured = due, false
	for _, sh := range s.shards {
		sh.mu.Lock()
		sh.marked = s.ticks.last
		sh.mu.Unlock()
		sh.signal()
	}
}

// measureTick tells the hub what the last tick marked cost, from when it
// was due until the last writer handed its frames to the sockets (until
// now if one has not yet), and publishes what the hub reads of the costs
// (Load, Health); it returns that cost, 0 if there was none to measure.
// The loop calls it at the next tick, before its flush.
func (s *Server) measureTick(now time.Duration) time.Duration {
	if s.ticks.last == 0 || s.ticks.measured {
		return 0
	}
	s.ticks.measured = true
	done := time.Duration(0)
	for _, sh := range s.shards {
		at := now
		if sh.wrote.Load() >= s.ticks.last {
			at = time.Duration(sh.wroteAt.Load())
		}
		done = max(done, at)
	}
	s.hub.Load(now, done-s.ticks.due)
	l := s.hub.LoadAt(now)
	s.mu.Lock()
	s.load = l
	s.mu.Unlock()
	return done - s.ticks.due
}
