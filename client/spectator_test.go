package client

import (
	"strings"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
)

// spectating is the Spectating of the default map at 20 Hz.
func spectating() *protocol.Spectating {
	m := grid.DefaultMap()
	return &protocol.Spectating{UpdateRate: 20, MoveTimeMS: 100, Burst: 6,
		MapWidth: uint16(m.Width()), MapHeight: uint16(m.Height()), Cells: m.Cells()}
}

// watching returns a spectator past its handshake that knows ann (1) and
// bot-1 (2).
func watching(t *testing.T) *Spectator {
	t.Helper()
	s := NewSpectator(0, Options{Name: "teacher"})
	out := s.Outbox().Messages
	if sp, ok := out[0].(*protocol.Spectate); len(out) != 1 || !ok || sp.Version != protocol.Version || sp.Name != "teacher" {
		t.Fatalf("a spectator first sends %#v, want one Spectate with the version and the name", out)
	}
	for _, m := range []protocol.Message{
		spectating(),
		&protocol.Join{Player: protocol.PlayerInfo{ID: 1, Color: 3, Name: "ann\x1b[2J"}},
		&protocol.Join{Player: protocol.PlayerInfo{ID: 2, Color: 4, Name: "bot-1"}},
	} {
		if err := s.Receive(10*ms, m); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func TestSpectatorBuildsTheWorldView(t *testing.T) {
	s := watching(t)
	if v := s.View(10 * ms); !v.Connected || v.Map == nil || v.Map.Width() != grid.DefaultMap().Width() || v.Rate != 20 || v.MoveTime != 100*ms || len(v.Players) != 0 {
		t.Fatalf("before any Overview: %+v, want the map and rate, no players", v)
	}
	s.Receive(60*ms, &protocol.Overview{Tick: 7, TimeNS: uint64(350 * ms), Total: 2, Players: []protocol.OverviewPlayer{
		{ID: 1, Pos: grid.Pos{X: 11, Y: 10}, Ack: 4, RTTMS: 80},
		{ID: 2, Bot: true, Pos: grid.Pos{X: 3, Y: 4}, Ack: 9, RTTMS: protocol.NoRTT},
	}})
	v := s.View(70 * ms)
	if v.Tick != 7 || v.Time != 350*ms || v.Total != 2 || v.Now != 70*ms {
		t.Errorf("view tick %d time %v total %d now %v, want tick 7 at 350ms, 2 players, now 70ms", v.Tick, v.Time, v.Total, v.Now)
	}
	want := []WorldPlayer{
		{ID: 1, Name: "ann[2J", Color: 3, Pos: grid.Pos{X: 11, Y: 10}, Ack: 4, RTT: 80 * ms, HasRTT: true},
		{ID: 2, Name: "bot-1", Color: 4, Bot: true, Pos: grid.Pos{X: 3, Y: 4}, Ack: 9},
	}
	if len(v.Players) != len(want) {
		t.Fatalf("players %+v, want %+v", v.Players, want)
	}
	for i := range want {
		if v.Players[i] != want[i] {
			t.Errorf("player %d: %+v, want %+v", i, v.Players[i], want[i])
		}
	}
	// The view is a copy: the next Overview does not change it.
	s.Receive(110*ms, &protocol.Overview{Tick: 8, Total: 2, Players: []protocol.OverviewPlayer{
		{ID: 1, Pos: grid.Pos{X: 12, Y: 10}, Ack: 5, RTTMS: 80}, {ID: 2, Pos: grid.Pos{X: 3, Y: 4}},
	}})
	if v.Players[0].Pos.X != 11 || s.View(110 * ms).Players[0].Pos.X != 12 {
		t.Error("an old view changed, or the new Overview is not shown")
	}
	// A player who leaves is gone at once.
	s.Receive(120*ms, &protocol.Leave{ID: 1})
	if v := s.View(120 * ms); len(v.Players) != 1 || v.Players[0].ID != 2 || v.Total != 1 {
		t.Errorf("after ann left: %+v, want bot-1 alone", v)
	}
}

func TestSpectatorPingsAndTimesOut(t *testing.T) {
	s := watching(t)
	s.Outbox()
	if at, ok := s.NextWake(); !ok || at != 10*ms {
		t.Fatalf("NextWake = %v, %v; want a ping at once", at, ok)
	}
	s.Advance(10 * ms)
	if out := s.Outbox().Messages; len(out) != 1 || out[0].Type() != protocol.TypePing {
		t.Fatalf("Advance sent %v, want one Ping", out)
	}
	if at, _ := s.NextWake(); at != time.Second+10*ms {
		t.Errorf("next wake %v, want the next ping a second later", at)
	}
	s.Receive(20*ms, &protocol.Pong{Stamp: uint64(10 * ms)})
	s.Advance(10*time.Second + 19*ms)
	if s.Phase() != Watching {
		t.Fatalf("closed %v after the server was silent less than 10s: %v", s.Phase(), s.Err())
	}
	s.Advance(10*time.Second + 20*ms)
	if s.Phase() != Closed || !strings.Contains(s.Err().Error(), "no word from the server") {
		t.Errorf("after 10s of silence: %v, %v; want closed, saying so", s.Phase(), s.Err())
	}
	if _, ok := s.NextWake(); ok {
		t.Error("a closed spectator still wants to wake")
	}
}

func TestSpectatorRefusedOrMisled(t *testing.T) {
	s := NewSpectator(0, Options{Name: "teacher"})
	s.Receive(ms, &protocol.Error{Code: protocol.ErrCodeFull, Text: "spectators full: 16 of 16\x1b[2J"})
	if e, ok := s.Err().(*protocol.Error); s.Phase() != Closed || !ok || e.Text != "spectators full: 16 of 16[2J" {
		t.Errorf("refused: %v, %v; want closed with the server's printable reason", s.Phase(), s.Err())
	}
	s = NewSpectator(0, Options{})
	if err := s.Receive(ms, &protocol.Overview{}); err == nil || s.Phase() != Closed {
		t.Errorf("an Overview before Spectating: %v, phase %v; want an error that closes", err, s.Phase())
	}
	s = watching(t)
	if err := s.Receive(ms, &protocol.State{}); err == nil || s.Phase() != Closed {
		t.Errorf("a State to a spectator: %v, phase %v; want an error that closes", err, s.Phase())
	}
	s = watching(t)
	s.Close()
	if out := s.Outbox().Messages; s.Phase() != Closed || len(out) != 1 || out[0].Type() != protocol.TypeBye {
		t.Errorf("Close: phase %v, sent %v; want closed after a Bye", s.Phase(), out)
	}
}
