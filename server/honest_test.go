package server

import (
	"fmt"
	"net"
	"slices"
	"sync"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
)

// honest is a player from its own address that plays while an attack
// runs: it joins (in room, if not ""), moves every 60 ms and reads
// everything, noting when each input is acknowledged. Its finish stops
// the moves and checks that it was never refused nor dropped and that
// every input was acknowledged; it returns the acknowledgements' delays.
type honest struct {
	t    *testing.T
	nc   net.Conn
	stop chan struct{}
	done chan struct{}

	mu      sync.Mutex
	sent    map[uint32]time.Time // input numbers not yet acknowledged, when sent
	last    uint32               // the last number sent
	acked   uint32
	delays  []time.Duration
	lost    string // why it was refused or dropped, "" if never
	playing bool   // welcomed
}

func playHonestly(t *testing.T, ts *testServer, local, room string) *honest {
	t.Helper()
	nc := dialFrom(t, ts, local).nc
	h := &honest{t: t, nc: nc, stop: make(chan struct{}), done: make(chan struct{}), sent: map[uint32]time.Time{}}
	enc := protocol.NewEncoder(nc)
	if err := enc.Encode(&protocol.Hello{Version: protocol.Version, Name: "honest", Room: room}); err != nil {
		t.Fatal(err)
	}
	go h.read()
	go func() {
		defer close(h.done)
		tick := time.NewTicker(60 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-h.stop:
				return
			case <-tick.C:
			}
			h.mu.Lock()
			if !h.playing || h.lost != "" {
				h.mu.Unlock()
				continue
			}
			h.last++
			seq := h.last
			h.sent[seq] = time.Now()
			h.mu.Unlock()
			dir := grid.Right
			if seq%2 == 0 {
				dir = grid.Left
			}
			nc.SetWriteDeadline(time.Now().Add(wait))
			if err := enc.Encode(&protocol.Input{Seq: seq, Dir: dir}); err != nil {
				h.fail("write: " + err.Error())
				return
			}
		}
	}()
	return h
}

func (h *honest) fail(why string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.lost == "" {
		h.lost = why
	}
}

func (h *honest) read() {
	dec := protocol.NewDecoder(h.nc)
	for {
		h.nc.SetReadDeadline(time.Now().Add(wait))
		m, err := dec.Decode()
		if err != nil {
			select {
			case <-h.done:
			default:
				h.fail("read: " + err.Error())
			}
			return
		}
		h.mu.Lock()
		switch v := m.(type) {
		case *protocol.Welcome:
			h.playing = true
		case *protocol.State:
			for seq := h.acked + 1; seq <= v.Ack; seq++ {
				if at, ok := h.sent[seq]; ok {
					h.delays = append(h.delays, time.Since(at))
					delete(h.sent, seq)
				}
			}
			h.acked = max(h.acked, v.Ack)
		case *protocol.Error:
			h.lost = "error: " + v.Text
		case *protocol.Bye:
			h.lost = "bye: " + v.Reason
		}
		h.mu.Unlock()
	}
}

// finish stops the player, waits for its last input's acknowledgement
// and checks it played throughout: welcomed, never refused nor dropped,
// at least moves inputs, every one acknowledged. It returns the delays.
func (h *honest) finish(moves int) []time.Duration {
	h.t.Helper()
	h.waitMoves(moves)
	close(h.stop)
	<-h.done
	var state string
	h.until(func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		state = fmt.Sprintf("welcomed %v, %d inputs sent, %d acknowledged", h.playing, h.last, h.acked)
		return h.playing && h.acked == h.last && int(h.last) >= moves
	}, func() string {
		return fmt.Sprintf("the honest player: %s; want at least %d, all acknowledged", state, moves)
	})
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.delays)
}

// waitMoves waits until the honest player has sent n inputs.
func (h *honest) waitMoves(n int) {
	h.t.Helper()
	var last uint32
	h.until(func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		last = h.last
		return int(last) >= n
	}, func() string { return fmt.Sprintf("the honest player sent %d inputs, want %d", last, n) })
}

// until waits until cond holds, and fails at once if the honest player
// was refused or dropped meanwhile.
func (h *honest) until(cond func() bool, why func() string) {
	h.t.Helper()
	var lost string
	eventually(h.t, func() bool {
		h.mu.Lock()
		lost = h.lost
		h.mu.Unlock()
		return lost != "" || cond()
	}, why)
	if lost != "" {
		h.t.Fatalf("the honest player was refused or dropped: %s", lost)
	}
}
