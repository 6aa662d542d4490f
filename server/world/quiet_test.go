package world

import (
	"fmt"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
	"gridlag/server/world/worldtest"
)

// TestQuietPlayersInACrowdGetFewerStates: in a room of QuietFloor players
// or more, a player alone in its area is sent a State every QuietEvery
// ticks, one with others in view every tick; a move of a quiet player is
// acknowledged at the next tick all the same, and every client's picture
// stays the world's; a spectator of such a room gets an Overview every
// SpectatorEvery ticks.
func TestQuietPlayersInACrowdGetFewerStates(t *testing.T) {
	c := NewCore(Config{Rate: 20, Map: worldtest.OpenMap(t, 1024, 1024), MaxPlayers: 2 * QuietFloor})
	v := views{}
	for i := 1; i <= QuietFloor; i++ {
		joinSeen(t, c, v, 0, ConnID(i), fmt.Sprint("bot-", i), true)
	}
	// Nearly half stand each alone, far apart; the others in a crowd.
	for i := 1; i <= QuietFloor; i++ {
		k := i - 1
		at := grid.Pos{X: 1000 + k%16, Y: 1000 + k/16} // the crowd
		if k < 6*15 {
			at = grid.Pos{X: 5 + 170*(k%6), Y: 5 + 68*(k/6)}
		}
		c.world.Place(c.cl(ConnID(i)).player, at) // a cell taken: it stays where it is
	}
	now := time.Duration(0)
	tick := func() []Envelope {
		now += 50 * ms
		c.Tick(now)
		out := c.Outbox().Envelopes
		v.apply(out)
		return out
	}
	for range 4 { // the full pictures of joining are out of the way
		tick()
	}
	states := map[ConnID]int{}
	for range 4 * QuietEvery {
		for _, e := range tick() {
			if _, ok := e.Msg.(*protocol.State); ok {
				states[e.To]++
			}
		}
	}
	alone := 0
	for i := 1; i <= QuietFloor; i++ {
		cl := c.cl(ConnID(i))
		want := 4 * QuietEvery
		if c.base.count(cl.area.r) <= 1 {
			alone++
			want = 4
		}
		if states[ConnID(i)] != want {
			t.Errorf("player %d (alone %v) got %d States in %d ticks, want %d", i, want == 4, states[ConnID(i)], 4*QuietEvery, want)
		}
	}
	if alone < QuietFloor/4 {
		t.Fatalf("only %d of %d bots alone in their area: the test needs a spread crowd", alone, QuietFloor)
	}

	// A spectator sees the crowd every SpectatorEvery ticks.
	c.Receive(now, ConnID(QuietFloor+1), &protocol.Spectate{Version: protocol.Version, Name: "watcher"})
	c.Outbox()
	overviews := 0
	for range 4 * SpectatorEvery {
		for _, e := range tick() {
			if _, ok := e.Msg.(*protocol.Overview); ok && e.To == ConnID(QuietFloor+1) {
				overviews++
			}
		}
	}
	if overviews != 4 {
		t.Errorf("a spectator of %d players got %d Overviews in %d ticks, want 4", QuietFloor, overviews, 4*SpectatorEvery)
	}

	// A quiet player moves: its acknowledgement comes at the next tick.
	var quiet ConnID
	for i := 1; i <= QuietFloor && quiet == 0; i++ {
		if c.base.count(c.cl(ConnID(i)).area.r) <= 1 {
			quiet = ConnID(i)
		}
	}
	for _, d := range []grid.Dir{grid.Left, grid.Right, grid.Up, grid.Down} {
		c.Receive(now+ms, quiet, &protocol.Input{Seq: 1, Dir: d})
		if c.cl(quiet).lastSeq == 1 {
			break
		}
	}
	got := statesTo(tick(), quiet)
	if len(got) != 1 || got[0].Ack != 1 {
		t.Fatalf("a quiet player's input: %d States at the next tick, want one acknowledging it", len(got))
	}
	for i := 1; i <= QuietFloor; i++ {
		at, _ := c.world.Pos(c.cl(ConnID(i)).player)
		if seen, ok := (*v[ConnID(i)])[c.cl(ConnID(i)).player]; !ok || seen != at {
			t.Fatalf("player %d sees itself at %v, the world has it at %v", i, seen, at)
		}
	}
}
