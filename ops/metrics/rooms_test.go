package metrics

import (
	"context"
	"net/http/httptest"
	"testing"

	"gridlag/ops/loadgen"
)

// TestScrapeRooms: each open room has its players gauge, labelled with
// its name; a room's series go when it closes.
func TestScrapeRooms(t *testing.T) {
	exp, addr := startWatched(t)
	web := httptest.NewServer(exp.Handler())
	defer web.Close()

	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, err := loadgen.Run(ctx, loadgen.Options{Addr: addr, N: 3, Rooms: 2}); err != nil {
			t.Error(err)
		}
	}()
	scrapeUntil(t, web.URL, "2 players in room-1, 1 in room-2, none in the default room", func(s string) bool {
		return value(s, `gridlag_room_players{room="room-1"}`) == 2 && value(s, `gridlag_room_players{room="room-2"}`) == 1 &&
			value(s, `gridlag_room_players{room=""}`) == 0 && value(s, "gridlag_players") == 3
	})
	stop()
	<-done
	scrapeUntil(t, web.URL, "the rooms closed, the default room left", func(s string) bool {
		return value(s, `gridlag_room_players{room="room-1"}`) < 0 && value(s, `gridlag_room_players{room=""}`) == 0
	})
}
