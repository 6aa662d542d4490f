package client

import (
	"errors"
	"strings"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
)

const ms = time.Millisecond

func welcome() *protocol.Welcome {
	m := grid.DefaultMap()
	return &protocol.Welcome{Player: 1, UpdateRate: 20, MoveTimeMS: 100, Burst: 4,
		MapWidth: uint16(m.Width()), MapHeight: uint16(m.Height()), Cells: m.Cells(),
		Players: []protocol.PlayerInfo{{ID: 1, Color: 1, Name: "ada"}}}
}

func state(ack uint32, t time.Duration, players ...grid.PlayerPos) *protocol.State {
	return &protocol.State{TimeNS: uint64(t), Ack: ack, Players: players}
}

func at(id grid.PlayerID, x, y int) grid.PlayerPos {
	return grid.PlayerPos{ID: id, Pos: grid.Pos{X: x, Y: y}}
}

// playing returns a core past its handshake at (10,10).
func playing(t *testing.T, opts Options) *Core {
	t.Helper()
	c := NewCore(0, opts)
	out := c.Outbox().Messages
	if h, ok := out[0].(*protocol.Hello); !ok || h.Version != protocol.Version {
		t.Fatalf("first message %#v, want a Hello with the protocol version", out[0])
	}
	if err := c.Receive(0, welcome()); err != nil {
		t.Fatal(err)
	}
	c.Receive(0, state(0, 0, at(1, 10, 10)))
	c.Outbox()
	return c
}

func inputs(out []protocol.Message) []*protocol.Input {
	var ins []*protocol.Input
	for _, m := range out {
		if in, ok := m.(*protocol.Input); ok {
			ins = append(ins, in)
		}
	}
	return ins
}

func TestPressNumbersAndPredicts(t *testing.T) {
	c := playing(t, Options{})
	if r := c.Press(0, grid.Right); r != Sent {
		t.Fatalf("press: %v", r)
	}
	ins := inputs(c.Outbox().Messages)
	if len(ins) != 1 || ins[0].Seq != 1 || ins[0].Dir != grid.Right {
		t.Fatalf("sent %+v, want #1 RIGHT", ins)
	}
	v := c.View(0)
	if v.Predicted != (grid.Pos{X: 11, Y: 10}) || v.Server != (grid.Pos{X: 10, Y: 10}) {
		t.Fatalf("predicted %v server %v", v.Predicted, v.Server)
	}
	if len(v.Pending) != 1 || v.Pending[0].Seq != 1 {
		t.Fatalf("pending %+v", v.Pending)
	}
}

func TestHeldPressGoesOutAtTheLimit(t *testing.T) {
	c := playing(t, Options{})
	c.Press(0, grid.Right)
	c.Outbox()
	if r := c.Press(30*ms, grid.Up); r != Deferred {
		t.Fatalf("press 30 ms after the last: %v, want Deferred", r)
	}
	if r := c.Press(60*ms, grid.Down); r != Deferred {
		t.Fatalf("second early press: %v", r)
	}
	if at, ok := c.NextWake(); !ok || at != 0 {
		// the first ping is due at once
		t.Fatalf("next wake %v %v", at, ok)
	}
	c.Advance(0)
	c.Outbox()
	if at, _ := c.NextWake(); at != 100*ms {
		t.Fatalf("next wake %v, want 100ms (the held press)", at)
	}
	c.Advance(99 * ms)
	if ins := inputs(c.Outbox().Messages); len(ins) != 0 {
		t.Fatalf("held press went out early: %+v", ins)
	}
	c.Advance(100 * ms)
	ins := inputs(c.Outbox().Messages)
	if len(ins) != 1 || ins[0].Dir != grid.Down || ins[0].Seq != 2 {
		t.Fatalf("at the limit sent %+v, want #2 DOWN (the latest press wins)", ins)
	}
}

func TestToggleRules(t *testing.T) {
	c := playing(t, Options{})
	c.SetPredict(false)
	if v := c.View(0); v.Predict || v.Reconcile {
		t.Fatal("prediction off must turn reconciliation off")
	}
	c.SetReconcile(true)
	if v := c.View(0); !v.Predict || !v.Reconcile {
		t.Fatal("reconciliation on must turn prediction on")
	}
	c.SetReconcile(false)
	if v := c.View(0); !v.Predict || v.Reconcile {
		t.Fatal("reconciliation off leaves prediction on")
	}
	c2 := NewCore(0, Options{NoPredict: true})
	if v := c2.View(0); v.Predict || v.Reconcile {
		t.Fatal("NoPredict must start with reconciliation off too")
	}
}

// Prediction off then on again gives reconciliation back what it was: the
// prediction key pressed twice changes nothing.
func TestPredictionBackRestoresReconciliation(t *testing.T) {
	cases := []struct {
		name      string
		opts      Options
		toggle    func(c *Core) // with prediction off
		reconcile bool          // after prediction is back on
	}{
		{"on stays on", Options{}, func(*Core) {}, true},
		{"off stays off", Options{NoReconcile: true}, func(*Core) {}, false},
		{"started without prediction", Options{NoPredict: true}, func(*Core) {}, true},
		{"turned off meanwhile", Options{}, func(c *Core) { c.SetReconcile(false) }, false},
	}
	for _, tc := range cases {
		c := playing(t, tc.opts)
		c.SetPredict(false)
		c.SetPredict(false) // twice off is still off, remembering the first
		tc.toggle(c)
		c.SetPredict(true)
		if v := c.View(0); !v.Predict || v.Reconcile != tc.reconcile {
			t.Errorf("%s: predict %v reconcile %v, want true %v", tc.name, v.Predict, v.Reconcile, tc.reconcile)
		}
		c.SetPredict(true) // already on: no change
		if v := c.View(0); v.Reconcile != tc.reconcile {
			t.Errorf("%s: prediction on again changed reconciliation to %v", tc.name, v.Reconcile)
		}
	}
	c := playing(t, Options{NoReconcile: true})
	c.SetPredict(false)
	c.SetReconcile(true) // r while prediction is off turns both on
	if v := c.View(0); !v.Predict || !v.Reconcile {
		t.Fatal("reconciliation on must turn prediction on")
	}
}

func TestPredictionOffShowsTheServer(t *testing.T) {
	c := playing(t, Options{NoPredict: true})
	c.Press(0, grid.Right)
	if v := c.View(0); v.Predicted != (grid.Pos{X: 10, Y: 10}) || len(v.Pending) != 1 {
		t.Fatalf("without prediction: sees %v, pending %d", v.Predicted, len(v.Pending))
	}
	c.Receive(250*ms, state(1, 125*ms, at(1, 11, 10)))
	if v := c.View(250 * ms); v.Predicted != (grid.Pos{X: 11, Y: 10}) || len(v.Pending) != 0 || v.Corrections != 0 {
		t.Fatalf("after the answer: sees %v, pending %d, corrections %d", v.Predicted, len(v.Pending), v.Corrections)
	}
}

func TestCollisionIsACorrection(t *testing.T) {
	c := playing(t, Options{})
	c.Receive(0, state(0, 0, at(1, 10, 10), at(2, 12, 10)))
	c.Press(0, grid.Right) // predicts (11,10)
	// The other player took (11,10) first: the server blocked us.
	c.Receive(200*ms, state(1, 100*ms, at(1, 10, 10), at(2, 11, 10)))
	v := c.View(200 * ms)
	if v.Predicted != (grid.Pos{X: 10, Y: 10}) || v.Corrections != 1 {
		t.Fatalf("sees %v with %d corrections, want (10,10) and 1", v.Predicted, v.Corrections)
	}
	if v.LastCorrection == nil || v.LastCorrection.From != (grid.Pos{X: 11, Y: 10}) || v.LastCorrection.Reason != "blocked by another player" {
		t.Fatalf("correction %+v", v.LastCorrection)
	}
	// Prediction respects others: pressing RIGHT again is predicted blocked.
	c.Press(300*ms, grid.Right)
	if v := c.View(300 * ms); v.Predicted != (grid.Pos{X: 10, Y: 10}) {
		t.Fatalf("predicted into another player: %v", v.Predicted)
	}
}

func TestHandshakeErrors(t *testing.T) {
	c := NewCore(0, Options{Name: "ada"})
	c.Receive(0, &protocol.Error{Code: protocol.ErrCodeVersion, Text: "this server speaks version 2"})
	var pe *protocol.Error
	if c.Phase() != Closed || !errors.As(c.Err(), &pe) || pe.Code != protocol.ErrCodeVersion {
		t.Fatalf("phase %v err %v", c.Phase(), c.Err())
	}
	c3 := NewCore(0, Options{Name: "ada"})
	c3.Receive(0, &protocol.Error{Code: protocol.ErrCodeFull, Text: "full\x1b[2J\x1b]0;owned\x07"})
	if msg := c3.Err().Error(); strings.ContainsAny(msg, "\x1b\x07") {
		t.Fatalf("a server's error text reaches the player with control characters: %q", msg)
	}
	c2 := NewCore(0, Options{})
	if err := c2.Receive(0, state(0, 0)); err == nil || c2.Phase() != Closed {
		t.Fatal("a State before the Welcome must close the connection")
	}
	if c2.Press(0, grid.Right) != Ignored {
		t.Fatal("press on a closed core not ignored")
	}
}

func TestPingMeasuresRoundTrip(t *testing.T) {
	c := playing(t, Options{PingInterval: time.Second})
	c.Advance(0)
	var ping *protocol.Ping
	for _, m := range c.Outbox().Messages {
		if p, ok := m.(*protocol.Ping); ok {
			ping = p
		}
	}
	if ping == nil {
		t.Fatal("no ping")
	}
	c.Receive(180*ms, &protocol.Pong{Stamp: ping.Stamp})
	if v := c.View(180 * ms); v.RTT != 180*ms {
		t.Fatalf("rtt %v, want 180ms", v.RTT)
	}
}

func TestOthersNamesAreSanitised(t *testing.T) {
	c := playing(t, Options{NoInterpolate: true})
	c.Receive(0, &protocol.Join{Player: protocol.PlayerInfo{ID: 2, Color: 3, Name: "ev\x1b[2Jil"}})
	c.Receive(0, state(0, 0, at(1, 10, 10), at(2, 12, 10)))
	v := c.View(0)
	if len(v.Others) != 1 || v.Others[0].Name != "ev[2Jil" {
		t.Fatalf("others %+v", v.Others)
	}
}

// TestLeaveRemovesAtOnce: a player that left the game, told by a Leave
// or in a State's Left, is no longer drawn, even interpolated, and its
// cell no longer blocks.
func TestLeaveRemovesAtOnce(t *testing.T) {
	for i, opts := range []Options{{}, {NoInterpolate: true}, {}, {NoInterpolate: true}} {
		inState := i >= 2
		c := playing(t, opts)
		c.Receive(0, &protocol.Join{Player: protocol.PlayerInfo{ID: 2, Color: 3, Name: "bob"}})
		c.Receive(0, state(0, 0, at(1, 10, 10), at(2, 12, 10)))
		c.Receive(50*ms, state(0, 50*ms, at(1, 10, 10), at(2, 12, 10)))
		if inState {
			c.Receive(60*ms, &protocol.State{Tick: 2, TimeNS: uint64(60 * ms), Left: []grid.PlayerID{2}})
		} else {
			c.Receive(60*ms, &protocol.Leave{ID: 2})
		}
		if v := c.View(60 * ms); len(v.Others) != 0 {
			t.Fatalf("interpolate=%v: a player who left is still drawn: %+v", !opts.NoInterpolate, v.Others)
		}
		c.Press(60*ms, grid.Right)
		c.Press(160*ms, grid.Right)
		if v := c.View(160 * ms); v.Predicted != (grid.Pos{X: 12, Y: 10}) {
			t.Fatalf("the cell of a player who left still blocks prediction: %v", v.Predicted)
		}
	}
}

func TestSilentServerEndsTheConnection(t *testing.T) {
	c := playing(t, Options{PingInterval: time.Second})
	for now := time.Duration(0); now < 9*time.Second; now += 100 * ms {
		c.Advance(now)
	}
	if c.Phase() != Playing {
		t.Fatalf("closed after 9 s of silence: %v", c.Err())
	}
	at, ok := c.NextWake()
	if !ok || at > 10*time.Second {
		t.Fatalf("next wake %v: the silence deadline must be scheduled", at)
	}
	c.Advance(10 * time.Second)
	if c.Phase() != Closed || c.Err() == nil {
		t.Fatalf("still %v after 10 s without a word from the server", c.Phase())
	}
	if v := c.View(10 * time.Second); v.Connected || v.Err == nil {
		t.Fatalf("view says connected=%v err=%v", v.Connected, v.Err)
	}
}

func TestSameMomentStateReplaces(t *testing.T) {
	c := playing(t, Options{})
	c.Receive(0, state(0, 100*ms, at(1, 10, 10), at(2, 12, 10)))
	c.Receive(0, state(0, 100*ms, at(1, 10, 10), at(2, 13, 10))) // same server time, later word
	c.Receive(300*ms, state(0, 400*ms, at(1, 10, 10), at(2, 13, 10)))
	v := c.View(5 * time.Second)
	if len(v.Others) != 1 || v.Others[0].Pos != (grid.Pos{X: 13, Y: 10}) {
		t.Fatalf("others %+v, want player 2 at (13,10)", v.Others)
	}
	for now := time.Duration(0); now < 2*time.Second; now += 10 * ms {
		if o := c.View(now).Others; len(o) == 1 && o[0].Pos == (grid.Pos{X: 12, Y: 10}) {
			t.Fatalf("t=%v: drawn at the superseded cell (12,10)", now)
		}
	}
}

func TestHandshakeTimesOut(t *testing.T) {
	c := NewCore(0, Options{Name: "ada"})
	c.Outbox()
	if at, ok := c.NextWake(); !ok || at != 10*time.Second {
		t.Fatalf("next wake %v %v, want the handshake deadline at 10s", at, ok)
	}
	c.Advance(9 * time.Second)
	if c.Phase() != Handshaking {
		t.Fatal("gave up early")
	}
	c.Advance(10 * time.Second)
	if c.Phase() != Closed || c.Err() == nil {
		t.Fatalf("still %v after 10 s without a Welcome", c.Phase())
	}
}

// TestServerPingAnswered: the server measures each player's round trip, so
// the client answers its Ping at once with a Pong of the same stamp.
func TestServerPingAnswered(t *testing.T) {
	c := playing(t, Options{})
	if err := c.Receive(300*ms, &protocol.Ping{Stamp: 0xFEEDF00D}); err != nil {
		t.Fatal(err)
	}
	out := c.Outbox().Messages
	if len(out) != 1 {
		t.Fatalf("a server's Ping gave %d messages, want one Pong", len(out))
	}
	if p, ok := out[0].(*protocol.Pong); !ok || p.Stamp != 0xFEEDF00D {
		t.Errorf("a server's Ping was answered with %#v, want Pong{0xFEEDF00D}", out[0])
	}
}

// TestNoticeReachesTheView: the operator's notice is in the view, printable,
// and the game goes on.
func TestNoticeReachesTheView(t *testing.T) {
	c := playing(t, Options{})
	if err := c.Receive(0, &protocol.Notice{Text: "server stopping in 10 s\x1b[2J"}); err != nil {
		t.Fatal(err)
	}
	v := c.View(0)
	if v.Notice != "server stopping in 10 s[2J" || !v.Connected || v.Err != nil {
		t.Errorf("view notice %q, connected %v, err %v: want the printable notice, still playing", v.Notice, v.Connected, v.Err)
	}
}

// TestViewNamesThePlayerAsTheServerDoes: a player who asked for a name
// taken in the room plays under the variant the server gave it in its
// Welcome (ada-2), and its screen says so, not the name it asked for.
func TestViewNamesThePlayerAsTheServerDoes(t *testing.T) {
	c := NewCore(0, Options{Name: "ada"})
	c.Outbox()
	w := welcome()
	w.Players[0].Name = "ada-2"
	if err := c.Receive(0, w); err != nil {
		t.Fatal(err)
	}
	c.Receive(0, state(0, 0, at(1, 10, 10)))
	if v := c.View(0); v.Name != "ada-2" {
		t.Errorf("the view names the player %q, want ada-2 as the server does", v.Name)
	}
}
