package server

import (
	"fmt"
	"testing"
	"time"

	"gridlag/protocol"
	"gridlag/server/hub"
	"gridlag/server/world"
	"gridlag/server/world/worldtest"
)

// joinRoom says Hello naming room and returns the Welcome.
func (c *testClient) joinRoom(name, room string) *protocol.Welcome {
	c.t.Helper()
	c.send(&protocol.Hello{Version: protocol.Version, Name: name, Room: room})
	m, err := c.recv()
	if err != nil {
		c.t.Fatalf("join %s in %q: %v", name, room, err)
	}
	w, ok := m.(*protocol.Welcome)
	if !ok {
		c.t.Fatalf("join %s in %q: got %+v, want a Welcome", name, room, m)
	}
	return w
}

// listRooms asks a new connection for the rooms.
func listRooms(t *testing.T, ts *testServer) *protocol.Rooms {
	t.Helper()
	c := dial(t, ts)
	c.send(&protocol.ListRooms{Version: protocol.Version})
	m, err := c.recv()
	if err != nil {
		t.Fatalf("list rooms: %v", err)
	}
	list, ok := m.(*protocol.Rooms)
	if !ok {
		t.Fatalf("list rooms: got %+v, want Rooms", m)
	}
	c.nc.Close()
	return list
}

// TestRoomsOverTCP: the TCP server routes to the hub's rooms and logs
// and counts what happens in them (package hub tests the rooms on the
// virtual clock): a join names its room in the log, the rooms' counters
// are published (Rooms, Stats), a resume comes back to its room, and a
// room closes, saying so, once its away player's window has ended. On the
// test's clock, ann resumes within her window however slowly a busy
// machine runs it; the clock runs once her window only has to end.
func TestRoomsOverTCP(t *testing.T) {
	events := make(chan world.Event, 64)
	ts, clock := startClocked(t, Options{
		Hub:     hub.Options{Config: world.Config{Rate: 0, Resume: 2 * time.Second}, PingInterval: 50 * time.Millisecond},
		OnEvent: func(ev world.Event) { events <- ev },
	})
	dial(t, ts).join("cy") // the default room has a player of its own
	ann := dial(t, ts)
	w := ann.joinRoom("ann", "red")
	dial(t, ts).joinRoom("bob", "blue")
	ts.waitLog(t, "room=red")
	ts.waitLog(t, "room opened")
	eventually(t, func() bool {
		rooms := ts.Rooms()
		return len(rooms) == 3 && rooms[0].Name == "" && rooms[1].Name == "blue" && rooms[2].Name == "red" && rooms[2].Stats.Players == 1
	}, func() string {
		return fmt.Sprintf("rooms %+v, want cy in the default room, bob in blue, ann in red", ts.Rooms())
	})
	if got := worldtest.RoomNames(listRooms(t, ts)); got != "[] [blue] [red]" {
		t.Errorf("rooms listed: %s, want the default room, blue and red", got)
	}
	ann.nc.Close()
	ts.waitLog(t, "away, kept for resume")

	back := dial(t, ts)
	back.send(&protocol.Resume{Version: protocol.Version, Token: w.Token})
	w2 := back.until("the resumed Welcome", func(m protocol.Message) bool { _, ok := m.(*protocol.Welcome); return ok }).(*protocol.Welcome)
	if w2.Player != w.Player {
		t.Fatalf("resumed as %d, want %d", w2.Player, w.Player)
	}
	ts.waitLog(t, "resume")
	for ev := range events {
		if ev.Kind == world.EventResume {
			if ev.Room != "red" {
				t.Errorf("the resume's event says room %q, want red", ev.Room)
			}
			break
		}
	}
	back.nc.Close()
	defer clock.run(10 * ms)()
	ts.waitLog(t, "did not come back within 2s")
	ts.waitLog(t, "room closed")
	if got := worldtest.RoomNames(listRooms(t, ts)); got != "[] [blue]" {
		t.Errorf("rooms after ann's window ended: %s, want the default room and blue", got)
	}
	if st := ts.Stats(); st.Joins != 3 || st.Resumes != 1 || st.Players != 2 {
		t.Errorf("server totals %+v, want 3 joins, ann's resume counted after red closed, 2 players left", st)
	}
}
