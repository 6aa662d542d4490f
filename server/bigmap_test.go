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
