package server

import (
	"slices"
	"strings"
	"testing"

	"gridlag/protocol"
)

// TestRoomListFitsAFrame (row 4): with more rooms than one frame carries
// (1,000 with names of 16 four-byte characters), the list still fits:
// the default room and the busiest are listed, Total says how many are
// open, and the list is encoded once until the rooms change. A version 3
// lobby, which knows no Total, gets the same rooms without it.
func TestRoomListFitsAFrame(t *testing.T) {
	s := New(Options{Config: Config{Rate: 20}, MaxRooms: 1024})
	s.openRoom("")
	var busy string
	for i := range 1000 {
		// 16 characters of 4 bytes: 𝔄 and i in three bold letters.
		name := strings.Repeat("\U0001d504", 13) + string([]rune{0x1d41a + rune(i/676), 0x1d41a + rune(i/26%26), 0x1d41a + rune(i%26)})
		r := s.openRoom(name)
		if i == 999 { // last by name: listed only for its player
			busy = name
			r.core.Receive(0, 1, &protocol.Hello{Version: protocol.Version, Name: "ann", Room: name})
		}
	}
	f, err := s.roomListFrame(protocol.Version)
	if err != nil {
		t.Fatalf("the room list of 1,001 rooms: %v", err)
	}
	m, _, err := protocol.Unmarshal(f.head)
	if err != nil {
		t.Fatal(err)
	}
	list := m.(*protocol.Rooms)
	if list.Total != 1001 || len(list.Rooms) >= 1001 || list.Rooms[0].Name != "" {
		t.Fatalf("%d rooms listed of %d, first %q: want a cut list with its total, the default room first", len(list.Rooms), list.Total, list.Rooms[0].Name)
	}
	found := false
	for i, r := range list.Rooms {
		found = found || r.Name == busy && r.Players == 1
		if i > 0 && r.Name <= list.Rooms[i-1].Name {
			t.Fatalf("rooms not sorted by name: %q after %q", r.Name, list.Rooms[i-1].Name)
		}
	}
	if !found {
		t.Error("the one room with a player was cut from the list")
	}
	f3, err := s.roomListFrame(protocol.MinVersion)
	if err != nil {
		t.Fatal(err)
	}
	m3, _, err := protocol.Unmarshal(f3.head)
	if err != nil {
		t.Fatal(err)
	}
	if l3 := m3.(*protocol.Rooms); l3.Total != 0 || len(f3.head) != len(f.head)-2 || !slices.Equal(l3.Rooms, list.Rooms) {
		t.Errorf("version 3's list: %d rooms, Total %d, %d bytes; want the same %d rooms without a Total, 2 bytes less than %d",
			len(l3.Rooms), l3.Total, len(f3.head), len(list.Rooms), len(f.head))
	}
	again, _ := s.roomListFrame(protocol.Version)
	if &again.head[0] != &f.head[0] {
		t.Error("the list was encoded again with nothing changed")
	}
	s.list.dirty = true // a room opened, someone joined...
	if fresh, _ := s.roomListFrame(protocol.Version); &fresh.head[0] == &f.head[0] {
		t.Error("the list was not encoded again after a change")
	}
}

// TestRoomListsAreCounted: the room lists a lobby is sent count in the
// bytes and frames out (gridlag_bytes_out_total), and requests share one
// encoding.
func TestRoomListsAreCounted(t *testing.T) {
	rec := newRecorder()
	ts := startServer(t, Options{Config: Config{Rate: 20}, Metrics: rec})
	c := dial(t, ts)
	for range 3 {
		c.send(&protocol.ListRooms{Version: protocol.Version})
		if _, err := c.recv(); err != nil {
			t.Fatal(err)
		}
	}
	b, err := protocol.Marshal(&protocol.Rooms{MaxRooms: DefaultMaxRooms, Rooms: []protocol.RoomInfo{{MaxPlayers: DefaultMaxPlayers, Round: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	size := len(b)
	rec.waitFor(t, "three room lists sent", func(r *recorder) bool { return r.frames >= 3 && r.bytes >= 3*size })
}

// TestSendQueueBoundedInBytes: a client's queue holds at most
// SendQueueBytes, whatever the frames (a frame always fits an empty
// queue), and taking frames frees their bytes.
func TestSendQueueBoundedInBytes(t *testing.T) {
	c := &conn{shard: newShard(), queueCap: 1 << 20, byteCap: 100 << 10}
	big := frame{head: make([]byte, 60<<10)}
	if !c.push(big) {
		t.Fatal("a frame was refused by an empty queue")
	}
	if c.push(big) {
		t.Fatalf("a second 60 KB frame was queued over a 100 KB bound (%d bytes queued)", c.queuedB.Load())
	}
	for c.push(frame{head: make([]byte, 1000)}) {
	}
	if n := c.queuedB.Load(); n > 100<<10 {
		t.Fatalf("%d bytes queued, more than the bound", n)
	}
	if !c.mustHold() {
		t.Error("a queue at its byte bound does not hold the reader back")
	}
	buf, _ := c.take(nil)
	if len(buf) == 0 || c.queuedB.Load() >= 100<<10-int64(len(buf))+1 {
		t.Errorf("took %d bytes, %d still counted", len(buf), c.queuedB.Load())
	}
}
