package protocol

import (
	"encoding/binary"
	"fmt"
	"math"

	"gridlag/grid"
)

// The layout of a State frame: a head of StateHeadLen bytes (the length
// prefix, the type, Tick, TimeNS and Ack), then the player list (a 2-byte
// count and 6 bytes per player: ID, X, Y). The States of one server tick
// differ only in their Ack, so they share everything after the head: a
// server encodes the list once with Append and writes each further
// recipient's head with AppendStateHead.
const (
	// StateHeadLen is the size of a State frame's head, the part that
	// differs between the States of one tick.
	StateHeadLen = HeaderLen + 1 + 4 + 8 + 4
	// MaxStatePlayers is the most players one State frame can carry.
	MaxStatePlayers = (MaxFrame - (StateHeadLen - HeaderLen + stateCountLen)) / statePlayerLen

	stateCountLen  = 2         // the player count
	statePlayerLen = 2 + 2 + 2 // a player's ID, X and Y
)

// StateSize returns the size in bytes of the frame of a State carrying n
// players, length prefix included.
func StateSize(n int) int { return StateHeadLen + stateCountLen + n*statePlayerLen }

// AppendStateHead appends the head of st's frame to dst: the first
// StateHeadLen bytes that Append would write. Followed by the bytes after
// the head of another State with the same Players, it is st's frame.
func AppendStateHead(dst []byte, st *State) ([]byte, error) {
	if len(st.Players) > MaxStatePlayers {
		return dst, fmt.Errorf("protocol: encode %v: %d players: %w", TypeState, len(st.Players), ErrTooLarge)
	}
	dst = binary.BigEndian.AppendUint16(dst, uint16(StateSize(len(st.Players))-HeaderLen))
	dst = append(dst, byte(TypeState))
	return st.appendFields(dst), nil
}

// appendFields appends Tick, TimeNS and Ack.
func (m *State) appendFields(b []byte) []byte {
	b = binary.BigEndian.AppendUint32(b, m.Tick)
	b = binary.BigEndian.AppendUint64(b, m.TimeNS)
	return binary.BigEndian.AppendUint32(b, m.Ack)
}

func (m *State) appendPayload(b []byte) ([]byte, error) {
	if len(m.Players) > math.MaxUint16 {
		return b, fmt.Errorf("%d players: %w", len(m.Players), ErrBadValue)
	}
	b = m.appendFields(b)
	b = binary.BigEndian.AppendUint16(b, uint16(len(m.Players)))
	for _, p := range m.Players {
		if p.ID == 0 || p.Pos.X < 0 || p.Pos.Y < 0 || p.Pos.X > math.MaxUint16 || p.Pos.Y > math.MaxUint16 {
			return b, fmt.Errorf("player %d at %v: %w", p.ID, p.Pos, ErrBadValue)
		}
		b = binary.BigEndian.AppendUint16(b, uint16(p.ID))
		b = binary.BigEndian.AppendUint16(b, uint16(p.Pos.X))
		b = binary.BigEndian.AppendUint16(b, uint16(p.Pos.Y))
	}
	return b, nil
}

func (m *State) decodePayload(r *reader) error {
	m.Tick = r.u32()
	m.TimeNS = r.u64()
	m.Ack = r.u32()
	n := int(r.u16())
	if r.err == nil && len(r.b) != statePlayerLen*n {
		if len(r.b) < statePlayerLen*n {
			return ErrShort
		}
		return ErrTrailing
	}
	m.Players = make([]grid.PlayerPos, n)
	for i := range m.Players {
		id := grid.PlayerID(r.u16())
		if id == 0 {
			r.fail(ErrBadValue)
		}
		m.Players[i] = grid.PlayerPos{ID: id, Pos: grid.Pos{X: int(r.u16()), Y: int(r.u16())}}
	}
	return r.done()
}
