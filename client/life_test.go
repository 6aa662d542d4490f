package client

import (
	"errors"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
)

// lived returns the lives noted in notes.
func lived(notes []Note) []InputLife {
	var ls []InputLife
	for _, n := range notes {
		if n.Kind == Lived {
			ls = append(ls, *n.Life)
		}
	}
	return ls
}

// TestLifeOnTheServersClock: the server's clock runs 7 s ahead of the
// client's, 100 ms each way. The client maps the server's stages onto its
// own clock from the States' trips down and the stages' trips up, as NTP
// does: the input's whole life comes out on the client's clock, to the
// millisecond. Without the stages (no Trace) the life has the client's
// stages alone.
func TestLifeOnTheServersClock(t *testing.T) {
	const ahead = 7 * time.Second
	c := NewCore(0, Options{})
	c.SetTrace(true) // before the Welcome: asked once welcomed
	c.Outbox()
	c.Receive(100*ms, welcome())
	if out := c.Outbox().Messages; len(out) == 0 || !isTrace(out[len(out)-1]) {
		t.Fatalf("after the Welcome the client sent %v, want a Trace", out)
	}
	c.Receive(100*ms, state(0, ahead, at(1, 10, 10))) // made at client time 0
	c.Outbox()

	c.Press(time.Second, grid.Right)
	c.Outbox()
	// Arrived at 1.1 s (server 8.1 s), acknowledged at the tick of 1.15 s.
	c.Receive(1250*ms, &protocol.Stages{Inputs: []protocol.InputStage{{Seq: 1, Outcome: protocol.StageMoved, BeforeUS: 50_000}}})
	c.Receive(1250*ms, &protocol.State{Tick: 23, TimeNS: uint64(ahead + 1150*ms), Ack: 1, Players: []grid.PlayerPos{at(1, 11, 10)}})
	ls := lived(c.Outbox().Notes)
	want := InputLife{Seq: 1, Dir: grid.Right, Pressed: time.Second, Released: time.Second, Sent: time.Second,
		Traced: true, Arrived: 1100 * ms, Applied: 1100 * ms, AckSent: 1150 * ms, Tick: 23, Outcome: protocol.StageMoved,
		Acked: 1250 * ms}
	if len(ls) != 1 || ls[0] != want {
		t.Fatalf("lives %+v\nwant %+v", ls, want)
	}

	c.SetTrace(false)
	if out := c.Outbox().Messages; len(out) != 1 || !isTrace(out[0]) || out[0].(*protocol.Trace).On {
		t.Fatalf("SetTrace(false) sent %v", out)
	}
	c.Press(2*time.Second, grid.Right)
	c.Receive(2250*ms, &protocol.State{Tick: 43, TimeNS: uint64(ahead + 2150*ms), Ack: 2, Players: []grid.PlayerPos{at(1, 12, 10)}})
	ls = lived(c.Outbox().Notes)
	if len(ls) != 1 || ls[0].Traced || ls[0].Arrived != 0 || ls[0].Acked != 2250*ms || ls[0].Pressed != 2*time.Second {
		t.Errorf("untraced life %+v, want the client's stages alone", ls)
	}
}

func isTrace(m protocol.Message) bool { _, ok := m.(*protocol.Trace); return ok }

// TestLifeOfAHeldPress: a press the client's speed limit holds back is
// pressed when the key went down and released when the limit let it go;
// a zap's life carries how far back the server judged it.
func TestLifeOfAHeldPress(t *testing.T) {
	c := playing(t, Options{SharedClock: true})
	c.SetTrace(true)
	c.Press(0, grid.Right)
	c.Press(30*ms, grid.Down) // held: the move time is 100 ms
	c.Advance(100 * ms)       // goes
	c.Zap(150 * ms)
	c.Outbox()
	c.Receive(250*ms, &protocol.ZapResult{Seq: 3, Outcome: protocol.ZapRange, RewindMS: 120, Dir: grid.Down})
	c.Receive(250*ms, &protocol.Stages{Inputs: []protocol.InputStage{
		{Seq: 1, Outcome: protocol.StageMoved, BeforeUS: 150_000},
		{Seq: 2, Outcome: protocol.StageMoved, BeforeUS: 50_000},
		{Seq: 3, Outcome: protocol.StageZapped, BeforeUS: 0},
	}})
	c.Receive(250*ms, &protocol.State{TimeNS: uint64(200 * ms), Ack: 3, Players: []grid.PlayerPos{at(1, 11, 11)}})
	ls := lived(c.Outbox().Notes)
	if len(ls) != 3 {
		t.Fatalf("lives %+v", ls)
	}
	if l := ls[1]; l.Pressed != 30*ms || l.Released != 100*ms || l.LimitWait() != 70*ms || l.Arrived != 150*ms || l.Dir != grid.Down {
		t.Errorf("the held press's life %+v, want pressed 30, released 100, arrived 150", l)
	}
	if l := ls[2]; !l.Zap || !l.Judged || l.Rewind != 120*ms || l.Outcome != protocol.StageZapped || l.Replayed != 0 {
		t.Errorf("the zap's life %+v, want judged 120 ms back", l)
	}
	if l := ls[0]; l.AckSent != 200*ms || l.Acked != 250*ms || l.Trip() != 250*ms {
		t.Errorf("#1's life %+v", l)
	}
}

// TestCorrectionCauses: each correction is counted by its cause: the
// server's word when it staged the input (blocked by a player, refused
// by the speed limit, frozen), else what the client sees (another player
// on the cell, its own freeze, reconciliation off); the life that caused
// it says by how many cells.
func TestCorrectionCauses(t *testing.T) {
	cases := []struct {
		name    string
		outcome protocol.StageOutcome // 0: not traced
		setup   func(c *Core)
		others  []grid.PlayerPos
		want    Cause
	}{
		{"blocked, as staged", protocol.StagePlayer, nil, nil, CauseBlocked},
		{"speed limit, as staged", protocol.StageTooFast, nil, nil, CauseSpeedLimit},
		{"frozen, as staged", protocol.StageFrozen, nil, nil, CauseFrozen},
		{"blocked, as seen", 0, nil, []grid.PlayerPos{at(2, 11, 10)}, CauseBlocked},
		{"frozen, as told", 0, func(c *Core) { c.Receive(50*ms, &protocol.Tagged{By: 2, FrozenMS: 2000}) }, nil, CauseFrozen},
		{"no reconciliation", 0, nil, nil, CauseNoReconcile},
		{"unsaid", 0, nil, nil, CauseOther},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := playing(t, Options{SharedClock: true, NoReconcile: tc.want == CauseNoReconcile})
			c.Press(0, grid.Right)
			c.Press(100*ms, grid.Right) // (12,10) predicted
			if tc.setup != nil {
				tc.setup(c)
			}
			c.Outbox()
			if tc.outcome != 0 {
				c.Receive(150*ms, &protocol.Stages{Inputs: []protocol.InputStage{{Seq: 1, Outcome: tc.outcome, BeforeUS: 50_000}}})
			}
			c.Receive(150*ms, state(1, 100*ms, append([]grid.PlayerPos{at(1, 10, 10)}, tc.others...)...))
			b := c.Outbox()
			var corr *Correction
			for _, n := range b.Notes {
				if n.Correction != nil {
					corr = n.Correction
				}
			}
			if corr == nil || corr.Cause != tc.want || corr.Reason != tc.want.String() {
				t.Fatalf("correction %+v, want %v", corr, tc.want)
			}
			var ins Instruments
			c.instruments(150*ms, &ins)
			if ins.Causes[tc.want] != 1 {
				t.Errorf("causes %v", ins.Causes)
			}
			ls := lived(b.Notes)
			if len(ls) != 1 || !ls[0].Corrected || ls[0].Cells != corr.Cells || corr.Cells != manhattan(corr.From, corr.To) {
				t.Errorf("life %+v after correction %+v", ls, corr)
			}
		})
	}
}

// TestSmoothingSlidesACorrection: off, a correction snaps the avatar;
// on, the avatar shows where prediction had it for the first half of a
// move time (a one-cell correction), then where the server put it.
func TestSmoothingSlidesACorrection(t *testing.T) {
	for _, smooth := range []bool{false, true} {
		c := playing(t, Options{})
		c.SetSmooth(smooth)
		c.Press(0, grid.Right)
		c.Receive(200*ms, state(1, 150*ms, at(1, 10, 10), at(2, 11, 10)))
		for _, step := range []struct {
			at   time.Duration
			want grid.Pos
		}{{200 * ms, grid.Pos{X: 11, Y: 10}}, {249 * ms, grid.Pos{X: 11, Y: 10}}, {250 * ms, grid.Pos{X: 10, Y: 10}}, {400 * ms, grid.Pos{X: 10, Y: 10}}} {
			v := c.View(step.at)
			want := step.want
			if !smooth {
				want = grid.Pos{X: 10, Y: 10}
			}
			if v.Shown != want || v.Predicted != (grid.Pos{X: 10, Y: 10}) || v.Smooth != smooth {
				t.Errorf("smooth %v at %v: shown %v predicted %v, want shown %v", smooth, step.at, v.Shown, v.Predicted, want)
			}
		}
	}
}

// TestLifeAcrossADrop: an input sent before a drop and one pressed while
// away go again on the resumed connection; their lives count the time
// away as held back on the way up, and the client asks the new
// connection for the server's stages again.
func TestLifeAcrossADrop(t *testing.T) {
	c := resumable(t)
	c.SetTrace(true)
	c.Press(0, grid.Right)
	c.Outbox()
	c.Dropped(50*ms, errors.New("reset"))
	c.Press(300*ms, grid.Down) // held while away
	c.Resume(time.Second)
	w := welcome()
	w.Token, w.ResumeS = testToken, 30
	c.Receive(1100*ms, w)
	if out := c.Outbox().Messages; len(out) < 2 || !isTrace(out[len(out)-1]) {
		t.Fatalf("after the resumed Welcome the client sent %v, want a Trace again", out)
	}
	c.Receive(1100*ms, state(0, 1100*ms, at(1, 10, 10))) // sends #1 and #2 again
	c.Outbox()
	c.Receive(1300*ms, state(2, 1250*ms, at(1, 11, 11)))
	ls := lived(c.Outbox().Notes)
	if len(ls) != 2 || ls[0].HeldUp != 1100*ms || ls[0].Sent != 1100*ms || ls[1].Pressed != 300*ms || ls[1].Sent != 1100*ms {
		t.Errorf("lives across the drop %+v, want both sent again at 1.1 s, the wait held up", ls)
	}
}
