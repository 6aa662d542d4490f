package client

import (
	"errors"
	"strings"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
)

var testToken = protocol.Token{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}

// resumable returns a core past its handshake at (10,10) whose Welcome
// gave a token and a 30 s window.
func resumable(t *testing.T) *Core {
	t.Helper()
	c := NewCore(0, Options{})
	w := welcome()
	w.Token, w.ResumeS = testToken, 30
	c.Receive(0, w)
	c.Receive(0, state(0, 0, at(1, 10, 10)))
	c.Outbox()
	return c
}

func seqs(ins []*protocol.Input) []uint32 {
	var s []uint32
	for _, in := range ins {
		s = append(s, in.Seq)
	}
	return s
}

func TestDropHoldsPressesAndResumeResendsTheUnacknowledged(t *testing.T) {
	c := resumable(t)
	c.Press(0, grid.Right)      // #1
	c.Press(100*ms, grid.Right) // #2
	c.Outbox()
	c.Receive(150*ms, state(1, 150*ms, at(1, 11, 10))) // the server did #1
	c.Dropped(200*ms, errors.New("read: connection reset"))
	if c.Phase() != Reconnecting || !c.View(200*ms).Reconnecting {
		t.Fatalf("after the drop: phase %v, view reconnecting %v", c.Phase(), c.View(200*ms).Reconnecting)
	}
	if r := c.Press(300*ms, grid.Right); r != Sent { // #3, held
		t.Fatalf("press while reconnecting: %v", r)
	}
	if out := c.Outbox().Messages; len(out) != 0 {
		t.Fatalf("sent %v while reconnecting", out)
	}
	if v := c.View(300 * ms); v.Predicted != (grid.Pos{X: 13, Y: 10}) || len(v.Pending) != 2 {
		t.Errorf("view while reconnecting: at %v with %d pending; want (13,10) predicted, #2 and #3 pending", v.Predicted, len(v.Pending))
	}
	c.Press(400*ms, grid.Right) // #4
	c.Press(500*ms, grid.Right) // #5: pending is the Burst of 4 now
	if r := c.Press(600*ms, grid.Right); r != Ignored {
		t.Errorf("a press beyond the server's burst while reconnecting: %v, want Ignored", r)
	}

	c.Resume(2 * time.Second)
	out := c.Outbox().Messages
	if r, ok := out[0].(*protocol.Resume); len(out) != 1 || !ok || r.Token != testToken {
		t.Fatalf("on the new connection: %v, want a Resume with the token", out)
	}
	w := welcome()
	w.Token, w.ResumeS = protocol.Token{9}, 30
	c.Receive(2100*ms, w)
	if got := c.Outbox().Messages; len(inputs(got)) != 0 {
		t.Fatalf("inputs %v before the server said which it has", got)
	}
	c.Receive(2100*ms, state(2, 2100*ms, at(1, 12, 10))) // the server had #2 too
	if got := seqs(inputs(c.Outbox().Messages)); len(got) != 3 || got[0] != 3 || got[1] != 4 || got[2] != 5 {
		t.Fatalf("re-sent %v, want #3 #4 #5 in order", got)
	}
	v := c.View(2100 * ms)
	if v.Reconnecting || !v.Connected || v.Predicted != (grid.Pos{X: 15, Y: 10}) || c.Stats().Resumes != 1 || tokenOf(c) != w.Token {
		t.Errorf("after the resume: %+v, stats %+v", v, c.Stats())
	}
	if c.Press(3*time.Second, grid.Right); seqs(inputs(c.Outbox().Messages))[0] != 6 {
		t.Errorf("the numbering does not go on at #6")
	}
}

// TestPressHeldBySpeedLimitWhileReconnecting: a press the speed limit
// holds back while reconnecting is numbered and held as pending once the
// limit allows it, as any press while reconnecting, not only after the
// resume; the core wakes for it.
func TestPressHeldBySpeedLimitWhileReconnecting(t *testing.T) {
	c := resumable(t)
	c.Press(0, grid.Right) // #1
	c.Outbox()
	c.Dropped(10*ms, errors.New("read: connection reset"))
	if r := c.Press(20*ms, grid.Right); r != Deferred {
		t.Fatalf("a press 20 ms after the last: %v, want Deferred", r)
	}
	if at, ok := c.NextWake(); !ok || at != 100*ms {
		t.Errorf("next wake %v %v, want 100ms: the held press is due then", at, ok)
	}
	c.Advance(100 * ms)
	if v := c.View(100 * ms); c.Stats().InputsSent != 2 || len(v.Pending) != 2 || v.Predicted != (grid.Pos{X: 12, Y: 10}) || !v.Reconnecting {
		t.Errorf("after the limit, still reconnecting: %d inputs numbered, %d pending, predicted %v; want #2 numbered, held and predicted", c.Stats().InputsSent, len(v.Pending), v.Predicted)
	}
	if out := c.Outbox().Messages; len(out) != 0 {
		t.Errorf("sent %v while reconnecting", out)
	}
}

func TestGivesUpAfterTheWindow(t *testing.T) {
	c := resumable(t)
	c.Dropped(time.Second, errors.New("read: connection reset"))
	if at, ok := c.NextWake(); !ok || at != 31*time.Second {
		t.Errorf("next wake %v %v, want the window's end at 31 s", at, ok)
	}
	c.Advance(30 * time.Second)
	if c.Phase() != Reconnecting {
		t.Fatalf("gave up before the window ended")
	}
	c.Advance(31 * time.Second)
	if c.Phase() != Closed || !strings.Contains(c.Err().Error(), "within 30s") || !strings.Contains(c.Err().Error(), "connection reset") {
		t.Errorf("after the window: phase %v, err %v", c.Phase(), c.Err())
	}
}

func TestRefusedResumeEndsWithTheServersError(t *testing.T) {
	c := resumable(t)
	c.Dropped(time.Second, errors.New("EOF"))
	c.Resume(2 * time.Second)
	c.Receive(2*time.Second, &protocol.Error{Code: protocol.ErrCodeResume, Text: "resume refused: the token is unknown"})
	var e *protocol.Error
	if c.Phase() != Closed || !errors.As(c.Err(), &e) || e.Code != protocol.ErrCodeResume {
		t.Errorf("phase %v, err %v: want closed with the server's Error", c.Phase(), c.Err())
	}
}

func TestNoTokenNoResume(t *testing.T) {
	c := playing(t, Options{})
	c.Dropped(time.Second, errors.New("EOF"))
	if c.Phase() != Closed {
		t.Errorf("phase %v: without a token a drop ends the connection", c.Phase())
	}
}

func TestResumeOptionContinuesTheNumbering(t *testing.T) {
	c := NewCore(0, Options{Resume: testToken})
	if r, ok := c.Outbox().Messages[0].(*protocol.Resume); !ok || r.Token != testToken {
		t.Fatalf("first message: want a Resume with the token")
	}
	c.Receive(0, welcome())
	c.Receive(0, state(41, 0, at(1, 10, 10)))
	c.Outbox()
	c.Press(time.Second, grid.Right)
	if got := seqs(inputs(c.Outbox().Messages)); len(got) != 1 || got[0] != 42 {
		t.Errorf("first input %v, want #42 after the server's #41", got)
	}
}

func tokenOf(c *Core) protocol.Token {
	tok, _ := c.Resumable()
	return tok
}

func zaps(out []protocol.Message) []*protocol.Zap {
	var z []*protocol.Zap
	for _, m := range out {
		if v, ok := m.(*protocol.Zap); ok {
			z = append(z, v)
		}
	}
	return z
}

// TestZapIsHeldAndResentLikeAPress: a zap unacknowledged at the drop and
// one fired while reconnecting go out again after the resume, in order
// with the moves, with their own numbers and render times.
func TestZapIsHeldAndResentLikeAPress(t *testing.T) {
	c := resumable(t)
	c.Zap(100 * ms) // #1
	first := zaps(c.Outbox().Messages)
	if len(first) != 1 || first[0].Seq != 1 {
		t.Fatalf("zap #1: %v", first)
	}
	c.Dropped(200*ms, errors.New("read: connection reset"))
	c.Press(300*ms, grid.Right)          // #2, held
	if r := c.Zap(400 * ms); r != Sent { // #3, held
		t.Fatalf("zap while reconnecting: %v", r)
	}
	if out := c.Outbox().Messages; len(out) != 0 {
		t.Fatalf("sent %v while reconnecting", out)
	}
	c.Resume(time.Second)
	c.Outbox()
	w := welcome()
	w.Token, w.ResumeS = protocol.Token{9}, 30
	c.Receive(1100*ms, w)
	c.Receive(1100*ms, state(0, 1100*ms, at(1, 10, 10)))
	var got []uint32
	var render []uint64
	for _, m := range c.Outbox().Messages {
		switch m := m.(type) {
		case *protocol.Zap:
			got, render = append(got, m.Seq), append(render, m.RenderNS)
		case *protocol.Input:
			got = append(got, m.Seq)
		}
	}
	if len(got) != 3 || got[0] != 1 || got[1] != 2 || got[2] != 3 {
		t.Fatalf("re-sent %v, want #1 (zap) #2 (move) #3 (zap) in order", got)
	}
	if render[0] != first[0].RenderNS {
		t.Errorf("zap #1 re-sent with render time %d, want %d as first sent", render[0], first[0].RenderNS)
	}
}
