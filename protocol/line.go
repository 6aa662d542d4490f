package protocol

import (
	"encoding/binary"
	"fmt"
	"time"
)

// Version 6 puts a newcomer the server cannot take at once in a line
// instead of refusing it. In answer to a Hello or a Spectate of version 6
// the server first says Admission, its rules of admission that concern
// the client; then, if the newcomer must wait, Queued, its place in the
// line and the server's estimate of the wait, again as its place falls
// (about once a second), and at last the Welcome (or Spectating), or an
// Error that says why it will not be let in. A client in line sends
// nothing; it leaves the line, freeing its place at once, by closing the
// connection (or saying Bye).
//
// A client of version 5 or older is never sent Admission nor Queued: one
// that must wait waits in the same line and is told its place in a
// Notice (a message every version knows, which also keeps it from its
// silence timeout), about once a second, and a Notice with no text when
// it is let in; then its Welcome, as ever.

// LineSince is the first version told the server's rules of admission
// (Admission) and its place in the server's line (Queued).
const LineSince uint16 = 6

// Queued (since version 6) tells a client whose Hello or Spectate the
// server cannot take at once that it waits in line: its place (1 is the
// next let in), how many wait in all, and the server's estimate of the
// wait. The server sends it when the client enters the line and again as
// its place falls, about once a second, until the Welcome (or
// Spectating) or an Error.
type Queued struct {
	Place  uint32 // 1 is the next one let in
	Line   uint32 // how many wait, this one included: at least Place
	WaitMS uint32 // the server's estimate of the wait, in milliseconds
}

// Admission (since version 6) is the server's rules of admission that
// concern a client, said in answer to its Hello or Spectate before
// anything else: how many players one address may have at once, joined
// or waiting (so that a load generator knows how many to start from one
// address), and the server's line, if it has one: the longest wait it
// lets a newcomer in line for, and how many places it has.
type Admission struct {
	// PerAddr is how many players one address may have at once, joined or
	// in line; 0: the client's address counts against no cap (the
	// server's own).
	PerAddr uint16
	// LineWaitS is the longest wait, in seconds, the server lets a
	// newcomer in line for: one whose estimate is longer is refused at
	// once. 0 with LineMax 0: the server has no line (it takes every
	// newcomer at once, or refuses it).
	LineWaitS uint16
	// LineMax is how many may wait in line at once.
	LineMax uint32
}

// Type implements Message.
func (*Queued) Type() Type { return TypeQueued }

// Type implements Message.
func (*Admission) Type() Type { return TypeAdmission }

func (m *Queued) appendPayload(b []byte) ([]byte, error) {
	if m.Place == 0 || m.Line < m.Place {
		return b, fmt.Errorf("place %d of %d: %w", m.Place, m.Line, ErrBadValue)
	}
	b = binary.BigEndian.AppendUint32(b, m.Place)
	b = binary.BigEndian.AppendUint32(b, m.Line)
	return binary.BigEndian.AppendUint32(b, m.WaitMS), nil
}

func (m *Queued) decodePayload(r *reader) error {
	m.Place, m.Line, m.WaitMS = r.u32(), r.u32(), r.u32()
	if r.err == nil && (m.Place == 0 || m.Line < m.Place) {
		r.fail(fmt.Errorf("place %d of %d: %w", m.Place, m.Line, ErrBadValue))
	}
	return r.done()
}

func (m *Admission) appendPayload(b []byte) ([]byte, error) {
	if (m.LineWaitS == 0) != (m.LineMax == 0) {
		return b, fmt.Errorf("a line of %d places and a wait of %d s: %w", m.LineMax, m.LineWaitS, ErrBadValue)
	}
	b = binary.BigEndian.AppendUint16(b, m.PerAddr)
	b = binary.BigEndian.AppendUint16(b, m.LineWaitS)
	return binary.BigEndian.AppendUint32(b, m.LineMax), nil
}

func (m *Admission) decodePayload(r *reader) error {
	m.PerAddr, m.LineWaitS, m.LineMax = r.u16(), r.u16(), r.u32()
	if r.err == nil && (m.LineWaitS == 0) != (m.LineMax == 0) {
		r.fail(fmt.Errorf("a line of %d places and a wait of %d s: %w", m.LineMax, m.LineWaitS, ErrBadValue))
	}
	return r.done()
}

// Text says the place and the wait as a person reads them: "312th in
// line, about 6 s".
func (m *Queued) Text() string {
	return LineText(m.Place, time.Duration(m.WaitMS)*time.Millisecond)
}

// LineText says a place in line and the wait left as a person reads
// them: "312th in line, about 6 s", "2nd in line, about 2 min", "1st in
// line, any moment now".
func LineText(place uint32, wait time.Duration) string {
	var about string
	switch {
	case wait < time.Second:
		about = "any moment now"
	case wait < 90*time.Second:
		about = fmt.Sprintf("about %d s", (wait+time.Second/2)/time.Second)
	default:
		about = fmt.Sprintf("about %d min", (wait+time.Minute/2)/time.Minute)
	}
	return Ordinal(place) + " in line, " + about
}

// Ordinal writes n as an English ordinal: 1st, 2nd, 3rd, 4th, 11th, 312th.
func Ordinal(n uint32) string {
	suffix := "th"
	switch n % 100 {
	case 11, 12, 13:
	default:
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return fmt.Sprintf("%d%s", n, suffix)
}
