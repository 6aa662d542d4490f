package protocol

import (
	"encoding/binary"
	"fmt"
	"math"

	"gridlag/grid"
)

// The layout of a State frame: a head of StateHeadLen bytes (the length
// prefix, the type, Tick, TimeNS and Ack), then, unless the State carries
// no change at all, its body: a flags byte (stateFull, stateLeft), the
// moved or appeared players (a 2-byte count and 6 bytes each: ID, X, Y),
// the players gone from the area (a 2-byte count and 2 bytes each: ID)
// and, if stateLeft is set, the players that left the game (the same). A
// State
// with nothing to say is its head alone, and on a stream, after another
// State, usually a step of about 8 bytes instead (see StateStream): an idle
// crowd costs each client a few bytes a tick.
const (
	// StateHeadLen is the size of a State frame's head, and of a whole
	// State that changes nothing when it does not travel as a step.
	StateHeadLen = HeaderLen + 1 + 4 + 8 + 4
	// MaxStatePlayers is the most players (moved or appeared, plus gone)
	// one State frame can carry.
	MaxStatePlayers = (MaxFrame - (StateHeadLen - HeaderLen + stateBodyLen)) / statePlayerLen

	stateBodyLen   = 1 + 2 + 2 // flags and the two counts
	statePlayerLen = 2 + 2 + 2 // a player's ID, X and Y
	stateGoneLen   = 2         // a gone player's ID

	stateFull = 1 // flags: Players is the whole area
	stateLeft = 2 // flags: the list of those that left the game follows
)

// StateSize returns the size in bytes of the frame of a State carrying n
// moved or appeared players and gone gone ones, length prefix included.
// A State with neither (and not Full) is StateHeadLen bytes.
func StateSize(n, gone int) int {
	return StateHeadLen + stateBodyLen + n*statePlayerLen + gone*stateGoneLen
}

// stateSize is StateSize with left players that left the game.
func stateSize(n, gone, left int) int {
	size := StateSize(n, gone)
	if left > 0 {
		size += 2 + left*stateGoneLen
	}
	return size
}

// Empty reports whether the State changes nothing: not Full, no player
// moved, appeared or left. It travels as its head alone, or as a step on
// a stream (see StateStream).
func (m *State) Empty() bool {
	return !m.Full && m.Count() == 0 && len(m.Gone) == 0 && len(m.Left) == 0
}

// size returns the size of m's frame.
func (m *State) size() int {
	if m.Empty() {
		return StateHeadLen
	}
	return stateSize(m.Count(), len(m.Gone), len(m.Left))
}

// AppendStateHead appends the head of st's frame to dst: the first
// StateHeadLen bytes that Append would write (the length prefix counts
// the whole frame).
func AppendStateHead(dst []byte, st *State) ([]byte, error) {
	if n := st.Count() + len(st.Gone) + len(st.Left); n > MaxStatePlayers {
		return dst, fmt.Errorf("protocol: encode %v: %d players: %w", TypeState, n, ErrTooLarge)
	}
	dst = binary.BigEndian.AppendUint16(dst, uint16(st.size()-HeaderLen))
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
	n := m.Count()
	if n > math.MaxUint16 || len(m.Gone) > math.MaxUint16 || len(m.Left) > math.MaxUint16 {
		return b, fmt.Errorf("%d players, %d gone, %d left: %w", n, len(m.Gone), len(m.Left), ErrBadValue)
	}
	if m.Full && len(m.Gone) > 0 {
		return b, fmt.Errorf("a full State with %d gone players: %w", len(m.Gone), ErrBadValue)
	}
	b = m.appendFields(b)
	if m.Empty() {
		return b, nil
	}
	var flags byte
	if m.Full {
		flags |= stateFull
	}
	if len(m.Left) > 0 {
		flags |= stateLeft
	}
	b = append(b, flags)
	b = binary.BigEndian.AppendUint16(b, uint16(n))
	b, err := appendPlayers(b, m.Players)
	if err != nil {
		return b, err
	}
	if len(m.Runs) > 0 {
		shared, err := m.Shared.encoded()
		if err != nil {
			return b, err
		}
		for _, r := range m.Runs {
			b = append(b, shared[int(r.Lo)*statePlayerLen:int(r.Hi)*statePlayerLen]...)
		}
	}
	b, err = appendIDs(b, m.Gone, "gone")
	if err != nil || len(m.Left) == 0 {
		return b, err
	}
	return appendIDs(b, m.Left, "left")
}

// appendIDs appends a count and the IDs, none 0; what names the list in
// an error.
func appendIDs(b []byte, ids []grid.PlayerID, what string) ([]byte, error) {
	b = binary.BigEndian.AppendUint16(b, uint16(len(ids)))
	for _, id := range ids {
		if id == 0 {
			return b, fmt.Errorf("%s player 0: %w", what, ErrBadValue)
		}
		b = binary.BigEndian.AppendUint16(b, uint16(id))
	}
	return b, nil
}

// onWire reports whether p fits a State's 16-bit coordinates.
func onWire(p grid.Pos) bool { return p.X >= 0 && p.Y >= 0 && p.X <= 0xffff && p.Y <= 0xffff }

func (m *State) decodePayload(r *reader) error {
	m.Tick = r.u32()
	m.TimeNS = r.u64()
	m.Ack = r.u32()
	m.Full, m.Players, m.Gone, m.Left, m.Shared, m.Runs = false, nil, nil, nil, nil, nil
	if r.err != nil || len(r.b) == 0 {
		return r.done() // the head alone: nothing changed
	}
	flags := r.u8()
	if flags&^(stateFull|stateLeft) != 0 {
		r.fail(ErrBadValue)
	}
	m.Full = flags&stateFull != 0
	m.Players = decodePlayers(r)
	m.Gone = decodeGone(r)
	if flags&stateLeft != 0 {
		if m.Left = decodeGone(r); r.err == nil && len(m.Left) == 0 {
			r.fail(ErrBadValue) // an empty list travels as no list
		}
	}
	if r.err == nil && (m.Empty() || m.Full && len(m.Gone) > 0) {
		r.fail(ErrBadValue) // an empty body travels as no body; a full picture has nobody gone
	}
	return r.done()
}

// decodePlayers reads a count and that many IDs and cells.
func decodePlayers(r *reader) []grid.PlayerPos {
	n := r.count(statePlayerLen)
	if n == 0 {
		return nil
	}
	ps := make([]grid.PlayerPos, n)
	for i := range ps {
		id := grid.PlayerID(r.u16())
		if id == 0 {
			r.fail(ErrBadValue)
		}
		ps[i] = grid.PlayerPos{ID: id, Pos: grid.Pos{X: int(r.u16()), Y: int(r.u16())}}
	}
	return ps
}

// decodeGone reads a count and that many IDs.
func decodeGone(r *reader) []grid.PlayerID {
	n := r.count(stateGoneLen)
	if n == 0 {
		return nil
	}
	ids := make([]grid.PlayerID, n)
	for i := range ids {
		if ids[i] = grid.PlayerID(r.u16()); ids[i] == 0 {
			r.fail(ErrBadValue)
		}
	}
	return ids
}
