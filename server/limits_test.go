package server

import (
	"net"
	"strings"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
)

// TestTCPConnectionCap: connections that never say Hello cannot pile up
// past MaxConns; the next one gets a clear Error, and once one goes away a
// player can join again.
func TestTCPConnectionCap(t *testing.T) {
	ts := startServer(t, Options{Config: Config{Rate: 20}, MaxConns: 3})
	var idle []*testClient
	for i := 0; i < 3; i++ {
		idle = append(idle, dial(t, ts))
	}
	extra := dial(t, ts)
	e, ok := extra.closed().(*protocol.Error)
	if !ok || e.Code != protocol.ErrCodeFull {
		t.Fatalf("connection over the cap got %#v, want a 'server busy' Error", e)
	}
	ts.waitLog(t, "refused connection")
	idle[0].nc.Close()
	deadline := time.Now().Add(wait)
	for {
		c := dial(t, ts)
		c.send(&protocol.Hello{Version: protocol.Version, Name: "ada"})
		m, err := c.recv()
		if err == nil {
			if _, ok := m.(*protocol.Welcome); ok {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no room after a connection closed: %v %v", m, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestTCPErrorFromJoinedClientCloses: a client that reports an Error
// leaves and is closed, like a Bye.
func TestTCPErrorFromJoinedClientCloses(t *testing.T) {
	ts := startServer(t, Options{Config: Config{Rate: 20}})
	c := dial(t, ts)
	c.join("ada")
	c.send(&protocol.Error{Code: protocol.ErrCodeProtocol, Text: "client gives up"})
	if _, ok := c.closed().(*protocol.Bye); !ok {
		t.Fatal("no Bye before the close")
	}
	ts.waitLog(t, "client gives up")
}

// TestTCPCloseIsQuickAfterADrop: a client that stopped reading, then sent
// a malformed frame, is dropped with its Error queued behind a writer stuck
// on the full socket. Close must cut that writer, not wait out the write
// timeout.
func TestTCPCloseIsQuickAfterADrop(t *testing.T) {
	ts := startServer(t, Options{Config: Config{Rate: MaxRate}, SendQueue: 1 << 16, WriteBuffer: 4096})
	c := dial(t, ts)
	c.nc.(*net.TCPConn).SetReadBuffer(4096)
	c.join("stuck") // and never reads again
	// Wait until far more has been sent than the two 4 KB socket buffers
	// hold (a State here is 27 bytes), so that the writer is blocked; the
	// queue is large, so the client is not dropped as slow.
	eventually(t, func() bool { return ts.Stats().StatesSent >= 1000 }, func() string { return "the server sent too few states" })
	c.nc.Write([]byte{0, 3, 99, 1, 2})
	ts.waitLog(t, "malformed")
	start := time.Now()
	ts.Close()
	if took := time.Since(start); took > 3*time.Second {
		t.Fatalf("Close took %v with a dropped client's writer stuck", took)
	}
}

// TestImmediateModeSendsNothingToOthersForNoMove: in immediate mode an input
// that moves nothing is acknowledged to its sender only.
func TestImmediateModeSendsNothingToOthersForNoMove(t *testing.T) {
	c := NewCore(Config{Rate: 0, Spawns: []grid.Pos{{X: 5, Y: 1}}})
	join(t, c, 0, 1, "ann", false)
	join(t, c, 0, 2, "bob", false) // at (5,1), under the top wall
	c.Outbox()
	c.Receive(0, 2, &protocol.Input{Seq: 1, Dir: grid.Up}) // into the wall
	out := c.Outbox().Envelopes
	if len(statesTo(out, 1)) != 0 || len(statesTo(out, 2)) != 1 || statesTo(out, 2)[0].Ack != 1 {
		t.Fatalf("a blocked input sent %s, want one State, to its sender, acknowledging #1", describe(out))
	}
	c.Receive(time.Second, 2, &protocol.Input{Seq: 2, Dir: grid.Down})
	out = c.Outbox().Envelopes
	if len(statesTo(out, 1)) != 1 || len(statesTo(out, 2)) != 1 {
		t.Fatalf("a move sent %s, want a State to everyone", describe(out))
	}
}

// TestConfigFitsTheWire: configurations whose frames could not be sent are
// refused up front; a big map or a big world is not one of them.
func TestConfigFitsTheWire(t *testing.T) {
	if err := (Config{MaxPlayers: MaxPlayersCap}).Validate(); err != nil {
		t.Errorf("the largest player count is refused: %v", err)
	}
	if err := (Config{MaxPlayers: MaxPlayersCap + 1}).Validate(); err == nil {
		t.Error("more players than 16-bit IDs number was accepted")
	}
	row := strings.Repeat(".", 300) + "\n"
	big, err := grid.ParseMap(strings.Repeat(row, 300))
	if err != nil {
		t.Fatal(err)
	}
	if err := (Config{Map: big, Spawn: grid.Pos{X: 1, Y: 1}}).Validate(); err != nil {
		t.Errorf("a 300x300 map, whose cells follow the Welcome in chunks, was refused: %v", err)
	}
	// The largest State: a full area and as many gone.
	st := &protocol.State{Players: make([]grid.PlayerPos, protocol.MaxAreaPlayers+1), Gone: make([]grid.PlayerID, protocol.MaxAreaPlayers)}
	for i := range st.Players {
		st.Players[i] = grid.PlayerPos{ID: grid.PlayerID(i + 1)}
	}
	for i := range st.Gone {
		st.Gone[i] = grid.PlayerID(i + 5000)
	}
	if _, err := protocol.Marshal(st); err != nil {
		t.Errorf("a State with a full area and as many gone does not encode: %v", err)
	}
}
