package server

import (
	"fmt"
	"maps"
	"net"
	"sync"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
	"gridlag/server/hub"
	"gridlag/server/world"
)

// TestClientBehindGetsNewestStateNotBacklog: a client that stops reading
// while the world moves is not queued a State a tick: once its socket is
// full the States for it are skipped (counted in the metrics), its queue
// stays a few frames, and when it reads again it gets a full picture of
// the world as it is now, the same as a client that read everything,
// after fewer States than the ticks that passed.
func TestClientBehindGetsNewestStateNotBacklog(t *testing.T) {
	const rate = 200
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
	sleeper := dial(t, ts)
	sleeper.nc.(*net.TCPConn).SetReadBuffer(4096)
	sleeper.join("sleeper")

	// The mover reads everything, in a goroutine of its own: its picture
	// is the truth the sleeper's must come back to.
	var mu sync.Mutex
	truth := func() map[grid.PlayerID]grid.Pos {
		mu.Lock()
		defer mu.Unlock()
		return maps.Clone(mover.seen)
	}
	go func() {
		for {
			mu.Lock()
			mover.nc.SetReadDeadline(time.Now().Add(wait))
			m, err := mover.dec.Decode()
			if st, ok := m.(*protocol.State); ok {
				mover.seen.Take(st)
			}
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()

	ticks, seq := 0, uint32(0)
	step := func() {
		clock.advance(time.Second / rate)
		ticks++
		if ticks%(rate/5) == 0 { // a move every 200 ms, past the speed limit
			seq++
			d := grid.Right
			if seq%2 == 0 {
				d = grid.Left
			}
			mover.send(&protocol.Input{Seq: seq, Dir: d})
		}
	}
	skipped := func() int {
		rec.mu.Lock()
		defer rec.mu.Unlock()
		return rec.skipped
	}
	for skipped() < 50 {
		if ticks > 1_000_000 {
			t.Fatalf("no State skipped for a client that does not read, after %d ticks", ticks)
		}
		step()
	}
	if n := ts.queued(sleeper); n > 64 {
		t.Errorf("%d frames queued for a client behind, want a few (States are skipped)", n)
	}
	behind := ticks

	// The sleeper reads again, the clock going on meanwhile: it catches up
	// to the mover's picture.
	stop := clock.run(time.Second / rate)
	defer stop()
	states, full := 0, 0 // States read, and the full pictures among them after the first
	for {
		sleeper.nc.SetReadDeadline(time.Now().Add(wait))
		m, err := sleeper.dec.Decode()
		if err != nil {
			t.Fatalf("the client behind never came back to the mover's picture %v: %v (it has %v)", truth(), err, sleeper.seen)
		}
		st, ok := m.(*protocol.State)
		if !ok {
			continue
		}
		if st.Full && states > 0 {
			full++
		}
		states++
		sleeper.seen.Take(st)
		want := truth()
		if _, in := want[me]; in && full > 0 && maps.Equal(map[grid.PlayerID]grid.Pos(sleeper.seen), want) {
			break
		}
	}
	if states >= behind {
		t.Errorf("the client behind read %d States for %d ticks: a backlog, want the newest only", states, behind)
	}
	if testing.Verbose() {
		t.Logf("%d ticks, %d States skipped, %d read on catching up, %d full", behind, skipped(), states, full)
	}
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
