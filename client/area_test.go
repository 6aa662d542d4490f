package client

import (
	"hash/fnv"
	"slices"
	"testing"

	"gridlag/grid"
	"gridlag/protocol"
)

// others returns who the view draws, as PlayerPos.
func others(v View) []grid.PlayerPos {
	var ps []grid.PlayerPos
	for _, o := range v.Others {
		ps = append(ps, grid.PlayerPos{ID: o.ID, Pos: o.Pos})
	}
	return ps
}

// TestDeltasBuildTheArea: a full picture, then States of what changed
// (moves, arrivals, departures), give the client the area the server
// means; an arrival has the name its Join gave, a departure is drawn no
// more, and a State that changes nothing changes nothing.
func TestDeltasBuildTheArea(t *testing.T) {
	c := playing(t, Options{NoInterpolate: true})
	c.Receive(0, &protocol.Join{Player: protocol.PlayerInfo{ID: 2, Color: 3, Name: "bob"}})
	c.Receive(0, &protocol.State{Full: true, Players: []grid.PlayerPos{at(1, 10, 10), at(2, 12, 10)}})
	steps := []struct {
		st   *protocol.State
		want []grid.PlayerPos
	}{
		{&protocol.State{TimeNS: 1, Players: []grid.PlayerPos{at(2, 13, 10)}}, []grid.PlayerPos{at(2, 13, 10)}},
		{&protocol.State{TimeNS: 2}, []grid.PlayerPos{at(2, 13, 10)}},
		{&protocol.State{TimeNS: 3, Players: []grid.PlayerPos{at(3, 5, 5)}}, []grid.PlayerPos{at(2, 13, 10), at(3, 5, 5)}},
		{&protocol.State{TimeNS: 4, Players: []grid.PlayerPos{at(1, 11, 10)}, Gone: []grid.PlayerID{2}}, []grid.PlayerPos{at(3, 5, 5)}},
		{&protocol.State{TimeNS: 5, Full: true, Players: []grid.PlayerPos{at(1, 11, 10), at(4, 1, 1)}}, []grid.PlayerPos{at(4, 1, 1)}},
	}
	for i, s := range steps {
		if s.st.Players != nil && s.st.Players[0].ID == 3 {
			c.Receive(0, &protocol.Join{Player: protocol.PlayerInfo{ID: 3, Color: 2, Name: "cid"}})
		}
		c.Receive(0, s.st)
		v := c.View(0)
		if got := others(v); !slices.Equal(got, s.want) {
			t.Fatalf("step %d: the client draws %v, want %v", i, got, s.want)
		}
		if i == 2 && v.Others[1].Name != "cid" {
			t.Errorf("a player coming into view is drawn as %q, want cid", v.Others[1].Name)
		}
	}
	if v := c.View(0); v.Server != (grid.Pos{X: 11, Y: 10}) {
		t.Errorf("the server has the player at %v, want (11,10) from the delta", v.Server)
	}
}

// mapHash is a hash of a map's cells.
func mapHash(m *grid.Map) uint64 {
	h := fnv.New64a()
	h.Write(m.Cells())
	return h.Sum64()
}

// TestBigMapArrivesInChunks: a generated 1024x1024 map, too big for the
// Welcome, reaches the client intact in chunks; the game starts with the
// last one, and a chunk out of order ends the connection.
func TestBigMapArrivesInChunks(t *testing.T) {
	m, err := grid.Generate(1024, 1024, 7)
	if err != nil {
		t.Fatal(err)
	}
	w := &protocol.Welcome{Player: 1, UpdateRate: 20, MoveTimeMS: 100, Burst: 4, MapWidth: 1024, MapHeight: 1024,
		Players: []protocol.PlayerInfo{{ID: 1, Color: 1, Name: "ada"}}}
	chunks := protocol.MapChunks(m)
	c := NewCore(0, Options{})
	if err := c.Receive(0, roundTrip(t, w)); err != nil {
		t.Fatal(err)
	}
	for i, ch := range chunks {
		if c.Phase() != Handshaking {
			t.Fatalf("playing after %d of %d chunks", i, len(chunks))
		}
		if err := c.Receive(0, roundTrip(t, ch)); err != nil {
			t.Fatal(err)
		}
	}
	if c.Phase() != Joining {
		t.Fatalf("%v after the last chunk, want the game joined", c.Phase())
	}
	if got := c.View(0).Map; got == nil || mapHash(got) != mapHash(m) {
		t.Fatal("the map the client put together differs from the server's")
	}

	c = NewCore(0, Options{})
	c.Receive(0, roundTrip(t, w))
	if err := c.Receive(0, chunks[1]); err == nil || c.Phase() != Closed {
		t.Errorf("a chunk out of order: %v, phase %v; want the connection ended", err, c.Phase())
	}
}

// roundTrip encodes and decodes m, as the wire does.
func roundTrip(t *testing.T, m protocol.Message) protocol.Message {
	t.Helper()
	b, err := protocol.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := protocol.Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestSpectatorGetsABigMap: a spectator of a 1024x1024 world puts its
// map together from what follows the Spectating: MapBits (protocol
// version 4) or the chunks of a version 3 server.
func TestSpectatorGetsABigMap(t *testing.T) {
	m, err := grid.Generate(1024, 1024, 9)
	if err != nil {
		t.Fatal(err)
	}
	var bits, chunks []protocol.Message
	for _, p := range protocol.MapBitsOf(m) {
		bits = append(bits, p)
	}
	for _, ch := range protocol.MapChunks(m) {
		chunks = append(chunks, ch)
	}
	for form, parts := range map[string][]protocol.Message{"bits": bits, "chunks": chunks} {
		s := NewSpectator(0, Options{Name: "teacher"})
		if err := s.Receive(0, roundTrip(t, &protocol.Spectating{UpdateRate: 20, MoveTimeMS: 100, Burst: 4, MapWidth: 1024, MapHeight: 1024})); err != nil {
			t.Fatal(err)
		}
		for _, p := range parts {
			if err := s.Receive(0, roundTrip(t, p)); err != nil {
				t.Fatalf("%s: %v", form, err)
			}
		}
		if v := s.View(0); !v.Connected || v.Map == nil || mapHash(v.Map) != mapHash(m) {
			t.Fatalf("%s: the spectator's map differs from the server's", form)
		}
	}
}
