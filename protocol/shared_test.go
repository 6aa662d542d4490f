package protocol_test

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"gridlag/grid"
	"gridlag/protocol"
)

// TestSharedRunsEncodeAsTheirPlayers: a State carrying runs of a shared
// list is, on the wire, the State carrying those players after its own,
// and decodes to it; the list is encoded once for every State.
func TestSharedRunsEncodeAsTheirPlayers(t *testing.T) {
	pp := func(id, x, y int) grid.PlayerPos {
		return grid.PlayerPos{ID: grid.PlayerID(id), Pos: grid.Pos{X: x, Y: y}}
	}
	var shared protocol.SharedPlayers
	shared.Set([]grid.PlayerPos{pp(3, 1, 1), pp(4, 2, 1), pp(9, 40, 7), pp(12, 41, 8)})
	withRuns := &protocol.State{Tick: 7, TimeNS: 350e6, Ack: 2, Players: []grid.PlayerPos{pp(1, 5, 5)},
		Shared: &shared, Runs: []protocol.Run{{Lo: 2, Hi: 4}, {Lo: 0, Hi: 1}}, Gone: []grid.PlayerID{6}}
	flat := &protocol.State{Tick: 7, TimeNS: 350e6, Ack: 2,
		Players: []grid.PlayerPos{pp(1, 5, 5), pp(9, 40, 7), pp(12, 41, 8), pp(3, 1, 1)}, Gone: []grid.PlayerID{6}}
	if withRuns.Count() != 4 || !reflect.DeepEqual(withRuns.AllPlayers(nil), flat.Players) {
		t.Fatalf("Count %d, AllPlayers %v; want the 4 players of %v", withRuns.Count(), withRuns.AllPlayers(nil), flat.Players)
	}
	a, err := protocol.Marshal(withRuns)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := protocol.Marshal(flat)
	if !bytes.Equal(a, b) {
		t.Fatalf("with runs % x\nflat      % x", a, b)
	}
	m, _, err := protocol.Unmarshal(a)
	if err != nil || !reflect.DeepEqual(m, flat) {
		t.Fatalf("decoded %+v, %v; want %+v", m, err, flat)
	}
	// Encoded once: a second State carrying the list does not look at it
	// again until it is Set anew.
	shared.List()[2].Pos.X = 99
	if c, _ := protocol.Marshal(withRuns); !bytes.Equal(c, a) {
		t.Error("the shared list was encoded again")
	}
	// Runs alone, no Players of its own: not empty.
	only := &protocol.State{Tick: 8, Shared: &shared, Runs: []protocol.Run{{Lo: 0, Hi: 1}}}
	if only.Empty() {
		t.Error("a State with a run is Empty")
	}
	shared.Set([]grid.PlayerPos{pp(0, 1, 1)})
	if _, err := protocol.Marshal(only); !errors.Is(err, protocol.ErrBadValue) {
		t.Errorf("a shared player 0: %v, want ErrBadValue", err)
	}
}
