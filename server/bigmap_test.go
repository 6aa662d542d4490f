package server

import (
	"bytes"
	"testing"

	"gridlag/grid"
	"gridlag/protocol"
)

// bigMap generates a side x side map (seed 3) and finds the floor cell
// nearest its centre, for a spawn.
func bigMap(tb testing.TB, side int) (*grid.Map, grid.Pos) {
	tb.Helper()
	m, err := grid.Generate(side, side, 3)
	if err != nil {
		tb.Fatal(err)
	}
	spawn, _ := nearestFloor(m, grid.Pos{X: side / 2, Y: side / 2})
	return m, spawn
}

// TestBigMapFollowsTheWelcome: on a generated 1024x1024 map a newcomer's
// Welcome carries the dimensions only, and the map's chunks follow it,
// before its first State, giving the map back cell for cell.
func TestBigMapFollowsTheWelcome(t *testing.T) {
	m, spawn := bigMap(t, 1024)
	c := NewCore(Config{Map: m, Spawn: spawn, Rate: 20})
	w := join(t, c, 0, 1, "ann", false)
	if !w.MapFollows() || len(w.Cells) != 0 || w.MapWidth != 1024 || w.MapHeight != 1024 {
		t.Fatalf("welcome of a 1024x1024 map: %dx%d with %d cells", w.MapWidth, w.MapHeight, len(w.Cells))
	}
	c.Receive(0, 2, &protocol.Hello{Version: protocol.Version, Name: "bob"})
	out := c.Outbox().Envelopes
	if statesTo(out, 2) == nil {
		t.Fatalf("bob got no State: %s", describe(out))
	}
	var cells []byte
	for _, e := range out[1:] {
		if ch, ok := e.Msg.(*protocol.MapChunk); ok {
			cells = append(cells, ch.Cells...)
			continue
		}
		if len(cells) != 1024*1024 {
			t.Fatalf("%v after %d cells of chunks, want the whole map before anything else", e.Msg.Type(), len(cells))
		}
		break
	}
	if !bytes.Equal(cells, m.Cells()) {
		t.Error("the chunks do not give the map back")
	}
}

// TestBigMapFollowsTheSpectating: a spectator of a big world gets the map
// in chunks right after its Spectating, as a player after its Welcome.
func TestBigMapFollowsTheSpectating(t *testing.T) {
	m, spawn := bigMap(t, 1024)
	c := NewCore(Config{Map: m, Spawn: spawn, Rate: 20})
	c.Receive(0, 1, &protocol.Spectate{Version: protocol.Version, Name: "teacher"})
	out := c.Outbox().Envelopes
	sp, ok := out[0].Msg.(*protocol.Spectating)
	if !ok || !sp.MapFollows() {
		t.Fatalf("first message %s, want a Spectating whose map follows", describe(out))
	}
	var cells []byte
	for _, e := range out[1:] {
		if ch, ok := e.Msg.(*protocol.MapChunk); ok {
			cells = append(cells, ch.Cells...)
		}
	}
	if !bytes.Equal(cells, m.Cells()) {
		t.Error("the chunks do not give the map back")
	}
}

// TestRoomsShareTheMap: every room of a server plays on one MapShare,
// built once with its chunks encoded: opening a room copies no map and
// encodes nothing, and two rooms' spectators are sent the same bytes.
func TestRoomsShareTheMap(t *testing.T) {
	m, spawn := bigMap(t, 1024)
	s := New(Options{Config: Config{Map: m, Spawn: spawn, Rate: 20}})
	def := s.openRoom("")
	if len(def.core.share.frames) != len(def.core.share.chunks) || len(def.core.share.chunks) == 0 {
		t.Fatalf("the default room's share has %d frames for %d chunks: not encoded when built",
			len(def.core.share.frames), len(def.core.share.chunks))
	}
	red, blue := s.openRoom("red"), s.openRoom("blue")
	if red.core.share != def.core.share || blue.core.share != def.core.share {
		t.Fatal("a named room built a map of its own")
	}
	sent := func(r *room, id ConnID) [][]byte {
		r.core.Receive(0, id, &protocol.Spectate{Version: protocol.Version, Name: "watcher", Room: r.name})
		var heads [][]byte
		for _, f := range s.enc.encode(r.core.Outbox().Envelopes, wholeStates, r.core.share.frames, nil) {
			if f.head[2] == byte(protocol.TypeMapChunk) {
				heads = append(heads, f.head)
			}
		}
		return heads
	}
	a, b := sent(red, 1), sent(blue, 2)
	if len(a) != len(def.core.share.chunks) || len(b) != len(a) {
		t.Fatalf("%d and %d chunks sent, want %d", len(a), len(b), len(def.core.share.chunks))
	}
	for i := range a {
		if &a[i][0] != &b[i][0] {
			t.Fatalf("chunk %d of blue is not red's bytes", i)
		}
	}
}
