package client

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
)

// entered returns the phases the notes say were entered, in order.
func entered(notes []Note) []Phase {
	var ps []Phase
	for _, n := range notes {
		if n.Kind == Entered {
			ps = append(ps, n.Phase)
		}
	}
	return ps
}

// TestPlayerLifecycle walks a player's core through every phase of the
// package doc, in order, with what a caller may assume in each: the
// view's words for it, and what a press does.
func TestPlayerLifecycle(t *testing.T) {
	c := NewCore(0, Options{Name: "ada"})
	var notes []Note
	take := func() []protocol.Message {
		b := c.Outbox()
		notes = append(notes, b.Notes...)
		return slices.Clone(b.Messages)
	}
	step := func(now time.Duration, want Phase, connected, away bool, press PressResult) {
		t.Helper()
		v := c.View(now)
		if c.Phase() != want || v.Phase != want || v.Connected != connected || v.Reconnecting != away {
			t.Fatalf("phase %v (view %v), connected %v, reconnecting %v; want %v, %v, %v", c.Phase(), v.Phase, v.Connected, v.Reconnecting, want, connected, away)
		}
		if r := c.Press(now, grid.Down); r != press {
			t.Fatalf("%v: a press was %v, want %v", want, r, press)
		}
		take()
	}
	if _, ok := take()[0].(*protocol.Hello); !ok {
		t.Fatal("a new core does not say Hello")
	}
	step(0, Handshaking, false, false, Ignored)
	w := welcome()
	w.Token, w.ResumeS = testToken, 30
	c.Receive(10*ms, w)
	step(10*ms, Joining, true, false, Ignored)
	c.Receive(20*ms, state(0, 20*ms, at(1, 10, 10)))
	step(20*ms, Playing, true, false, Sent) // #1
	c.Dropped(200*ms, errors.New("read: connection reset"))
	step(300*ms, Reconnecting, false, true, Sent) // #2, held
	c.Resume(time.Second)
	if _, ok := take()[0].(*protocol.Resume); !ok {
		t.Fatal("Resume does not say Resume")
	}
	step(time.Second, Resuming, false, true, Sent) // #3, held
	c.Receive(1100*ms, w)
	step(1100*ms, CatchingUp, true, true, Sent) // #4, held: the burst is full
	if r := c.Press(1200*ms, grid.Down); r != Ignored {
		t.Fatalf("a press past the burst while catching up: %v", r)
	}
	c.Receive(1200*ms, state(1, 1200*ms, at(1, 10, 11)))
	if got := inputs(take()); len(got) != 3 || got[0].Seq != 2 || got[2].Seq != 4 {
		t.Fatalf("caught up with %v, want the held #2 to #4", got)
	}
	step(1300*ms, Playing, true, false, Sent) // #5
	if r := c.Press(1350*ms, grid.Down); r != Deferred {
		t.Fatalf("a press sooner than the speed limit: %v, want it deferred", r)
	}
	c.Dropped(1400*ms, errors.New("EOF"))
	c.Advance(1400*ms + 30*time.Second)
	if c.Phase() != Closed || !strings.Contains(c.Err().Error(), "within 30s") {
		t.Fatalf("after the window: %v, %v", c.Phase(), c.Err())
	}
	step(1400*ms+30*time.Second, Closed, false, false, Ignored)
	take()
	want := []Phase{Joining, Playing, Reconnecting, Resuming, CatchingUp, Playing, Reconnecting, Closed}
	if got := entered(notes); !slices.Equal(got, want) {
		t.Fatalf("entered %v, want %v", got, want)
	}
	if last := notes[len(notes)-1]; last.Err != c.Err() {
		t.Errorf("the note of the end says %v, want %v", last.Err, c.Err())
	}
}

// TestDropTwiceIsOneDrop: the read and the write of a connection may both
// report its loss; while reconnecting, the second changes nothing.
func TestDropTwiceIsOneDrop(t *testing.T) {
	c := resumable(t)
	c.Dropped(100*ms, errors.New("read: connection reset"))
	c.Dropped(120*ms, errors.New("write: broken pipe"))
	if c.Phase() != Reconnecting {
		t.Fatalf("after a second word of the drop: %v, %v", c.Phase(), c.Err())
	}
	if at, _ := c.NextWake(); at != 100*ms+30*time.Second {
		t.Errorf("the window ends at %v, want 30 s after the first drop", at)
	}
}

// TestNotesOfACorrection: a State that moves the predicted avatar is
// noted with the correction, the other messages without; then the life of
// the input it acknowledged, corrected.
func TestNotesOfACorrection(t *testing.T) {
	c := playing(t, Options{})
	c.Press(0, grid.Right) // predicted at (11,10)
	c.Outbox()
	c.Receive(100*ms, &protocol.Join{Player: protocol.PlayerInfo{ID: 2, Name: "bob"}})
	c.Receive(100*ms, state(1, 100*ms, at(1, 10, 10), at(2, 11, 10))) // bob took the cell first
	notes := c.Outbox().Notes
	if len(notes) != 3 || notes[0].Kind != Arrived || notes[0].Correction != nil || notes[1].Kind != Arrived || notes[2].Kind != Lived {
		t.Fatalf("notes %+v, want the Join and the State arrived, then #1's life", notes)
	}
	if l := notes[2].Life; l == nil || l.Seq != 1 || !l.Corrected || l.Cells != 1 || l.Acked != 100*ms {
		t.Errorf("#1's life %+v, want it corrected by a cell, acknowledged at 100ms", l)
	}
	corr := notes[1].Correction
	if corr == nil || corr.From != (grid.Pos{X: 11, Y: 10}) || corr.To != (grid.Pos{X: 10, Y: 10}) || corr.Reason != "blocked by another player" {
		t.Fatalf("the State's correction %+v, want (11,10) to (10,10), blocked", corr)
	}
}

// TestSpectatorLifecycle: a spectator is Handshaking until its map is in,
// then Watching, then Closed, each noted.
func TestSpectatorLifecycle(t *testing.T) {
	s := NewSpectator(0, Options{Name: "teacher"})
	if v := s.View(0); s.Phase() != Handshaking || v.Connected {
		t.Fatalf("a new spectator is %v, connected %v", s.Phase(), v.Connected)
	}
	s.Receive(10*ms, spectating())
	if v := s.View(10 * ms); s.Phase() != Watching || v.Phase != Watching || !v.Connected {
		t.Fatalf("after the Spectating: %v, connected %v; want watching", s.Phase(), v.Connected)
	}
	s.Receive(20*ms, &protocol.Bye{Reason: protocol.ByeShutdown})
	if got, want := entered(s.Outbox().Notes), []Phase{Watching, Closed}; !slices.Equal(got, want) {
		t.Fatalf("entered %v, want %v", got, want)
	}
}

// TestNoteOfAHeldPress: the press the speed limit held back is noted when
// it goes, with its input.
func TestNoteOfAHeldPress(t *testing.T) {
	c := playing(t, Options{})
	c.Press(0, grid.Right)
	if r := c.Press(30*ms, grid.Right); r != Deferred {
		t.Fatalf("a press 30 ms after another: %v, want it held", r)
	}
	c.Advance(30 * ms) // the first Ping
	c.Outbox()
	if at, _ := c.NextWake(); at != 100*ms {
		t.Fatalf("next wake %v, want the speed limit's 100ms", at)
	}
	c.Advance(100 * ms)
	b := c.Outbox()
	if len(b.Notes) != 1 || b.Notes[0].Kind != HeldSent || len(inputs(b.Messages)) != 1 || inputs(b.Messages)[0].Seq != 2 {
		t.Fatalf("at 100ms: notes %+v, sent %v; want input #2 and its note", b.Notes, b.Messages)
	}
}
