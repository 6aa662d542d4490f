package protocol

import (
	"encoding/binary"

	"gridlag/grid"
)

// Spectate is a spectator's first message, sent instead of Hello: it asks
// to watch the game without playing. A spectator takes no player slot and
// has no avatar; it gets Spectating, the roster as Joins and Leaves, and
// the server's Overview of every player.
//
// It is a message of its own rather than a flag in Hello so that Hello,
// Welcome and every frame a player exchanges keep their bytes: players and
// servers of this Version need no update, and a spectator is never handed
// a Welcome without a player. A server that predates spectators answers
// Spectate with an Error (unknown message type) and closes.
type Spectate struct {
	Version uint16 // the spectator's protocol version, checked as Hello's is
	Name    string // who is watching, for the server's log; see CheckName
	Room    string // the room to watch, "" for the server's default room; optional on the wire (see ListRooms)
}

// Spectating accepts a spectator: the game's numbers and the map, as a
// Welcome gives them to a player. The players already in the world follow
// as one Join each.
type Spectating struct {
	UpdateRate uint16 // server updates per second; 0 = one per processed input
	MoveTimeMS uint16 // the speed limit: one move per this many milliseconds
	Burst      uint8  // moves the server accepts back to back
	MapWidth   uint16
	MapHeight  uint16
	Cells      []byte // MapWidth*MapHeight cells, row-major, '#' or '.'
}

// MapFollows reports whether the map is too large for the Spectating and
// follows it, as after a Welcome.
func (s *Spectating) MapFollows() bool { return !inlineMap(s.MapWidth, s.MapHeight) }

// Map builds the grid map the Spectating carries.
func (s *Spectating) Map() (*grid.Map, error) {
	return grid.NewMapFromCells(int(s.MapWidth), int(s.MapHeight), s.Cells)
}

// Type implements Message.
func (*Spectate) Type() Type { return TypeSpectate }

// Type implements Message.
func (*Spectating) Type() Type { return TypeSpectating }

func (m *Spectate) appendPayload(b []byte) ([]byte, error) {
	b = binary.BigEndian.AppendUint16(b, m.Version)
	b, err := appendStr(b, m.Name)
	if err != nil {
		return b, err
	}
	return appendRoom(b, m.Room)
}

func (m *Spectate) decodePayload(r *reader) error {
	m.Version = r.u16()
	m.Name = r.str()
	m.Room = decodeRoom(r)
	return r.done()
}

func (m *Spectating) appendPayload(b []byte) ([]byte, error) {
	b = binary.BigEndian.AppendUint16(b, m.UpdateRate)
	b = binary.BigEndian.AppendUint16(b, m.MoveTimeMS)
	b = append(b, m.Burst)
	return appendMap(b, m.MapWidth, m.MapHeight, m.Cells)
}

func (m *Spectating) decodePayload(r *reader) error {
	m.UpdateRate = r.u16()
	m.MoveTimeMS = r.u16()
	m.Burst = r.u8()
	m.MapWidth, m.MapHeight, m.Cells = decodeMap(r)
	return r.done()
}
