package protocol

import (
	"encoding/binary"
	"fmt"
	"math"

	"gridlag/grid"
)

// Overview is the server's view of the world, sent to spectators: every
// player's cell, the last input the server processed for them and the
// round trip the server measured to them. Names, colours and the roster
// come as Join and Leave; the update rate came in Spectating.
//
// One frame carries at most MaxOverviewPlayers players: a server with more
// lists those with the lowest IDs, and Total says how many there are.
type Overview struct {
	Tick    uint32           // the server's update tick
	TimeNS  uint64           // server time of this overview, ns since the server started
	Total   uint16           // players in the world; more than len(Players) when the list is capped
	Players []OverviewPlayer // sorted by ID
}

// OverviewPlayer is one player as the server sees it.
type OverviewPlayer struct {
	ID    grid.PlayerID
	Bot   bool // the player said it is a bot
	Pos   grid.Pos
	Ack   uint32 // the last input Seq the server processed for this player
	RTTMS uint16 // the round trip the server measured, in ms; NoRTT until measured
}

// NoRTT is OverviewPlayer.RTTMS before the server has measured a round
// trip. A measured round trip is at most NoRTT-1 ms.
const NoRTT = math.MaxUint16

// The layout of an Overview frame body: the type, Tick, TimeNS, Total and
// the player count, then per player ID, Bot, X, Y, Ack and RTTMS.
const (
	overviewHeadLen   = 1 + 4 + 8 + 2 + 2
	overviewPlayerLen = 2 + 1 + 2 + 2 + 4 + 2

	// MaxOverviewPlayers is the most players one Overview frame can carry.
	MaxOverviewPlayers = (MaxFrame - overviewHeadLen) / overviewPlayerLen
)

// Type implements Message.
func (*Overview) Type() Type { return TypeOverview }

func (m *Overview) appendPayload(b []byte) ([]byte, error) {
	if len(m.Players) > int(m.Total) {
		return b, fmt.Errorf("%d players listed of %d in all: %w", len(m.Players), m.Total, ErrBadValue)
	}
	b = binary.BigEndian.AppendUint32(b, m.Tick)
	b = binary.BigEndian.AppendUint64(b, m.TimeNS)
	b = binary.BigEndian.AppendUint16(b, m.Total)
	b = binary.BigEndian.AppendUint16(b, uint16(len(m.Players)))
	for _, p := range m.Players {
		if p.ID == 0 || p.Pos.X < 0 || p.Pos.Y < 0 || p.Pos.X > math.MaxUint16 || p.Pos.Y > math.MaxUint16 {
			return b, fmt.Errorf("player %d at %v: %w", p.ID, p.Pos, ErrBadValue)
		}
		b = binary.BigEndian.AppendUint16(b, uint16(p.ID))
		b = appendBool(b, p.Bot)
		b = binary.BigEndian.AppendUint16(b, uint16(p.Pos.X))
		b = binary.BigEndian.AppendUint16(b, uint16(p.Pos.Y))
		b = binary.BigEndian.AppendUint32(b, p.Ack)
		b = binary.BigEndian.AppendUint16(b, p.RTTMS)
	}
	return b, nil
}

func (m *Overview) decodePayload(r *reader) error {
	m.Tick = r.u32()
	m.TimeNS = r.u64()
	m.Total = r.u16()
	n := r.count(overviewPlayerLen)
	if n > int(m.Total) {
		return fmt.Errorf("%d players listed of %d in all: %w", n, m.Total, ErrBadValue)
	}
	m.Players = make([]OverviewPlayer, n)
	for i := range m.Players {
		p := &m.Players[i]
		p.ID = grid.PlayerID(r.u16())
		if p.ID == 0 {
			r.fail(ErrBadValue)
		}
		p.Bot = r.bool()
		p.Pos = grid.Pos{X: int(r.u16()), Y: int(r.u16())}
		p.Ack = r.u32()
		p.RTTMS = r.u16()
	}
	return r.done()
}
