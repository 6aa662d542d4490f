package world

import (
	"strings"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
)

// TestImmediateModeSendsNothingToOthersForNoMove: in immediate mode an input
// that moves nothing is acknowledged to its sender only.
func TestImmediateModeSendsNothingToOthersForNoMove(t *testing.T) {
	c := NewCore(Config{Rate: 0, Spawns: []grid.Pos{{X: 5, Y: 1}}})
	join(t, c, 0, 1, "ann", false)
	join(t, c, 0, 2, "bob", false) // at (5,1), under the top wall
	c.Outbox()
	c.Receive(0, 2, &protocol.Input{Seq: 1, Dir: grid.Up}) // into the wall
	out := c.Outbox().Envelopes
	if len(statesTo(out, 1)) != 0 || len(statesTo(out, 2)) != 1 || statesTo(out, 2)[0].Ack != 1 {
		t.Fatalf("a blocked input sent %s, want one State, to its sender, acknowledging #1", describe(out))
	}
	c.Receive(time.Second, 2, &protocol.Input{Seq: 2, Dir: grid.Down})
	out = c.Outbox().Envelopes
	if len(statesTo(out, 1)) != 1 || len(statesTo(out, 2)) != 1 {
		t.Fatalf("a move sent %s, want a State to everyone", describe(out))
	}
}

// TestConfigFitsTheWire: configurations whose frames could not be sent are
// refused up front; a big map or a big world is not one of them.
func TestConfigFitsTheWire(t *testing.T) {
	if err := (Config{MaxPlayers: MaxPlayersCap}).Validate(); err != nil {
		t.Errorf("the largest player count is refused: %v", err)
	}
	if err := (Config{MaxPlayers: MaxPlayersCap + 1}).Validate(); err == nil {
		t.Error("more players than 16-bit IDs number was accepted")
	}
	row := strings.Repeat(".", 300) + "\n"
	big, err := grid.ParseMap(strings.Repeat(row, 300))
	if err != nil {
		t.Fatal(err)
	}
	if err := (Config{Map: big, Spawn: grid.Pos{X: 1, Y: 1}}).Validate(); err != nil {
		t.Errorf("a 300x300 map, whose cells follow the Welcome in chunks, was refused: %v", err)
	}
	// The largest State: a full area and as many gone.
	st := &protocol.State{Players: make([]grid.PlayerPos, MaxAreaPlayers+1), Gone: make([]grid.PlayerID, MaxAreaPlayers)}
	for i := range st.Players {
		st.Players[i] = grid.PlayerPos{ID: grid.PlayerID(i + 1)}
	}
	for i := range st.Gone {
		st.Gone[i] = grid.PlayerID(i + 5000)
	}
	if _, err := protocol.Marshal(st); err != nil {
		t.Errorf("a State with a full area and as many gone does not encode: %v", err)
	}
}
