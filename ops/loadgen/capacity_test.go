package loadgen

import (
	"context"
	"strings"
	"testing"
	"time"

	"gridlag/server"
	"gridlag/server/hub"
	"gridlag/server/world"
)

// TestCapacityFindsEveryoneWithinTheTarget: a server that takes every
// step keeps them within the target, and the search says so, each step
// read as the median of its windows.
func TestCapacityFindsEveryoneWithinTheTarget(t *testing.T) {
	t.Parallel()
	_, addr := startServer(t, server.Options{Hub: hub.Options{Config: world.Config{Rate: 50, MoveTime: 20 * time.Millisecond}}})
	var said strings.Builder
	c, err := FindCapacity(context.Background(), CapacityOptions{Options: Options{Addr: addr, N: 4, Seed: 1},
		Step: 2, Settle: 2 * time.Second, Target: time.Minute}, &said)
	if err != nil {
		t.Fatal(err)
	}
	if c.Players != 4 || len(c.Steps) != 2 || c.P99 <= 0 || c.Stopped != "all 4 players were in within the target" {
		t.Errorf("found %+v, want all 4 in, 2 steps measured", c)
	}
	if !strings.Contains(said.String(), "     2 players: round trip p99 ") || !strings.Contains(said.String(), "(the median of 1 windows of 1s)") {
		t.Errorf("the search said:\n%s\nwant each step's p99 and its windows", said.String())
	}
}

// TestCapacityStopsWhenASettledServerQueues: once the players in have
// settled, a newcomer who must wait in the server's line, three times in
// turn, ends the search (here the ticks always cost their budget past the
// floor of 3, and the line lets nobody in: each is refused after its
// second in line): the capacity is the players before it, not a step's
// join transient.
func TestCapacityStopsWhenASettledServerQueues(t *testing.T) {
	t.Parallel()
	_, addr := startServer(t, server.Options{Hub: hub.Options{Config: world.Config{Rate: 20},
		TickBudget: time.Microsecond, LoadFloor: 3, LineWait: time.Second}})
	c, err := FindCapacity(context.Background(), CapacityOptions{Options: Options{Addr: addr, N: 9, Seed: 1},
		Step: 3, Settle: time.Second, Target: time.Minute}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := "with 3 players settled, a newcomer was not let in at once 3 times in turn, 1s apart (it waited in line, or was refused a place in it): the server takes no more at once"; c.Players != 3 || c.Stopped != want {
		t.Errorf("found %d players, stopped %q; want 3, stopped %q", c.Players, c.Stopped, want)
	}
}

// TestCapacitySaysAFullRoomIsNotTheLoad: a search that meets the room's
// cap says so, and that the server's capacity is at least the players in.
func TestCapacitySaysAFullRoomIsNotTheLoad(t *testing.T) {
	t.Parallel()
	_, addr := startServer(t, server.Options{Hub: hub.Options{Config: world.Config{Rate: 50, MaxPlayers: 2}}})
	c, err := FindCapacity(context.Background(), CapacityOptions{Options: Options{Addr: addr, N: 4, Seed: 1},
		Step: 2, Settle: 2 * time.Second, Target: time.Minute}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "2 of the 2 players of the step to 4 were refused: the room is full (2 of 2 players, the most it takes), " +
		"not the server at its load: its capacity is 2 players or more"
	if c.Players != 2 || c.Stopped != want {
		t.Errorf("found %d players, stopped %q; want 2, stopped %q", c.Players, c.Stopped, want)
	}
}
