package hub

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
	"gridlag/server/world"
	"gridlag/server/world/worldtest"
)

func TestRoomsDoNotSeeEachOther(t *testing.T) {
	r := newRig(t, Options{Config: world.Config{Rate: 50}})
	ann, bob, cy := r.dial(host(1)), r.dial(host(2)), r.dial(host(3))
	wa := ann.join("ann", "red")
	wb := bob.join("bob", "red")
	wc := cy.join("cy", "blue")
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
		switch v := cy.next("cy's messages").(type) {
		case *protocol.Join:
			t.Fatalf("cy in blue was told of %+v from red", v.Player)
		case *protocol.State:
			if len(v.Players) != 1 {
				t.Fatalf("cy in blue sees %+v", v.Players)
			}
		}
	}
	if got := worldtest.RoomNames(r.listRooms()); got != "[] [blue] [red]" {
		t.Errorf("rooms listed: %s, want the default room, blue and red", got)
	}
	if ev, ok := r.event(world.EventJoin); !ok || ev.Room != "red" || ev.Name != "ann" {
		t.Errorf("ann's join was noted as %+v, want it in red", ev)
	}
}

func TestRoomClosesWhenLastPlayerLeaves(t *testing.T) {
	r := newRig(t, Options{Config: world.Config{Rate: 50}})
	ann := r.dial(host(1))
	ann.join("ann", "red")
	list := r.listRooms()
	if len(list.Rooms) != 2 || list.Rooms[1].Name != "red" || list.Rooms[1].Players != 1 || list.Rooms[1].MaxPlayers != DefaultRoomPlayers || list.Rooms[1].Round != 1 {
		t.Fatalf("rooms %+v, want red with ann, capped at %d, in round 1", list.Rooms, DefaultRoomPlayers)
	}
	ann.send(&protocol.Bye{Reason: "done"})
	if _, ok := ann.until("the goodbye", func(m protocol.Message) bool { _, ok := m.(*protocol.Bye); return ok }).(*protocol.Bye); !ok || !ann.closed {
		t.Fatal("ann's Bye was not answered with a goodbye that closes")
	}
	if closed := r.noted(NoteRoomClosed); len(closed) != 1 || closed[0].Room != "red" || closed[0].Rooms != 1 || closed[0].Host != host(1) {
		t.Fatalf("rooms closed: %+v, want red, opened by ann's address, one room left", closed)
	}
	if got := worldtest.RoomNames(r.listRooms()); got != "[]" {
		t.Errorf("rooms after the last player left: %s, want the default room alone", got)
	}
	// The default room stays open with nobody in it.
	if st := r.h.Stats(); st.Joins != 1 || st.Leaves != 1 || st.Players != 0 {
		t.Errorf("stats after the room closed: %+v, want its join and leave counted", st)
	}
}

func TestRoomCaps(t *testing.T) {
	r := newRig(t, Options{Config: world.Config{Rate: 50}, MaxRooms: 2, RoomPlayers: 1})
	r.dial(host(1)).join("ann", "red")
	refused := func(i int, name, room string, code uint8, text string) {
		t.Helper()
		c := r.dial(host(i))
		c.send(&protocol.Hello{Version: protocol.Version, Name: name, Room: room})
		if e := c.refusal(name); e.Code != code || !bytes.Contains([]byte(e.Text), []byte(text)) {
			t.Errorf("%s joining %q: got %+v, want Error %d saying %q", name, room, e, code, text)
		}
	}
	refused(2, "bob", "red", protocol.ErrCodeRoomFull, "room full: 1 of 1 players")
	refused(3, "bob", "blue", protocol.ErrCodeFull, "2 rooms open")
	refused(4, "bob", " red", protocol.ErrCodeName, "room name refused")
	// The default room is open already and keeps MaxPlayers.
	r.dial(host(5)).join("bob", "")
	r.dial(host(6)).join("cy", "")
}

func TestSpectatorWatchesOneRoom(t *testing.T) {
	r := newRig(t, Options{Config: world.Config{Rate: 50}})
	r.dial(host(1)).join("ann", "red")
	r.dial(host(2)).join("bob", "blue")
	r.dial(host(3)).join("cy", "blue")
	sp := r.dial(host(4))
	sp.send(&protocol.Spectate{Version: protocol.Version, Name: "teacher", Room: "blue"})
	ov := sp.until("an overview", func(m protocol.Message) bool {
		_, ok := m.(*protocol.Overview)
		return ok
	}).(*protocol.Overview)
	if ov.Total != 2 {
		t.Errorf("the spectator of blue sees %d players, want bob and cy", ov.Total)
	}
}

func TestRoomsCounters(t *testing.T) {
	r := newRig(t, Options{Config: world.Config{Rate: 50}})
	r.dial(host(1)).join("ann", "red")
	r.dial(host(2)).join("bob", "red")
	r.dial(host(3)).join("cy", "")
	rooms := r.h.Rooms()
	if len(rooms) != 2 || rooms[0].Name != "" || rooms[0].Stats.Players != 1 || rooms[1].Name != "red" || rooms[1].Stats.Players != 2 {
		t.Errorf("rooms %+v, want cy in the default room, ann and bob in red", rooms)
	}
	if st := r.h.Stats(); st.Players != 3 || st.Joins != 3 {
		t.Errorf("hub totals %d players, %d joins; want 3 of each", st.Players, st.Joins)
	}
}

// A resume token belongs to its room: a Resume comes back to the room
// that issued it, a room whose only player is away (kept for resume) stays
// open, and it closes once the window ends. Events say their room.
func TestRoomKeepsAwayPlayerAndResumesIntoIt(t *testing.T) {
	r := newRig(t, Options{Config: world.Config{Rate: 0, Resume: 2 * time.Second}, PingInterval: 50 * ms})
	r.dial(host(1)).join("cy", "") // the default room has a player of its own
	ann := r.dial(host(2))
	w := ann.join("ann", "red")
	ann.gone("connection closed by the client")
	if ev, ok := r.event(world.EventAway); !ok || ev.Room != "red" || ev.Name != "ann" {
		t.Fatalf("ann's drop noted as %+v, want her away, kept for resume, in red", ev)
	}
	if got := worldtest.RoomNames(r.listRooms()); got != "[] [red]" {
		t.Fatalf("rooms with ann away: %s, want red still open", got)
	}

	back := r.dial(host(2))
	back.send(&protocol.Resume{Version: protocol.Version, Token: w.Token})
	w2 := back.until("the resumed Welcome", func(m protocol.Message) bool { _, ok := m.(*protocol.Welcome); return ok }).(*protocol.Welcome)
	if w2.Player != w.Player {
		t.Fatalf("resumed as %d, want %d", w2.Player, w.Player)
	}
	for _, rs := range r.h.Rooms() {
		if want := rs.Name == "red"; (rs.Stats.Resumes == 1) != want || rs.Stats.Players != 1 {
			t.Errorf("room %q: %+v, want one player each and the resume in red", rs.Name, rs.Stats)
		}
	}
	if ev, ok := r.event(world.EventResume); !ok || ev.Room != "red" {
		t.Errorf("the resume's event says room %q, want red", ev.Room)
	}

	back.gone("connection closed by the client")
	r.advance(2 * time.Second)
	var left world.Event
	for _, n := range r.noted(NoteEvent) {
		if n.Event.Kind == world.EventLeave && n.Event.Name == "ann" {
			left = n.Event
		}
	}
	if left.Reason != "did not come back within 2s after connection closed by the client" || left.Room != "red" {
		t.Fatalf("ann's leave %+v, want her window of 2s over in red", left)
	}
	if closed := r.noted(NoteRoomClosed); len(closed) != 1 || closed[0].Room != "red" {
		t.Fatalf("rooms closed %+v, want red once ann's window ended", closed)
	}
	if got := worldtest.RoomNames(r.listRooms()); got != "[]" {
		t.Errorf("rooms after ann's window ended: %s, want the default room alone", got)
	}
	// An unknown token is refused as before rooms.
	d := r.dial(host(2))
	d.send(&protocol.Resume{Version: protocol.Version, Token: w2.Token})
	if e := d.refusal("a stale resume"); e.Code != protocol.ErrCodeResume {
		t.Errorf("a resume after the window ended with %+v, want Error %d", e, protocol.ErrCodeResume)
	}
}

// A named room on a big map works as the default room: its Welcome carries
// the size, the map follows as MapBits before the first State, and each
// room's Core does its own areas (a player of another room is never
// introduced, however near its cell).
func TestRoomOnABigMap(t *testing.T) {
	m, spawn := worldtest.BigMap(t, 300)
	r := newRig(t, Options{Config: world.Config{Map: m, Spawn: spawn, Rate: 50}})
	cy := r.dial(host(1))
	cy.join("cy", "") // the default room, at the same spawn
	ann := r.dial(host(2))
	w := ann.join("ann", "red")
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
	bob := r.dial(host(3))
	wb := bob.join("bob", "red")
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

// TestRoomsShareTheMap: every room of a hub plays on one MapShare: a named
// room copies no map, and two rooms' spectators are sent the very same
// map messages, in either form.
func TestRoomsShareTheMap(t *testing.T) {
	m, spawn := worldtest.BigMap(t, 1024)
	h := New(0, Options{Config: world.Config{Map: m, Spawn: spawn, Rate: 20}})
	pieces := h.Share().Pieces()
	if len(pieces) == 0 {
		t.Fatal("a 1024x1024 map's share has no pieces")
	}
	for i, v := range []uint16{protocol.Version, protocol.MinVersion} {
		sent := func(room string, id world.ConnID) []protocol.Message {
			h.Connect(0, id, Origin{Own: true})
			h.Receive(0, id, &protocol.Spectate{Version: v, Name: fmt.Sprint("watcher", id), Room: room})
			var ms []protocol.Message
			for _, e := range h.Outbox().Envelopes {
				switch e.Msg.(type) {
				case *protocol.MapBits, *protocol.MapChunk:
					ms = append(ms, e.Msg)
				}
			}
			return ms
		}
		a, b := sent("red", world.ConnID(2*i+1)), sent("blue", world.ConnID(2*i+2))
		if len(a) == 0 || len(b) != len(a) {
			t.Fatalf("version %d: %d and %d pieces of the map sent", v, len(a), len(b))
		}
		for k := range a {
			if a[k] != b[k] {
				t.Fatalf("version %d: piece %d of blue's map is not red's", v, k)
			}
		}
	}
	for _, name := range []string{"", "red", "blue"} {
		if c, ok := h.Room(name); !ok || c.Config().Map != m {
			t.Errorf("room %q plays on a map of its own", name)
		}
	}
}
