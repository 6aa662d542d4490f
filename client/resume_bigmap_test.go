package client

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
	"gridlag/server/world"
)

// walledMap is a w x h map of floor inside a wall.
func walledMap(t *testing.T, w, h int) *grid.Map {
	t.Helper()
	var b strings.Builder
	for y := range h {
		for x := range w {
			if x == 0 || y == 0 || x == w-1 || y == h-1 {
				b.WriteByte('#')
			} else {
				b.WriteByte('.')
			}
		}
		b.WriteByte('\n')
	}
	m, err := grid.ParseMap(b.String())
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestResumeOnABigMap: a player on a map too big for the Welcome drops
// and resumes, all at explicit times between a server Core and a client
// Core. The resumed Welcome is followed by the map's bits; the client
// waits for the last piece and decodes them, then gets a Join of the one player in its area
// (not of the far one) and a first State that is a full picture of its
// area, in which the neighbour has moved meanwhile; the press held while
// reconnecting goes again after it, and the server moves the player.
func TestResumeOnABigMap(t *testing.T) {
	const ms = time.Millisecond
	m := walledMap(t, 600, 200)
	ann, bob, far := grid.Pos{X: 20, Y: 20}, grid.Pos{X: 22, Y: 20}, grid.Pos{X: 500, Y: 150}
	srv := world.NewCore(world.Config{Map: m, Spawn: ann, Spawns: []grid.Pos{ann, bob, far}, Rate: 20, Resume: 30 * time.Second})
	cl := NewCore(0, Options{Name: "ann", NoInterpolate: true})
	// deliver hands what the client sent to the server on conn, and what
	// the server sent to conn to the client, and returns the latter.
	deliver := func(now time.Duration, conn world.ConnID) []protocol.Message {
		t.Helper()
		for _, m := range cl.Outbox().Messages {
			srv.Receive(now, conn, roundTrip(t, m))
		}
		var got []protocol.Message
		for _, e := range srv.Outbox().Envelopes {
			if e.To == conn {
				got = append(got, roundTrip(t, e.Msg))
			}
		}
		for _, m := range got {
			if err := cl.Receive(now, m); err != nil {
				t.Fatalf("the client took %v badly: %v", m.Type(), err)
			}
		}
		return got
	}

	deliver(0, 1) // ann's Hello, her Welcome, the map's bits and her first State
	srv.Receive(0, 2, &protocol.Hello{Version: protocol.Version, Name: "bob"})
	srv.Receive(0, 3, &protocol.Hello{Version: protocol.Version, Name: "far"})
	srv.Outbox()
	srv.Tick(50 * ms)
	deliver(50*ms, 1)
	if !cl.Ready() || len(cl.View(50*ms).Others) != 1 {
		t.Fatalf("before the drop: ready %v, drawing %+v; want bob alone", cl.Ready(), cl.View(50*ms).Others)
	}

	srv.Drop(time.Second, 1, "read: connection reset")
	cl.Dropped(time.Second, errors.New("read: connection reset"))
	srv.Receive(1100*ms, 2, &protocol.Input{Seq: 1, Dir: grid.Right}) // bob to (23,20)
	srv.Tick(1150 * ms)
	for _, e := range srv.Outbox().Envelopes {
		if e.To == 1 {
			t.Fatalf("%v sent to ann's dropped connection", e.Msg.Type())
		}
	}
	if r := cl.Press(1200*ms, grid.Down); r != Sent {
		t.Fatalf("a press while reconnecting: %v, want held as sent", r)
	}

	cl.Resume(2 * time.Second)
	for _, m := range cl.Outbox().Messages {
		srv.Receive(2*time.Second, 4, roundTrip(t, m))
	}
	var msgs []protocol.Message
	for _, e := range srv.Outbox().Envelopes {
		if e.To == 4 {
			msgs = append(msgs, roundTrip(t, e.Msg))
		}
	}
	w, ok := msgs[0].(*protocol.Welcome)
	if !ok || !w.MapFollows() || w.Player != 1 || w.Token.IsZero() {
		t.Fatalf("the resume's answer begins with %v, want a Welcome of player 1 whose map follows", msgs[0].Type())
	}
	var cells []byte
	bits := protocol.NewMapBitsBuffer(w.MapWidth, w.MapHeight)
	pieces, joins, states := 0, 0, 0
	for i, m := range msgs {
		if i > 0 && cl.Phase() != Resuming {
			if _, piece := m.(*protocol.MapBits); piece {
				t.Fatalf("the client resumed before the map's last piece (%d so far)", pieces)
			}
		}
		switch m := m.(type) {
		case *protocol.MapChunk:
			t.Fatal("MapChunks to a client of this version")
		case *protocol.MapBits:
			pieces++
			if joins+states > 0 {
				t.Fatal("a piece of the map after the Joins or the State")
			}
			if got, err := bits.Add(m); err != nil {
				t.Fatal(err)
			} else if got != nil {
				cells = got.Cells()
			}
		case *protocol.Join:
			joins++
			if len(cells) != 600*200 || m.Player.Name != "bob" {
				t.Errorf("Join of %q after %d cells, want bob's after the whole map", m.Player.Name, len(cells))
			}
		case *protocol.State:
			states++
			want := []grid.PlayerPos{{ID: 1, Pos: ann}, {ID: 2, Pos: grid.Pos{X: 23, Y: 20}}}
			if !m.Full || joins != 1 || len(m.Players) != 2 || m.Players[0] != want[0] || m.Players[1] != want[1] {
				t.Errorf("the first State after the resume: %+v after %d Joins; want a full picture %v after bob's Join", m, joins, want)
			}
		}
		if err := cl.Receive(2*time.Second, m); err != nil {
			t.Fatalf("the client took %v badly: %v", m.Type(), err)
		}
	}
	if pieces < 1 || states != 1 || !bytes.Equal(cells, m.Cells()) {
		t.Errorf("%d pieces, %d States: want the map, then one State", pieces, states)
	}

	v := cl.View(2 * time.Second)
	if cl.Phase() != Playing || v.Reconnecting || cl.Stats().Resumes != 1 {
		t.Fatalf("after the resume: phase %v, reconnecting %v, %d resumes", cl.Phase(), v.Reconnecting, cl.Stats().Resumes)
	}
	if len(v.Others) != 1 || v.Others[0].Name != "bob" || v.Others[0].Pos != (grid.Pos{X: 23, Y: 20}) {
		t.Errorf("drawn after the resume: %+v, want bob alone at (23,20)", v.Others)
	}
	if tok, _ := cl.Resumable(); tok != w.Token {
		t.Errorf("the client keeps token %x, want the resumed Welcome's %x", tok, w.Token)
	}
	// The held press goes on the new connection, and the server does it.
	deliver(2100*ms, 4)
	srv.Tick(2150 * ms)
	deliver(2150*ms, 4)
	if v := cl.View(2150 * ms); v.Server != (grid.Pos{X: 20, Y: 21}) || len(v.Pending) != 0 {
		t.Errorf("after the held press: the server has ann at %v with %d pending, want (20,21) and none", v.Server, len(v.Pending))
	}
}
