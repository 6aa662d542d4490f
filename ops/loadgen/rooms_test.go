package loadgen

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

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
