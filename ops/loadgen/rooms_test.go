package loadgen

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"sync"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/server"
	"gridlag/server/admit/admittest"
	"gridlag/server/hub"
	"gridlag/server/world"
)

// TestRunOverRooms: with Rooms the players are spread over that many rooms,
// each opened by its first player and closed after its last, and every
// input is acknowledged in every room.
func TestRunOverRooms(t *testing.T) {
	t.Parallel()
	const n, rooms = 6, 3
	var (
		mu     sync.Mutex
		joined = map[string]int{} // joins by room, from the server's events
	)
	srv, addr := startServer(t, server.Options{
		Hub: hub.Options{Config: world.Config{Rate: 50, MoveTime: 20 * time.Millisecond}},
		OnEvent: func(ev world.Event) {
			if ev.Kind == world.EventJoin {
				mu.Lock()
				joined[ev.Room]++
				mu.Unlock()
			}
		},
	})
	s, err := Run(context.Background(), Options{Addr: addr, N: n, Rooms: rooms, Duration: time.Second, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if s.Players != n || len(s.Refused) != 0 || len(s.Dropped) != 0 {
		t.Fatalf("%d players welcomed, refused %v, dropped %v; want %d, none refused or dropped", s.Players, s.Refused, s.Dropped, n)
	}
	if s.InputsSent < n*10 || s.InputsAcked != s.InputsSent {
		t.Errorf("inputs sent %d, acknowledged %d: want every one of at least %d acknowledged", s.InputsSent, s.InputsAcked, n*10)
	}
	if st := srv.Stats(); st.InputsProcessed != s.InputsSent {
		t.Errorf("the server processed %d inputs over its rooms; the players sent %d", st.InputsProcessed, s.InputsSent)
	}
	mu.Lock()
	for _, room := range []string{"room-1", "room-2", "room-3"} {
		if got := joined[room]; got != n/rooms {
			t.Errorf("%d players joined %s, want %d", got, room, n/rooms)
		}
	}
	mu.Unlock()
	admittest.Eventually(t, func() bool { return len(srv.Rooms()) <= 1 },
		func() string {
			return fmt.Sprintf("the rooms did not all close once the players left: %+v", srv.Rooms())
		})
}

// TestRunSpreadsOverRoomsWhenTheRoomIsFull: when the default room has no
// place for all N (its map's floor holds 12 here), the run fills it, then
// opens rooms of its own, each filled to what a named room holds (5),
// says what it did, and every player is welcomed; where the server opens
// too few rooms, it says so plainly and the players with no room are
// refused with the server's reason.
func TestRunSpreadsOverRoomsWhenTheRoomIsFull(t *testing.T) {
	t.Parallel()
	m, err := grid.ParseMap("######\n#....#\n#....#\n#....#\n######\n")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		maxRooms int
		welcomed int
		says     []string
	}{
		{"rooms enough", 0, 25, []string{
			"the default room holds 12 players and has places for 12: the other 13 of the 25 go to rooms of their own, room-1 first\n",
			"spreading 25 players over 4 rooms: 12 in the default room, 13 in room-1 to room-3, 5 a room (the most a room of the server's holds)\n"}},
		{"too few rooms", 2, 17, []string{
			"the server opens at most 2 rooms and 2 are open: 2 more are needed, and the last 8 players will find no room\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var (
				mu     sync.Mutex
				joined = map[string]int{}
			)
			_, addr := startServer(t, server.Options{
				Hub: hub.Options{Config: world.Config{Rate: 50, MoveTime: 20 * time.Millisecond, Map: m}, RoomPlayers: 5, MaxRooms: tc.maxRooms},
				OnEvent: func(ev world.Event) {
					if ev.Kind == world.EventJoin {
						mu.Lock()
						joined[ev.Room]++
						mu.Unlock()
					}
				},
			})
			var said strings.Builder
			s, err := Run(context.Background(), Options{Addr: addr, N: 25, Duration: 300 * time.Millisecond, Seed: 1, Say: &said})
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range tc.says {
				if !strings.Contains(said.String(), want) {
					t.Errorf("the run said:\n%s\nwant it to say:\n%s", said.String(), want)
				}
			}
			if s.Players != tc.welcomed || total(s.Refused) != 25-tc.welcomed || s.InputsAcked != s.InputsSent {
				t.Errorf("%d welcomed, refused %v, inputs %d sent %d acknowledged; want %d welcomed, every input acknowledged",
					s.Players, s.Refused, s.InputsSent, s.InputsAcked, tc.welcomed)
			}
			mu.Lock()
			defer mu.Unlock()
			want := map[string]int{"": 12, "room-1": 5, "room-2": 5, "room-3": 3}
			if tc.maxRooms == 2 {
				want = map[string]int{"": 12, "room-1": 5}
			}
			if !maps.Equal(joined, want) {
				t.Errorf("joins by room %v, want %v", joined, want)
			}
		})
	}
}
