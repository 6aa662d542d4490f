package protocol

import (
	"encoding/binary"
	"fmt"
)

// Version 6 brings the scale lab into the teacher's room: what a crowd
// costs the server. A teacher asks for a number of bots in its room and
// for the room's areas of interest on or off (Crowd); the server runs
// the bots in its own process, as players of the room that count
// against its caps like anyone, and tells the room's teachers what it
// did and why a cap stopped a step short (Crowded). Once a second it
// tells them what its own counters say of the last second (Counters):
// the registry its /metrics serves, never an estimate. None of these
// goes to a student or a spectator, nor to a client before version 6.

// CrowdSince is the first version that knows Crowd, Crowded and
// Counters.
const CrowdSince uint16 = 6

// Crowd is a teacher's: the bots it wants in its room (0 takes them all
// away) and the room's areas of interest on or off. The server gives as
// many as its caps allow and says so in a Crowded.
type Crowd struct {
	Bots     uint16
	AreasOff bool
}

// MaxCrowdNote is the longest Crowded.Note, in bytes.
const MaxCrowdNote = 255

// Crowded tells a room's teachers of version 6 what the room's crowd is:
// when one begins to teach, when a teacher asked (Crowd), and with each
// Counters.
type Crowded struct {
	// Asked is the bots the teachers asked for last; Given how many of
	// them the server runs (Asked, or fewer where a cap stops it); Bots
	// the bots in the room now, joined (they come over a second or so a
	// thousand).
	Asked, Given, Bots uint16
	// Most is the most bots the room may have now: the least of the
	// server's caps (bots for a room, players in the room, players in the
	// server) less the players who are not its bots.
	Most uint16
	// AreasOff says the room's areas of interest are off: each State
	// tells of every player.
	AreasOff bool
	// Note is the server's word on the last request: which cap stopped a
	// step short; "" if none did.
	Note string
}

// NoFigure is a Counters figure that was not measured: a mean of no
// tick, a platform that does not say its CPU time.
const NoFigure uint32 = 0xffffffff

// Counters tells a room's teachers of version 6, once a second, what the
// whole server's counters say of the last interval: the same registry
// its /metrics serves (gridlag_tick_duration_seconds,
// gridlag_socket_writes_total, gridlag_bytes_out_total over
// gridlag_players, gridlag_frames_out_total over
// gridlag_states_sent_total, process_cpu_seconds_total,
// process_resident_memory_bytes), in fixed point. A figure that cannot
// be said (no tick, no player, no State) is NoFigure.
type Counters struct {
	// IntervalMS is the interval's length; Players the server's players
	// at its end; Ticks the ticks in it.
	IntervalMS, Players, Ticks uint32
	// TickMeanNS is the mean time of a tick; TickP99NS the upper bound
	// of the histogram's bucket that holds the 99th percentile (NoFigure
	// too beyond the last bucket); BudgetNS the time between two ticks
	// of the room.
	TickMeanNS, TickP99NS, BudgetNS uint32
	// Writes is the write system calls to the clients' sockets a second;
	// BytesPerPlayer the bytes queued for the clients a second, per
	// player.
	Writes, BytesPerPlayer uint32
	// MessagesPerStateMilli is the frames queued for each State, the
	// State and what went beside it, in thousandths.
	MessagesPerStateMilli uint32
	// CPUPermyriad is the process's CPU time a second, in ten
	// thousandths of a core (10000: one core busy).
	CPUPermyriad uint32
	// RSS is the process's resident memory in bytes; 0 where the
	// platform does not say.
	RSS uint64
}

// countersLen is the size of a Counters' payload.
const countersLen = 10*4 + 8

// Type implements Message.
func (*Crowd) Type() Type { return TypeCrowd }

// Type implements Message.
func (*Crowded) Type() Type { return TypeCrowded }

// Type implements Message.
func (*Counters) Type() Type { return TypeCounters }

func (m *Crowd) appendPayload(b []byte) ([]byte, error) {
	b = binary.BigEndian.AppendUint16(b, m.Bots)
	return appendBool(b, m.AreasOff), nil
}

func (m *Crowd) decodePayload(r *reader) error {
	m.Bots = r.u16()
	m.AreasOff = r.bool()
	return r.done()
}

func (m *Crowded) appendPayload(b []byte) ([]byte, error) {
	if m.Given > m.Asked || m.Given > m.Most {
		return b, fmt.Errorf("crowded: %d given of %d asked, at most %d: %w", m.Given, m.Asked, m.Most, ErrBadValue)
	}
	for _, v := range []uint16{m.Asked, m.Given, m.Bots, m.Most} {
		b = binary.BigEndian.AppendUint16(b, v)
	}
	b = appendBool(b, m.AreasOff)
	return appendStr(b, m.Note)
}

func (m *Crowded) decodePayload(r *reader) error {
	m.Asked, m.Given, m.Bots, m.Most = r.u16(), r.u16(), r.u16(), r.u16()
	m.AreasOff = r.bool()
	m.Note = r.str()
	if r.err == nil && (m.Given > m.Asked || m.Given > m.Most) {
		r.fail(ErrBadValue)
	}
	return r.done()
}

func (m *Counters) appendPayload(b []byte) ([]byte, error) {
	for _, v := range m.fields() {
		b = binary.BigEndian.AppendUint32(b, *v)
	}
	return binary.BigEndian.AppendUint64(b, m.RSS), nil
}

func (m *Counters) decodePayload(r *reader) error {
	if r.err == nil && len(r.b) < countersLen {
		r.fail(ErrShort)
	}
	for _, v := range m.fields() {
		*v = r.u32()
	}
	m.RSS = r.u64()
	return r.done()
}

// fields are m's 32-bit figures in their order on the wire.
func (m *Counters) fields() []*uint32 {
	return []*uint32{&m.IntervalMS, &m.Players, &m.Ticks, &m.TickMeanNS, &m.TickP99NS, &m.BudgetNS,
		&m.Writes, &m.BytesPerPlayer, &m.MessagesPerStateMilli, &m.CPUPermyriad}
}
