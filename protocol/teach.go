package protocol

import (
	"encoding/binary"
	"fmt"

	"gridlag/grid"
)

// Version 5 lets a teacher set the network of a room for every student at
// once. A teacher's connection opens with Teach instead of Spectate; the
// server takes it only from a connection it knows to be a teacher's (one
// its operator named: an SSH key the server checked, or the terminal of
// the server's own machine), and refuses it, as it refuses a Conditions,
// from anyone else. The teacher watches the room as a spectator does and
// sets its Conditions; the server applies them to each student's
// connection, both ways, and tells every client of version 5 in the room
// (Conditions), whose players report what only they know (Report), which
// the teachers get (Class). A client of version 3 or 4 gets none of these
// messages: the network still holds for it, as the server applies it.

// TeachSince is the first version that knows Teach, Conditions, Report
// and Class.
const TeachSince uint16 = 5

// Teach is a teacher's first message, sent instead of Spectate: it asks
// to watch Room and to set its network. Its layout is Spectate's.
type Teach struct {
	Version uint16 // the teacher's protocol version, checked as Hello's is
	Name    string // who is teaching, for the server's log; see CheckName
	Room    string // the room to teach, "" for the server's default room; optional on the wire
}

// Hold is how a teacher holds one of the clients' netcode switches for
// everyone (prediction, reconciliation, interpolation).
type Hold uint8

// The holds.
const (
	HoldNone Hold = 0 // each student chooses
	HoldOn   Hold = 1 // on for everyone: a student cannot turn it off
	HoldOff  Hold = 2 // off for everyone: a student cannot turn it on
)

// String names the hold.
func (h Hold) String() string {
	switch h {
	case HoldNone:
		return "students choose"
	case HoldOn:
		return "on for all"
	case HoldOff:
		return "off for all"
	}
	return fmt.Sprintf("Hold(%d)", uint8(h))
}

// MaxLossBP is the largest loss a Conditions carries: 10,000 basis points,
// every message.
const MaxLossBP = 10000

// Conditions is a room's network and netcode as its teacher set them. A
// teacher sends it to set them, whole (Teachers is not read); the server
// sends it to every client of version 5 in the room, and again whenever
// they change, while the room has a teacher, and once with Teachers 0
// (and nothing set) when its last teacher leaves.
type Conditions struct {
	// Teachers is how many teachers the room has; 0: none (nothing is
	// held, nobody reports).
	Teachers uint8
	// LatencyMS is the round trip the server adds to each student's
	// connection, half each way; JitterMS the most it adds at random to
	// each message, either way; LossBP the probability, in basis points
	// (1/100 of a percent), that a message either way is lost and sent
	// again, as TCP does.
	LatencyMS uint16
	JitterMS  uint16
	LossBP    uint16
	// Predict, Reconcile and Interpolate hold the clients' switches.
	Predict, Reconcile, Interpolate Hold
	// Rate is the room's update rate (0: one State per input) and
	// LagComp its lag compensation.
	Rate    uint16
	LagComp bool
	// Trace (since version 6; see traces.go) names the trace the room's
	// network follows, "" for none: a teacher names one of the server's
	// Traces, and the server then sets LatencyMS, JitterMS and LossBP as
	// the trace does at each step, and says the step in force in Step.
	// Both are optional on the wire, and absent without a trace.
	Trace string
	Step  string
}

// conditionsLen is the size of a Conditions' payload.
const conditionsLen = 1 + 2 + 2 + 2 + 1 + 2 + 1

// Report is what a player's client of version 5 tells the server in a
// room with a teacher, of what only it knows: its inputs not yet
// acknowledged, the corrections reconciliation made, and the round trip it
// measured. It sends one when they change, about twice a second at most.
type Report struct {
	Pending     uint16
	Corrections uint32
	RTTMS       uint16 // NoRTT until measured
}

// Student is one student's last Report, as a teacher is told: the
// player's ID and what it reported.
type Student struct {
	ID          grid.PlayerID
	RTTMS       uint16
	Pending     uint16
	Corrections uint32
}

// studentLen is the size of one Student on the wire.
const studentLen = 2 + 2 + 2 + 4

// MaxClassStudents is the most students one Class carries.
const MaxClassStudents = (MaxFrame - 1 - 2) / studentLen

// Class tells a teacher the latest Reports of students of its room: all
// of them when it begins to teach, then each as it comes.
type Class struct {
	Students []Student
}

// Type implements Message.
func (*Teach) Type() Type { return TypeTeach }

// Type implements Message.
func (*Conditions) Type() Type { return TypeConditions }

// Type implements Message.
func (*Report) Type() Type { return TypeReport }

// Type implements Message.
func (*Class) Type() Type { return TypeClass }

func (m *Teach) appendPayload(b []byte) ([]byte, error) {
	return (&Spectate{Version: m.Version, Name: m.Name, Room: m.Room}).appendPayload(b)
}

func (m *Teach) decodePayload(r *reader) error {
	var s Spectate
	err := s.decodePayload(r)
	m.Version, m.Name, m.Room = s.Version, s.Name, s.Room
	return err
}

// validHold reports whether h is one of the holds.
func validHold(h Hold) bool { return h <= HoldOff }

func (m *Conditions) appendPayload(b []byte) ([]byte, error) {
	if !validHold(m.Predict) || !validHold(m.Reconcile) || !validHold(m.Interpolate) || m.LossBP > MaxLossBP {
		return b, fmt.Errorf("holds %d %d %d, loss %d: %w", m.Predict, m.Reconcile, m.Interpolate, m.LossBP, ErrBadValue)
	}
	b = append(b, m.Teachers)
	b = binary.BigEndian.AppendUint16(b, m.LatencyMS)
	b = binary.BigEndian.AppendUint16(b, m.JitterMS)
	b = binary.BigEndian.AppendUint16(b, m.LossBP)
	b = append(b, byte(m.Predict)|byte(m.Reconcile)<<2|byte(m.Interpolate)<<4)
	b = binary.BigEndian.AppendUint16(b, m.Rate)
	b = appendBool(b, m.LagComp)
	return appendConditionsTrace(b, m)
}

func (m *Conditions) decodePayload(r *reader) error {
	m.Teachers = r.u8()
	m.LatencyMS = r.u16()
	m.JitterMS = r.u16()
	m.LossBP = r.u16()
	holds := r.u8()
	m.Predict, m.Reconcile, m.Interpolate = Hold(holds&3), Hold(holds>>2&3), Hold(holds>>4&3)
	m.Rate = r.u16()
	m.LagComp = r.bool()
	decodeConditionsTrace(r, m)
	if r.err == nil && (holds>>6 != 0 || !validHold(m.Predict) || !validHold(m.Reconcile) || !validHold(m.Interpolate) || m.LossBP > MaxLossBP) {
		r.fail(ErrBadValue)
	}
	return r.done()
}

func (m *Report) appendPayload(b []byte) ([]byte, error) {
	b = binary.BigEndian.AppendUint16(b, m.Pending)
	b = binary.BigEndian.AppendUint32(b, m.Corrections)
	return binary.BigEndian.AppendUint16(b, m.RTTMS), nil
}

func (m *Report) decodePayload(r *reader) error {
	m.Pending = r.u16()
	m.Corrections = r.u32()
	m.RTTMS = r.u16()
	return r.done()
}

func (m *Class) appendPayload(b []byte) ([]byte, error) {
	if len(m.Students) > MaxClassStudents {
		return b, fmt.Errorf("%d students: %w", len(m.Students), ErrTooLarge)
	}
	b = binary.BigEndian.AppendUint16(b, uint16(len(m.Students)))
	for _, s := range m.Students {
		if s.ID == 0 {
			return b, fmt.Errorf("student ID 0: %w", ErrBadValue)
		}
		b = binary.BigEndian.AppendUint16(b, uint16(s.ID))
		b = binary.BigEndian.AppendUint16(b, s.RTTMS)
		b = binary.BigEndian.AppendUint16(b, s.Pending)
		b = binary.BigEndian.AppendUint32(b, s.Corrections)
	}
	return b, nil
}

func (m *Class) decodePayload(r *reader) error {
	n := r.count(studentLen)
	m.Students = nil
	if n > 0 {
		m.Students = make([]Student, 0, n)
	}
	for i := 0; i < n && r.err == nil; i++ {
		s := Student{ID: grid.PlayerID(r.u16()), RTTMS: r.u16(), Pending: r.u16(), Corrections: r.u32()}
		if r.err == nil && s.ID == 0 {
			r.fail(ErrBadValue)
		}
		m.Students = append(m.Students, s)
	}
	return r.done()
}

// RTTFromMS returns an Overview's or a Report's round trip as whole
// milliseconds for the wire: NoRTT when not measured, else at most
// NoRTT-1.
func RTTFromMS(ms int64, measured bool) uint16 {
	if !measured {
		return NoRTT
	}
	return uint16(min(max(ms, 0), int64(NoRTT)-1))
}
