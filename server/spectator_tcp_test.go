package server

import (
	"strings"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
	"gridlag/server/hub"
	"gridlag/server/world"
)

// TestTCPSpectatorWatchesAPlayer: over real TCP, a spectator sees a player
// walk, with the ack of each input and the round trip the server measured
// by pinging the player; the spectator's own Input closes it alone.
func TestTCPSpectatorWatchesAPlayer(t *testing.T) {
	ts := startServer(t, Options{Hub: hub.Options{Config: world.Config{Rate: 20, MaxPlayers: 1}, PingInterval: 20 * time.Millisecond}})
	p := dial(t, ts)
	if w := p.join("ann"); w.Player != 1 {
		t.Fatalf("welcome %+v", w)
	}
	// The player answers the server's Ping, as the client core does.
	ping := p.until("the server's ping", func(m protocol.Message) bool { _, ok := m.(*protocol.Ping); return ok }).(*protocol.Ping)
	p.send(&protocol.Pong{Stamp: ping.Stamp})

	// The server is full of players; a spectator still gets in.
	s := dial(t, ts)
	s.send(&protocol.Spectate{Version: protocol.Version, Name: "teacher"})
	m, err := s.recv()
	if sp, ok := m.(*protocol.Spectating); err != nil || !ok || sp.UpdateRate != 20 || sp.MapWidth != 40 {
		t.Fatalf("spectator got %+v, %v; want Spectating with rate 20 and the 40-wide map", m, err)
	}
	if m, err := s.recv(); err != nil || m.(*protocol.Join).Player.Name != "ann" {
		t.Fatalf("spectator got %+v, %v; want ann's Join", m, err)
	}
	ts.waitLog(t, "spectator joined")

	p.send(&protocol.Input{Seq: 1, Dir: grid.Right})
	o := s.until("ann moved, acked and timed", func(m protocol.Message) bool {
		o, ok := m.(*protocol.Overview)
		return ok && len(o.Players) == 1 && o.Players[0].Ack == 1 && o.Players[0].RTTMS != protocol.NoRTT
	}).(*protocol.Overview)
	if ann := o.Players[0]; ann.ID != 1 || ann.Pos != (grid.Pos{X: 11, Y: 10}) || o.Total != 1 {
		t.Errorf("spectator sees %+v of %d, want ann at (11,10)", ann, o.Total)
	}
	if st := ts.Stats(); st.Players != 1 || st.Spectators != 1 {
		t.Errorf("stats %+v, want 1 player and 1 spectator", st)
	}

	s.send(&protocol.Input{Seq: 1, Dir: grid.Left})
	if e, ok := s.closed().(*protocol.Error); !ok || !strings.Contains(e.Text, "spectator") {
		t.Errorf("a spectator's Input got %+v, want an Error naming spectators", e)
	}
	ts.waitLog(t, "spectator left")
	// The player plays on.
	p.send(&protocol.Input{Seq: 2, Dir: grid.Right})
	p.state("ack 2", func(st *protocol.State) bool { return st.Ack == 2 })
}
