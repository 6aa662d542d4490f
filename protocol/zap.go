package protocol

import (
	"encoding/binary"
	"fmt"
	"math"

	"gridlag/grid"
)

// Zap is one numbered zap: an input like a move, with the next sequence
// number, acknowledged like one by the States' Ack. It fires the beam in the
// direction the player faces (the last direction it sent).
//
// RenderNS is the server time of the world the client was showing when the
// player zapped: its interpolation render time on the server's clock. The
// server rewinds the other players to it (within its unlag limit) to judge
// the zap as the shooter saw it.
type Zap struct {
	Seq      uint32
	RenderNS uint64
}

// ZapOutcome says what a zap did, as the shooter is told in ZapResult.
type ZapOutcome uint8

// The outcomes of a zap.
const (
	ZapHit      ZapOutcome = iota + 1 // the target was tagged
	ZapLeft                           // the target the shooter saw had left the line
	ZapRange                          // nobody within grid.BeamRange cells
	ZapWall                           // a wall stopped the beam before anybody
	ZapCooldown                       // too soon after the last zap: nothing fired
	ZapFrozen                         // the shooter is frozen: nothing fired
	// Version 4: a version-3 client is told what the beam met instead
	// (ZapRange or ZapWall).
	ZapProtected // the target the shooter saw in line was under spawn protection
	ZapTagged    // the target the shooter saw in line had already been tagged (frozen then, or since)
)

// lastOutcome is the highest ZapOutcome.
const lastOutcome = ZapTagged

// String says what the outcome means in a few words.
func (o ZapOutcome) String() string {
	switch o {
	case ZapHit:
		return "hit"
	case ZapLeft:
		return "had left the line"
	case ZapRange:
		return "out of range"
	case ZapWall:
		return "wall"
	case ZapCooldown:
		return "cooldown"
	case ZapFrozen:
		return "frozen"
	case ZapProtected:
		return "protected"
	case ZapTagged:
		return "already tagged"
	}
	return fmt.Sprintf("ZapOutcome(%d)", uint8(o))
}

// Named reports whether the outcome names a player (ZapResult.Target):
// the one tagged, or the one the shooter saw in line and missed.
func (o ZapOutcome) Named() bool {
	return o == ZapHit || o == ZapLeft || o == ZapProtected || o == ZapTagged
}

// ZapResult tells the shooter how the server judged its zap number Seq.
// Target is the tagged player for ZapHit, the player the shooter saw in
// line for ZapLeft, ZapProtected and ZapTagged, and 0 otherwise. RewindMS is how far back the server
// looked (0 without lag compensation). The beam left From towards the
// shooter's facing and covered Len cells.
type ZapResult struct {
	Seq      uint32
	Outcome  ZapOutcome
	Target   grid.PlayerID
	RewindMS uint16
	From     grid.Pos
	Dir      grid.Dir
	Len      uint8
}

// Tagged tells a player it was tagged by By, who saw it at Seen AgoMS
// milliseconds before the server judged the zap; it stays frozen for
// FrozenMS, then respawns.
type Tagged struct {
	By       grid.PlayerID
	Seen     grid.Pos
	AgoMS    uint16
	FrozenMS uint16
}

// Type implements Message.
func (*Zap) Type() Type { return TypeZap }

// Type implements Message.
func (*ZapResult) Type() Type { return TypeZapResult }

// Type implements Message.
func (*Tagged) Type() Type { return TypeTagged }

func (m *Zap) appendPayload(b []byte) ([]byte, error) {
	b = binary.BigEndian.AppendUint32(b, m.Seq)
	return binary.BigEndian.AppendUint64(b, m.RenderNS), nil
}

func (m *Zap) decodePayload(r *reader) error {
	m.Seq = r.u32()
	m.RenderNS = r.u64()
	return r.done()
}

// appendPos appends a cell as two 16-bit coordinates.
func appendPos(b []byte, p grid.Pos) ([]byte, error) {
	if p.X < 0 || p.Y < 0 || p.X > math.MaxUint16 || p.Y > math.MaxUint16 {
		return b, fmt.Errorf("cell %v: %w", p, ErrBadValue)
	}
	b = binary.BigEndian.AppendUint16(b, uint16(p.X))
	return binary.BigEndian.AppendUint16(b, uint16(p.Y)), nil
}

func decodePos(r *reader) grid.Pos { return grid.Pos{X: int(r.u16()), Y: int(r.u16())} }

func (m *ZapResult) appendPayload(b []byte) ([]byte, error) {
	if !m.outcomeOK() {
		return b, fmt.Errorf("zap outcome %v, target %d: %w", m.Outcome, m.Target, ErrBadValue)
	}
	if m.Dir > grid.Right || m.Len > grid.BeamRange {
		return b, fmt.Errorf("beam %v of %d cells: %w", m.Dir, m.Len, ErrBadValue)
	}
	b = binary.BigEndian.AppendUint32(b, m.Seq)
	b = append(b, byte(m.Outcome))
	b = binary.BigEndian.AppendUint16(b, uint16(m.Target))
	b = binary.BigEndian.AppendUint16(b, m.RewindMS)
	b, err := appendPos(b, m.From)
	return append(b, byte(m.Dir), m.Len), err
}

// outcomeOK reports whether the outcome is known, with a target where it
// needs one (a hit, or a protected or tagged player in line).
func (m *ZapResult) outcomeOK() bool {
	return m.Outcome >= ZapHit && m.Outcome <= lastOutcome &&
		(m.Target != 0 || m.Outcome != ZapHit && m.Outcome != ZapProtected && m.Outcome != ZapTagged)
}

func (m *ZapResult) decodePayload(r *reader) error {
	m.Seq = r.u32()
	m.Outcome = ZapOutcome(r.u8())
	m.Target = grid.PlayerID(r.u16())
	m.RewindMS = r.u16()
	m.From = decodePos(r)
	m.Dir = grid.Dir(r.u8())
	m.Len = r.u8()
	if r.err == nil && (!m.outcomeOK() || m.Dir > grid.Right || m.Len > grid.BeamRange) {
		r.fail(ErrBadValue)
	}
	return r.done()
}

func (m *Tagged) appendPayload(b []byte) ([]byte, error) {
	if m.By == 0 {
		return b, fmt.Errorf("tagged by player 0: %w", ErrBadValue)
	}
	b = binary.BigEndian.AppendUint16(b, uint16(m.By))
	b, err := appendPos(b, m.Seen)
	b = binary.BigEndian.AppendUint16(b, m.AgoMS)
	return binary.BigEndian.AppendUint16(b, m.FrozenMS), err
}

func (m *Tagged) decodePayload(r *reader) error {
	m.By = grid.PlayerID(r.u16())
	m.Seen = decodePos(r)
	m.AgoMS = r.u16()
	m.FrozenMS = r.u16()
	if r.err == nil && m.By == 0 {
		r.fail(ErrBadValue)
	}
	return r.done()
}
