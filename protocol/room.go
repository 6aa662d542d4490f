package protocol

import (
	"encoding/binary"
	"fmt"
)

// Rooms: one server may host many independent worlds, each named. A
// client names its room in the optional last field of Hello or Spectate
// (Hello.Room, Spectate.Room); the empty name is the server's default
// room, and a Hello or Spectate without the field, as clients from before
// rooms send it, has the empty name: their bytes, and those of every frame
// after, are unchanged. A room's name follows CheckName.
//
// ListRooms asks for the rooms (a lobby), before any Hello or Spectate, on
// a connection that may then join one; the server answers Rooms.

// MaxRooms is the most rooms a Rooms message carries.
const MaxRooms = 1024

// ListRooms asks the server for the rooms it hosts; it answers Rooms. It
// may come first on a connection, and again, before its Hello or Spectate.
type ListRooms struct {
	Version uint16 // the client's protocol version, checked as Hello's is
}

// Rooms answers ListRooms: every room the server hosts now, sorted by
// name, the default room (Name "") first; or, when they do not all fit
// one frame (FitRooms), as many as fit, and Total.
type Rooms struct {
	MaxRooms uint16 // the most rooms the server opens: a new name is refused above it
	Rooms    []RoomInfo
	// Total is how many rooms are open when Rooms does not carry them all
	// (a list cut to fit a frame), more than len(Rooms); 0 when it does.
	// On the wire it is an optional last field, absent when 0, so a list
	// that fits keeps the bytes it had before the field; a server sends
	// it to clients of version RoomsTotalSince on only.
	Total uint16
}

// RoomInfo describes one room for a lobby.
type RoomInfo struct {
	Name       string // "" for the default room
	Players    uint16 // players in the room now
	MaxPlayers uint16 // the most players the room holds: its cap, or its map's floor cells (one player a cell) if fewer
	Spectators uint16 // spectators watching it now
	Round      uint16 // the round being played, from 1
	LeftMS     uint32 // time left in the round, in milliseconds
}

// Type implements Message.
func (*ListRooms) Type() Type { return TypeListRooms }

// Type implements Message.
func (*Rooms) Type() Type { return TypeRooms }

func (m *ListRooms) appendPayload(b []byte) ([]byte, error) {
	return binary.BigEndian.AppendUint16(b, m.Version), nil
}

func (m *ListRooms) decodePayload(r *reader) error {
	m.Version = r.u16()
	return r.done()
}

func (m *Rooms) appendPayload(b []byte) ([]byte, error) {
	if len(m.Rooms) > MaxRooms {
		return b, fmt.Errorf("%d rooms, more than %d: %w", len(m.Rooms), MaxRooms, ErrBadValue)
	}
	if m.Total != 0 && int(m.Total) <= len(m.Rooms) {
		return b, fmt.Errorf("total of %d rooms with %d listed: %w", m.Total, len(m.Rooms), ErrBadValue)
	}
	b = binary.BigEndian.AppendUint16(b, m.MaxRooms)
	b = binary.BigEndian.AppendUint16(b, uint16(len(m.Rooms)))
	for _, ri := range m.Rooms {
		var err error
		if b, err = appendStr(b, ri.Name); err != nil {
			return b, err
		}
		b = binary.BigEndian.AppendUint16(b, ri.Players)
		b = binary.BigEndian.AppendUint16(b, ri.MaxPlayers)
		b = binary.BigEndian.AppendUint16(b, ri.Spectators)
		b = binary.BigEndian.AppendUint16(b, ri.Round)
		b = binary.BigEndian.AppendUint32(b, ri.LeftMS)
	}
	if m.Total != 0 {
		b = binary.BigEndian.AppendUint16(b, m.Total)
	}
	return b, nil
}

// roomInfoSize is the bytes of ri on the wire.
func roomInfoSize(ri RoomInfo) int { return 1 + len(ri.Name) + 12 }

// FitRooms returns how many of rooms, from the first, fit one Rooms frame
// with its Total: all of them, or fewer when their names are long (a
// room's entry is 13 bytes and its name, so 1,024 rooms with names of 16
// four-byte characters take 79 KB, more than MaxFrame). A list cut to
// this many carries Total.
func FitRooms(rooms []RoomInfo) int {
	room := MaxFrame - 1 - 2 - 2 - 2 // type, MaxRooms, count, Total
	for i, ri := range rooms {
		if room -= roomInfoSize(ri); room < 0 || i == MaxRooms {
			return i
		}
	}
	return len(rooms)
}

func (m *Rooms) decodePayload(r *reader) error {
	m.MaxRooms = r.u16()
	n := int(r.u16())
	if n > MaxRooms {
		r.fail(ErrBadValue)
		return r.done()
	}
	m.Rooms = nil
	for i := 0; i < n && r.err == nil; i++ {
		m.Rooms = append(m.Rooms, RoomInfo{
			Name: r.str(), Players: r.u16(), MaxPlayers: r.u16(), Spectators: r.u16(), Round: r.u16(), LeftMS: r.u32(),
		})
	}
	m.Total = 0
	if r.err == nil && len(r.b) > 0 {
		// Only a list cut short says how many there are: one encoding.
		if m.Total = r.u16(); r.err == nil && int(m.Total) <= n {
			r.fail(ErrBadValue)
		}
	}
	return r.done()
}

// appendRoom appends a Hello's or Spectate's room: nothing for the
// default room, so that such a message keeps its bytes from before rooms.
func appendRoom(b []byte, room string) ([]byte, error) {
	if room == "" {
		return b, nil
	}
	return appendStr(b, room)
}

// decodeRoom reads the optional room at the end of a Hello or Spectate.
// An empty name sent explicitly is a trailing byte: the sender omits it,
// so that every Hello has one encoding.
func decodeRoom(r *reader) string {
	if r.err != nil || len(r.b) == 0 {
		return ""
	}
	room := r.str()
	if r.err == nil && room == "" {
		r.fail(ErrTrailing)
	}
	return room
}
