package hub

import (
	"slices"
	"strings"
	"testing"

	"gridlag/protocol"
	"gridlag/server/world"
)

// TestRoomListFitsAFrame (row 4): with more rooms than one frame carries
// (1,000 with names of 16 four-byte characters), the list still fits:
// the default room and the busiest are listed, Total says how many are
// open, and the list is built once until the rooms change (an adapter
// encodes it once: server's TestRoomListEncodedOnce). A version 3 lobby,
// which knows no Total, gets the same rooms without it.
func TestRoomListFitsAFrame(t *testing.T) {
	h := New(0, Options{Config: world.Config{Rate: 20}, MaxRooms: 1024})
	var busy string
	for i := range 1000 {
		// 16 characters of 4 bytes: 𝔄 and i in three bold letters.
		name := strings.Repeat("\U0001d504", 13) + string([]rune{0x1d41a + rune(i/676), 0x1d41a + rune(i/26%26), 0x1d41a + rune(i%26)})
		r := h.open(0, name)
		if i == 999 { // last by name: listed only for its player
			busy = name
			r.core.Receive(0, 1, &protocol.Hello{Version: protocol.Version, Name: "ann", Room: name})
		}
	}
	built := h.roomList(0, protocol.Version)
	f, err := protocol.Marshal(built)
	if err != nil {
		t.Fatalf("the room list of 1,001 rooms: %v", err)
	}
	m, _, err := protocol.Unmarshal(f)
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
	f3, err := protocol.Marshal(h.roomList(0, protocol.MinVersion))
	if err != nil {
		t.Fatal(err)
	}
	m3, _, err := protocol.Unmarshal(f3)
	if err != nil {
		t.Fatal(err)
	}
	if l3 := m3.(*protocol.Rooms); l3.Total != 0 || len(f3) != len(f)-2 || !slices.Equal(l3.Rooms, list.Rooms) {
		t.Errorf("version 3's list: %d rooms, Total %d, %d bytes; want the same %d rooms without a Total, 2 bytes less than %d",
			len(l3.Rooms), l3.Total, len(f3), len(list.Rooms), len(f))
	}
	if again := h.roomList(0, protocol.Version); again != built {
		t.Error("the list was built again with nothing changed")
	}
	h.list.dirty = true // a room opened, someone joined...
	if fresh := h.roomList(0, protocol.Version); fresh == built {
		t.Error("the list was not built again after a change")
	}
}
