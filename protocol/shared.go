package protocol

import (
	"encoding/binary"
	"fmt"

	"gridlag/grid"
)

// SharedPlayers is a list of players that many States carry parts of: the
// server's news of one tick, a part of the map at a time, which every
// client whose area holds that part receives. Each State names its parts
// as Runs of the list, and the list is encoded once, the first time a
// State carrying it is, however many States carry it. It is the sender's
// alone: a decoded State has Players only.
//
// A SharedPlayers is not safe for concurrent use: the States carrying it
// are encoded by one goroutine, or by many once Encode has run.
type SharedPlayers struct {
	list []grid.PlayerPos
	enc  []byte
	err  error
	done bool
}

// Run is the part of a SharedPlayers from index Lo up to Hi (excluded).
type Run struct{ Lo, Hi int32 }

// Set makes list the players shared, dropping what was encoded of the
// last list; the memory is reused.
func (s *SharedPlayers) Set(list []grid.PlayerPos) {
	s.list, s.enc, s.err, s.done = list, s.enc[:0], nil, false
}

// List returns the players shared.
func (s *SharedPlayers) List() []grid.PlayerPos { return s.list }

// Encode encodes the players now, as the first State carrying them
// would: from then on, until Set, the States carrying them only read
// them, so they may be encoded by many goroutines at once.
func (s *SharedPlayers) Encode() error {
	_, err := s.encoded()
	return err
}

// encoded returns the players encoded as a State carries them, encoding
// them the first time.
func (s *SharedPlayers) encoded() ([]byte, error) {
	if !s.done {
		s.done = true
		s.enc, s.err = appendPlayers(s.enc[:0], s.list)
	}
	return s.enc, s.err
}

// appendPlayers appends players as a State carries them: ID, X, Y.
func appendPlayers(b []byte, players []grid.PlayerPos) ([]byte, error) {
	for _, p := range players {
		if p.ID == 0 || !onWire(p.Pos) {
			return b, fmt.Errorf("player %d at %v: %w", p.ID, p.Pos, ErrBadValue)
		}
		b = binary.BigEndian.AppendUint16(b, uint16(p.ID))
		b = binary.BigEndian.AppendUint16(b, uint16(p.Pos.X))
		b = binary.BigEndian.AppendUint16(b, uint16(p.Pos.Y))
	}
	return b, nil
}

// Count returns how many players m carries: its Players, and those of its
// Runs.
func (m *State) Count() int {
	n := len(m.Players)
	for _, r := range m.Runs {
		n += int(r.Hi - r.Lo)
	}
	return n
}

// AllPlayers appends every player m carries to dst: its Players, then
// those of its Runs, in order, as a decoded copy of m would have them.
func (m *State) AllPlayers(dst []grid.PlayerPos) []grid.PlayerPos {
	dst = append(dst, m.Players...)
	for _, r := range m.Runs {
		dst = append(dst, m.Shared.list[r.Lo:r.Hi]...)
	}
	return dst
}
