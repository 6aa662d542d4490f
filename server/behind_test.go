package server

import (
	"fmt"
	"maps"
	"net"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
	"gridlag/server/hub"
	"gridlag/server/world"
	"gridlag/server/world/worldtest"
)

// TestClientBehindGetsNewestStateNotBacklog: a client that stops reading
// while the world moves is not queued a State a tick: once its socket is
// full the States for it are skipped (counted in the metrics), its queue
// stays a few frames, and when it reads again it gets a full picture of
// the world as it is now, the same as a client that read everything,
// after fewer States than the ticks that passed.
//
// The server runs on the test's clock one tick at a time, each once the
// mover has read the State of the last and the writers have written it
// (tick): the ticks counted are the server's, the mover is never behind
// nor sends faster than the clock says, and nothing depends on how fast
// a busy machine runs the server, the mover or the sleeper.
func TestClientBehindGetsNewestStateNotBacklog(t *testing.T) {
	const (
		rate     = 200
		interval = time.Second / rate
	)
	rec := newRecorder()
	ts, clock := startClocked(t, Options{
		Hub:          hub.Options{Config: world.Config{Rate: rate}},
		WriteBuffer:  4096,
		WriteTimeout: time.Hour, // it is behind, not gone
		IdleTimeout:  time.Hour,
		Metrics:      rec,
	})
	mover := dial(t, ts)
	me := mover.join("mover").Player

	// The mover reads everything: its picture is the truth the sleeper's
	// must come back to.
	moverIn := listen(t, mover)
	var truth worldtest.Picture
	ticks := 0
	var seq, ack, last uint32 // the last move sent, the last the mover was told done, the last tick it had a State of
	tick := func() {
		t.Helper()
		at := clock.now() + interval
		clock.advance(interval)
		for {
			h := <-moverIn
			if h.err != nil {
				t.Fatalf("the mover, at tick %d: %v", ticks, h.err)
			}
			truth.Take(h.m)
			if st, ok := h.m.(*protocol.State); ok && time.Duration(st.TimeNS) >= at {
				ack, last = st.Ack, st.Tick
				break
			}
		}
		// and once the writers have had their go at the tick's frames: a
		// State is skipped once a writer found the socket full, and not a
		// tick later than that for a writer a busy machine runs late.
		eventually(t, ts.written, func() string { return fmt.Sprintf("the writers never wrote tick %d", last) })
		ticks++
	}

	// The sleeper says Hello and reads its Welcome (a join may wait for a
	// tick: the clock goes on meanwhile), then reads nothing more.
	sleeper := dial(t, ts)
	sleeper.nc.(*net.TCPConn).SetReadBuffer(4096)
	sleeper.send(&protocol.Hello{Version: protocol.Version, Name: "sleeper"})
	welcome := make(chan heard, 1)
	go func() {
		m, err := sleeper.recv()
		welcome <- heard{m, err}
	}()
	since := ticks // the sleeper is behind from its Hello on, at the latest
	for joined := false; !joined; {
		select {
		case h := <-welcome:
			if _, ok := h.m.(*protocol.Welcome); !ok || h.err != nil {
				t.Fatalf("join sleeper: got %+v, %v, want a Welcome", h.m, h.err)
			}
			joined = true
		default:
			tick()
		}
	}
	tick() // one at least: the mover's first State shows where it is
	start, in := truth[me]
	if !in {
		t.Fatalf("the mover does not see itself: %v", truth)
	}

	// The sleeper falls behind: the clock goes on until its socket is full
	// and a State for it is skipped.
	skipped := func() int {
		rec.mu.Lock()
		defer rec.mu.Unlock()
		return rec.skipped
	}
	for skipped() == 0 {
		if ticks > 100_000 { // 500 s of the server's clock, far below IdleTimeout
			t.Fatalf("no State skipped for a client that does not read, after %d ticks", ticks)
		}
		tick()
	}

	// The mover moves meanwhile, a move every 200 ms (past the speed
	// limit), right and left, until 50 States were skipped: an odd number
	// of moves, so that it ends a cell right of where it started, and the
	// sleeper's first States are not the world as it is now.
	move := func() {
		seq++
		d := grid.Right
		if seq%2 == 0 {
			d = grid.Left
		}
		mover.send(&protocol.Input{Seq: seq, Dir: d})
	}
	for k := 0; skipped() < 50 || seq%2 == 0; k++ {
		if ticks > 100_000 {
			t.Fatalf("%d States skipped for a client that does not read, after %d ticks: want 50", skipped(), ticks)
		}
		if k%(rate/5) == 0 {
			move()
		}
		tick()
	}
	if n := ts.queued(sleeper); n > 64 {
		t.Errorf("%d frames queued for a client behind, want a few (States are skipped)", n)
	}
	for guard := time.Now().Add(wait); ack < seq; tick() { // the last move made: the world holds still from now on
		if time.Now().After(guard) {
			t.Fatalf("move %d was never done (the mover was told %d) in %v", seq, ack, wait)
		}
	}
	behind, wake := ticks-since, last
	if at := truth[me]; at != start.Add(grid.Right) {
		t.Fatalf("the mover sees itself at %v (%v) after %d moves, want a cell right of %v", at, truth, seq, start)
	}

	// The sleeper reads again, the clock going on meanwhile: the first
	// State after those skipped is a full picture, and the newest State
	// (that of the tick it woke at, or later) shows what the mover sees.
	sleeperIn := listen(t, sleeper)
	states, gap := 0, false // States read; whether one after a tick with none came
	prev := uint32(0)
	// readTo reads the sleeper's States up to that of tick to, or a later
	// one, ticking while none waits.
	readTo := func(to uint32) {
		t.Helper()
		for guard := time.Now().Add(wait); ; {
			if time.Now().After(guard) { // a hang guard: catching up is reading a few kilobytes
				t.Fatalf("the client behind read no State of tick %d in %v: it has %v after %d States", to, wait, sleeper.seen, states)
			}
			var h heard
			select {
			case h = <-sleeperIn:
			default:
				tick()
				continue
			}
			if h.err != nil {
				t.Fatalf("the client behind read no State of tick %d: %v (it has %v)", to, h.err, sleeper.seen)
			}
			st, ok := h.m.(*protocol.State)
			if !ok {
				continue
			}
			if states > 0 && st.Tick > prev+1 {
				gap = true
				if !st.Full {
					t.Errorf("the State of tick %d, after that of tick %d, is not a full picture: the news of those skipped are lost", st.Tick, prev)
				}
			}
			prev = st.Tick
			states++
			sleeper.seen.Take(st)
			if st.Tick >= to {
				return
			}
		}
	}
	readTo(wake)
	if !maps.Equal(sleeper.seen, truth) {
		t.Errorf("the client behind sees %v after the State of tick %d, want the mover's picture %v", sleeper.seen, prev, truth)
	}
	if !gap {
		t.Errorf("the client behind read the States of every tick: none was skipped")
	}
	if states >= behind {
		t.Errorf("the client behind read %d States for %d ticks: a backlog, want the newest only", states, behind)
	}
	if testing.Verbose() {
		t.Logf("%d ticks behind, %d States skipped, %d read on catching up", behind, skipped(), states)
	}

	// Caught up, it is sent the States of the ticks that follow, as the
	// mover is.
	for range 3 {
		tick()
		readTo(last)
	}
	if !maps.Equal(sleeper.seen, truth) {
		t.Errorf("the client caught up sees %v at tick %d, want the mover's picture %v", sleeper.seen, prev, truth)
	}
}

// heard is a message a client read, or why it read none.
type heard struct {
	m   protocol.Message
	err error
}

// listen reads c's messages in a goroutine of its own, each within the
// hang guard of the last, and hands them on in order, then the error
// that ended it; it stops with the test. The test's goroutine must not
// read c meanwhile.
func listen(t *testing.T, c *testClient) <-chan heard {
	in := make(chan heard)
	done := make(chan struct{})
	t.Cleanup(func() { close(done) }) // before c is closed (dial's cleanup)
	go func() {
		for {
			c.nc.SetReadDeadline(time.Now().Add(wait))
			m, err := c.dec.Decode()
			select {
			case in <- heard{m, err}:
			case <-done:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	return in
}

// written reports whether every shard's writer has had a pass at the
// frames of the last tick marked (writePass).
func (ts *testServer) written() bool {
	for _, sh := range ts.shards {
		sh.mu.Lock()
		marked := sh.marked
		sh.mu.Unlock()
		if sh.wrote.Load() < marked {
			return false
		}
	}
	return true
}

// queued returns the frames queued for c's connection on the server.
func (ts *testServer) queued(c *testClient) int {
	local := c.nc.LocalAddr().String()
	ts.mu.Lock()
	defer ts.mu.Unlock()
	for _, sc := range ts.live {
		if sc.remote == local {
			return int(sc.queued.Load())
		}
	}
	panic(fmt.Sprintf("no connection from %s", local))
}
