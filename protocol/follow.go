package protocol

import (
	"encoding/binary"
	"fmt"

	"gridlag/grid"
)

// Version 6 makes a spectator's screen a projector: a spectator (and a
// teacher) is sent the room's scoreboard (Ranking, Rank 0: it is no
// player), and a room's teacher may follow one student (Follow), whose
// client then tells what only it sees of itself (Sight: where it draws
// its avatar, its ghost where the server last placed it, its pending
// inputs, its switches), which the room's spectators and teachers are
// shown (Followed). A client of version 5 or before gets none of these,
// and its version's bytes.

// FollowSince is the first version that knows Follow, Sight and
// Followed, and whose spectators are sent the Ranking.
const FollowSince uint16 = 6

// Follow says which student a room follows. A teacher sends it to
// follow student ID (0: nobody); the server refuses it, as a
// Conditions, from a connection that is not a teacher of its room. The
// server sends it to every client of version 6 in the room when it
// comes in while the room follows someone, and whenever the teacher
// changes it (ID 0 when the followed student left, or the last
// teacher): the student whose ID it is then sends Sight until another
// Follow names someone else.
type Follow struct {
	ID grid.PlayerID
}

// Sight is what a followed student's client tells the server of what
// only it sees of itself, when that changes (every SightEvery at most)
// and every SightRefresh while it is followed: where it draws its
// avatar and the way it faces, its ghost (where the server's last State
// put it), the last input the server acknowledged, its switches, how
// far in the past it draws the others, its round trip, the latency it
// added itself, its corrections and its pending inputs, oldest first
// (the last MaxSightPending of them).
type Sight struct {
	Pos    grid.Pos // the avatar, where the student sees it (its prediction)
	Facing grid.Dir
	Ghost  grid.Pos // where the server last said it is
	// HasState is false until the student's first State: Pos and Ghost
	// mean nothing before.
	HasState                        bool
	Predict, Reconcile, Interpolate bool
	Ack                             uint32 // the last input the server acknowledged
	InterpMS                        uint16 // how far in the past it draws the others
	RTTMS                           uint16 // its round trip; NoRTT until measured
	LatencyMS                       uint16 // the round trip it injected itself (its slider)
	Corrections                     uint32
	Pending                         []SightInput
}

// SightInput is one of a followed student's pending inputs.
type SightInput struct {
	Seq   uint32
	Dir   grid.Dir // None for a zap
	AgeMS uint16   // how long ago it was sent, when the Sight was
}

// MaxSightPending is the most pending inputs a Sight carries: the
// newest, when the student has more.
const MaxSightPending = 32

// The flags byte of a Sight.
const (
	sightState       = 1 << 0
	sightPredict     = 1 << 1
	sightReconcile   = 1 << 2
	sightInterpolate = 1 << 3
	sightFlags       = sightState | sightPredict | sightReconcile | sightInterpolate
)

// sightInputLen is the size of one SightInput on the wire.
const sightInputLen = 4 + 1 + 2

// Followed is a followed student's last Sight, sent to the spectators
// and teachers of version 6 of its room as it comes: student ID's.
type Followed struct {
	ID    grid.PlayerID
	Sight Sight
}

// Type implements Message.
func (*Follow) Type() Type { return TypeFollow }

// Type implements Message.
func (*Sight) Type() Type { return TypeSight }

// Type implements Message.
func (*Followed) Type() Type { return TypeFollowed }

func (m *Follow) appendPayload(b []byte) ([]byte, error) {
	return binary.BigEndian.AppendUint16(b, uint16(m.ID)), nil
}

func (m *Follow) decodePayload(r *reader) error {
	m.ID = grid.PlayerID(r.u16())
	return r.done()
}

// validFacing reports whether d is a way a player may face: None (not
// yet) or a direction.
func validFacing(d grid.Dir) bool { return d == grid.None || d.Valid() }

func (m *Sight) appendPayload(b []byte) ([]byte, error) {
	if len(m.Pending) > MaxSightPending {
		return b, fmt.Errorf("%d pending inputs: %w", len(m.Pending), ErrTooLarge)
	}
	if !validFacing(m.Facing) {
		return b, fmt.Errorf("facing %v: %w", m.Facing, ErrBadValue)
	}
	b, err := appendPos(b, m.Pos)
	if err != nil {
		return b, err
	}
	b = append(b, byte(m.Facing))
	if b, err = appendPos(b, m.Ghost); err != nil {
		return b, err
	}
	var flags byte
	for _, f := range []struct {
		on  bool
		bit byte
	}{{m.HasState, sightState}, {m.Predict, sightPredict}, {m.Reconcile, sightReconcile}, {m.Interpolate, sightInterpolate}} {
		if f.on {
			flags |= f.bit
		}
	}
	b = append(b, flags)
	b = binary.BigEndian.AppendUint32(b, m.Ack)
	b = binary.BigEndian.AppendUint16(b, m.InterpMS)
	b = binary.BigEndian.AppendUint16(b, m.RTTMS)
	b = binary.BigEndian.AppendUint16(b, m.LatencyMS)
	b = binary.BigEndian.AppendUint32(b, m.Corrections)
	b = append(b, byte(len(m.Pending)))
	for _, in := range m.Pending {
		if !validFacing(in.Dir) {
			return b, fmt.Errorf("input #%d's direction %v: %w", in.Seq, in.Dir, ErrBadValue)
		}
		b = binary.BigEndian.AppendUint32(b, in.Seq)
		b = append(b, byte(in.Dir))
		b = binary.BigEndian.AppendUint16(b, in.AgeMS)
	}
	return b, nil
}

func (m *Sight) decodePayload(r *reader) error {
	m.Pos = decodePos(r)
	m.Facing = grid.Dir(r.u8())
	m.Ghost = decodePos(r)
	flags := r.u8()
	m.HasState, m.Predict = flags&sightState != 0, flags&sightPredict != 0
	m.Reconcile, m.Interpolate = flags&sightReconcile != 0, flags&sightInterpolate != 0
	m.Ack = r.u32()
	m.InterpMS = r.u16()
	m.RTTMS = r.u16()
	m.LatencyMS = r.u16()
	m.Corrections = r.u32()
	n := int(r.u8())
	if r.err == nil && (flags&^sightFlags != 0 || !validFacing(m.Facing) || n > MaxSightPending) {
		r.fail(ErrBadValue)
	}
	m.Pending = nil
	if r.err == nil && n > 0 {
		if n*sightInputLen > len(r.b) {
			r.fail(ErrShort)
		} else {
			m.Pending = make([]SightInput, 0, n)
		}
	}
	for i := 0; i < n && r.err == nil; i++ {
		in := SightInput{Seq: r.u32(), Dir: grid.Dir(r.u8()), AgeMS: r.u16()}
		if r.err == nil && !validFacing(in.Dir) {
			r.fail(ErrBadValue)
		}
		m.Pending = append(m.Pending, in)
	}
	return r.done()
}

func (m *Followed) appendPayload(b []byte) ([]byte, error) {
	if m.ID == 0 {
		return b, fmt.Errorf("student ID 0: %w", ErrBadValue)
	}
	b = binary.BigEndian.AppendUint16(b, uint16(m.ID))
	return m.Sight.appendPayload(b)
}

func (m *Followed) decodePayload(r *reader) error {
	m.ID = grid.PlayerID(r.u16())
	if r.err == nil && m.ID == 0 {
		r.fail(ErrBadValue)
	}
	return m.Sight.decodePayload(r)
}
