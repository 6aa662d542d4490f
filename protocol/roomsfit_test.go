package protocol_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"gridlag/protocol"
)

// TestRoomsFitAFrame: 1,024 rooms with names of 16 four-byte characters
// take more than a frame; FitRooms says how many fit, and such a list, cut
// and carrying its Total, encodes and comes back whole. A list that fits
// keeps the bytes it had before Total (no field), and a Total that is not
// more than the rooms listed is refused.
func TestRoomsFitAFrame(t *testing.T) {
	var rooms []protocol.RoomInfo
	for i := range protocol.MaxRooms {
		name := []rune(strings.Repeat("\U0001d504", protocol.MaxNameRunes)) // 𝔄, 4 bytes
		copy(name[12:], []rune(fmt.Sprintf("%04d", i)))
		rooms = append(rooms, protocol.RoomInfo{Name: string(name), Players: 1, MaxPlayers: 32, Round: 1})
	}
	n := protocol.FitRooms(rooms)
	if n >= len(rooms) || n < 800 {
		t.Fatalf("FitRooms of %d long names = %d, want fewer, and most of them", len(rooms), n)
	}
	if _, err := protocol.Marshal(&protocol.Rooms{MaxRooms: 1024, Rooms: rooms}); !errors.Is(err, protocol.ErrTooLarge) {
		t.Fatalf("the whole list encoded (%v): want it too large for a frame", err)
	}
	cut := &protocol.Rooms{MaxRooms: 1024, Rooms: rooms[:n], Total: uint16(len(rooms))}
	b, err := protocol.Marshal(cut)
	if err != nil {
		t.Fatalf("the list cut to %d: %v", n, err)
	}
	m, _, err := protocol.Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.(*protocol.Rooms); len(got.Rooms) != n || got.Total != uint16(len(rooms)) || got.Rooms[n-1].Name != rooms[n-1].Name {
		t.Fatalf("came back with %d rooms of %d", len(got.Rooms), got.Total)
	}
	if protocol.FitRooms(rooms[:10]) != 10 {
		t.Error("a short list does not fit whole")
	}
	if _, err := protocol.Marshal(&protocol.Rooms{Rooms: rooms[:3], Total: 3}); !errors.Is(err, protocol.ErrBadValue) {
		t.Errorf("a Total of the rooms listed encoded (%v), want ErrBadValue", err)
	}
}
