package server

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
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

// roomNames are the names of the rooms a list carries, in order.
func roomNames(list *protocol.Rooms) string {
	var names []string
	for _, r := range list.Rooms {
		names = append(names, "["+r.Name+"]")
	}
	return strings.Join(names, " ")
}

func TestRoomsDoNotSeeEachOther(t *testing.T) {
	ts := startServer(t, Options{Config: Config{Rate: 50}})
	ann := dial(t, ts)
	bob := dial(t, ts)
	cy := dial(t, ts)
	wa := ann.joinRoom("ann", "red")
	wb := bob.joinRoom("bob", "red")
	wc := cy.joinRoom("cy", "blue")
	if wb.Player == wa.Player || wc.Player != wa.Player {
		t.Fatalf("IDs ann %d, bob %d, cy %d: want bob after ann in red, cy first in blue", wa.Player, wb.Player, wc.Player)
	}
	// Each world is its own: cy spawns where ann did, on an empty map.
	st := cy.state("cy's first state", func(*protocol.State) bool { return true })
	if p, _ := stateCell(st, wc.Player); len(st.Players) != 1 || p != grid.DefaultSpawn {
		t.Fatalf("cy's state %+v, want cy alone at %v", st, grid.DefaultSpawn)
	}
	ann.send(&protocol.Input{Seq: 1, Dir: grid.Right})
	ann.state("ann's ack", func(st *protocol.State) bool { return st.Ack == 1 })
	bob.state("bob sees ann move", func(st *protocol.State) bool {
		p, _ := stateCell(st, wa.Player)
		return p == grid.Pos{X: 11, Y: 10}
	})
	for range 5 {
		m, err := cy.recv()
		if err != nil {
			t.Fatal(err)
		}
		switch v := m.(type) {
		case *protocol.Join:
			t.Fatalf("cy in blue was told of %+v from red", v.Player)
		case *protocol.State:
			if len(v.Players) != 1 {
				t.Fatalf("cy in blue sees %+v", v.Players)
			}
		}
	}
	if got := roomNames(listRooms(t, ts)); got != "[] [blue] [red]" {
		t.Errorf("rooms listed: %s, want the default room, blue and red", got)
	}
	ts.waitLog(t, "room=red")
}

func TestRoomClosesWhenLastPlayerLeaves(t *testing.T) {
	ts := startServer(t, Options{Config: Config{Rate: 50}})
	ann := dial(t, ts)
	ann.joinRoom("ann", "red")
	list := listRooms(t, ts)
	if len(list.Rooms) != 2 || list.Rooms[1].Name != "red" || list.Rooms[1].Players != 1 || list.Rooms[1].MaxPlayers != DefaultRoomPlayers || list.Rooms[1].Round != 1 {
		t.Fatalf("rooms %+v, want red with ann, capped at %d, in round 1", list.Rooms, DefaultRoomPlayers)
	}
	ann.send(&protocol.Bye{Reason: "done"})
	ann.closed()
	ts.waitLog(t, "room closed")
	if got := roomNames(listRooms(t, ts)); got != "[]" {
		t.Errorf("rooms after the last player left: %s, want the default room alone", got)
	}
	// The default room stays open with nobody in it.
	if st := ts.Stats(); st.Joins != 1 || st.Leaves != 1 || st.Players != 0 {
		t.Errorf("stats after the room closed: %+v, want its join and leave counted", st)
	}
}

func TestRoomCaps(t *testing.T) {
	ts := startServer(t, Options{Config: Config{Rate: 50}, MaxRooms: 2, RoomPlayers: 1})
	dial(t, ts).joinRoom("ann", "red")
	refused := func(name, room string, code uint8, text string) {
		t.Helper()
		c := dial(t, ts)
		c.send(&protocol.Hello{Version: protocol.Version, Name: name, Room: room})
		e, ok := c.closed().(*protocol.Error)
		if !ok || e.Code != code || !strings.Contains(e.Text, text) {
			t.Errorf("%s joining %q: got %+v, want Error %d saying %q", name, room, e, code, text)
		}
	}
	refused("bob", "red", protocol.ErrCodeFull, "1 of 1")
	refused("bob", "blue", protocol.ErrCodeFull, "2 rooms open")
	refused("bob", " red", protocol.ErrCodeName, "room name refused")
	// The default room is open already and keeps MaxPlayers.
	dial(t, ts).join("bob")
	dial(t, ts).join("cy")
}

func TestSpectatorWatchesOneRoom(t *testing.T) {
	ts := startServer(t, Options{Config: Config{Rate: 50}})
	dial(t, ts).joinRoom("ann", "red")
	dial(t, ts).joinRoom("bob", "blue")
	dial(t, ts).joinRoom("cy", "blue")
	sp := dial(t, ts)
	sp.send(&protocol.Spectate{Version: protocol.Version, Name: "teacher", Room: "blue"})
	ov := sp.until("an overview", func(m protocol.Message) bool {
		_, ok := m.(*protocol.Overview)
		return ok
	}).(*protocol.Overview)
	if ov.Total != 2 {
		t.Errorf("the spectator of blue sees %d players, want bob and cy", ov.Total)
	}
}

// The server's totals count every counter of every room: a field added to
// Stats and forgotten in add would read 0 on a server with rooms.
func TestStatsAddCoversEveryField(t *testing.T) {
	var one, sum Stats
	v := reflect.ValueOf(&one).Elem()
	for i := range v.NumField() {
		if f := v.Field(i); f.CanInt() {
			f.SetInt(1)
		} else {
			f.SetUint(1)
		}
	}
	sum.add(one)
	sum.add(one)
	w := reflect.ValueOf(sum)
	for i := range w.NumField() {
		if f := w.Field(i); f.CanInt() && f.Int() != 2 || f.CanUint() && f.Uint() != 2 {
			t.Errorf("Stats.add leaves out %s", w.Type().Field(i).Name)
		}
	}
}

func TestRoomsCounters(t *testing.T) {
	ts := startServer(t, Options{Config: Config{Rate: 50}})
	dial(t, ts).joinRoom("ann", "red")
	dial(t, ts).joinRoom("bob", "red")
	dial(t, ts).join("cy")
	eventually(t, func() bool {
		rooms := ts.Rooms()
		return len(rooms) == 2 && rooms[0].Name == "" && rooms[0].Stats.Players == 1 && rooms[1].Name == "red" && rooms[1].Stats.Players == 2
	}, func() string {
		return fmt.Sprintf("rooms %+v, want cy in the default room, ann and bob in red", ts.Rooms())
	})
	if st := ts.Stats(); st.Players != 3 || st.Joins != 3 {
		t.Errorf("server totals %d players, %d joins; want 3 of each", st.Players, st.Joins)
	}
}

// A resume token belongs to its room: a Resume comes back to the room
// that issued it, a room whose only player is away (kept for resume) stays
// open, and it closes once the window ends. Events say their room.
func TestRoomKeepsAwayPlayerAndResumesIntoIt(t *testing.T) {
	events := make(chan Event, 64)
	ts := startServer(t, Options{
		Config:       Config{Rate: 0, Resume: 2 * time.Second},
		PingInterval: 50 * time.Millisecond,
		OnEvent:      func(ev Event) { events <- ev },
	})
	dial(t, ts).join("cy") // the default room has a player of its own
	ann := dial(t, ts)
	w := ann.joinRoom("ann", "red")
	ann.nc.Close()
	ts.waitLog(t, "away, kept for resume")
	if got := roomNames(listRooms(t, ts)); got != "[] [red]" {
		t.Fatalf("rooms with ann away: %s, want red still open", got)
	}

	back := dial(t, ts)
	back.send(&protocol.Resume{Version: protocol.Version, Token: w.Token})
	w2 := back.until("the resumed Welcome", func(m protocol.Message) bool { _, ok := m.(*protocol.Welcome); return ok }).(*protocol.Welcome)
	if w2.Player != w.Player {
		t.Fatalf("resumed as %d, want %d", w2.Player, w.Player)
	}
	ts.waitLog(t, "resume")
	for _, r := range ts.Rooms() {
		if want := r.Name == "red"; (r.Stats.Resumes == 1) != want || r.Stats.Players != 1 {
			t.Errorf("room %q: %+v, want one player each and the resume in red", r.Name, r.Stats)
		}
	}
	for ev := range events {
		if ev.Kind == EventResume {
			if ev.Room != "red" {
				t.Errorf("the resume's event says room %q, want red", ev.Room)
			}
			break
		}
	}

	back.nc.Close()
	ts.waitLog(t, "did not come back within 2s")
	ts.waitLog(t, "room closed")
	if got := roomNames(listRooms(t, ts)); got != "[]" {
		t.Errorf("rooms after ann's window ended: %s, want the default room alone", got)
	}
	// An unknown token is refused as before rooms.
	d := dial(t, ts)
	d.send(&protocol.Resume{Version: protocol.Version, Token: w2.Token})
	if e, ok := d.closed().(*protocol.Error); !ok || e.Code != protocol.ErrCodeResume {
		t.Errorf("a resume after the window ended with %+v, want Error %d", e, protocol.ErrCodeResume)
	}
}

// A named room on a big map works as the default room: its Welcome carries
// the size, the map follows as MapBits before the first State, and each
// room's Core does its own areas (a player of another room is never
// introduced, however near its cell).
func TestRoomOnABigMap(t *testing.T) {
	m, spawn := bigMap(t, 300)
	ts := startServer(t, Options{Config: Config{Map: m, Spawn: spawn, Rate: 50}})
	cy := dial(t, ts)
	cy.join("cy") // the default room, at the same spawn
	ann := dial(t, ts)
	w := ann.joinRoom("ann", "red")
	if !w.MapFollows() || len(w.Cells) != 0 {
		t.Fatalf("red's Welcome of a 300x300 map: %dx%d with %d cells, want the size alone", w.MapWidth, w.MapHeight, len(w.Cells))
	}
	var cells []byte
	bits := protocol.NewMapBitsBuffer(w.MapWidth, w.MapHeight)
	ann.until("red's first State", func(msg protocol.Message) bool {
		switch v := msg.(type) {
		case *protocol.MapBits:
			if m, err := bits.Add(v); err != nil {
				t.Fatal(err)
			} else if m != nil {
				cells = m.Cells()
			}
		case *protocol.Join:
			t.Errorf("ann of red was introduced to %q", v.Player.Name)
		}
		_, st := msg.(*protocol.State)
		return st
	})
	if !bytes.Equal(cells, m.Cells()) {
		t.Fatalf("red's map bits gave %d cells, not the map", len(cells))
	}
	bob := dial(t, ts)
	wb := bob.joinRoom("bob", "red")
	j := ann.until("bob's Join", func(msg protocol.Message) bool {
		if v, ok := msg.(*protocol.Join); ok && v.Player.Name == "cy" {
			t.Errorf("ann of red was introduced to cy of the default room")
		}
		_, ok := msg.(*protocol.Join)
		return ok
	}).(*protocol.Join)
	if j.Player.Name != "bob" || j.Player.ID != wb.Player {
		t.Errorf("ann was introduced to %+v, want bob (%d)", j, wb.Player)
	}
}
