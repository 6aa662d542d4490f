package protocol

import (
	"encoding/binary"
	"fmt"

	"gridlag/grid"
)

// Version 4 tells a player of spawn protection and gives it the room's
// scoreboard, names included, whoever is in view.

// Protect says that player ID cannot be tagged until the server time
// UntilNS (the clock of State.TimeNS): it has just joined or respawned.
// The server sends it to a player about itself and about each protected
// player it sees (after that player's Join, or when it respawns in
// view), and to a spectator about every player. A zap judged against the
// world as it was before UntilNS does not tag the player.
type Protect struct {
	ID      grid.PlayerID
	UntilNS uint64
}

// Ranking is the room's scoreboard, sent to a player (of version 4) in
// place of Scores, whenever Scores would be: the round, the players online
// and the recipient's rank among them, the last round's winner and the
// best players, however far away they are.
//
// Names travel only where the recipient lacks them: an entry's Info is
// absent (Named false) when the previous Ranking on the connection listed
// the same player, whose name and colour stand. WinnerName is empty when
// the previous Ranking named the same winner.
type Ranking struct {
	Round  uint16
	LeftMS uint32 // time left in the round when the server sent it
	Online uint16 // players in the room, the recipient included
	Rank   uint16 // the recipient's place: 1 + the players with more points
	// Winner is the winner of the last round (0 if none, or if no round
	// has ended yet), with its points and name.
	Winner       grid.PlayerID
	WinnerPoints uint16
	WinnerName   string
	// Players are the best players, most points first (lowest ID first
	// among equals), and the recipient, at its place.
	Players []RankEntry
}

// RankEntry is one player of a Ranking.
type RankEntry struct {
	ID     grid.PlayerID
	Bot    bool // the player said it is a bot
	Frozen bool // tagged, waiting to respawn
	Points uint16
	// Named says Color and Name follow on the wire; without it, they are
	// those the previous Ranking gave the same ID.
	Named bool
	Color uint8
	Name  string
}

// The flags byte of a RankEntry.
const (
	rankBot    = 1 << 0
	rankFrozen = 1 << 1
	rankNamed  = 1 << 2
	rankFlags  = rankBot | rankFrozen | rankNamed
)

// rankEntryMin is the size of an unnamed RankEntry: ID, flags, points.
const rankEntryMin = 2 + 1 + 2

// Type implements Message.
func (*Protect) Type() Type { return TypeProtect }

// Type implements Message.
func (*Ranking) Type() Type { return TypeRanking }

func (m *Protect) appendPayload(b []byte) ([]byte, error) {
	if m.ID == 0 {
		return b, fmt.Errorf("player ID 0: %w", ErrBadValue)
	}
	b = binary.BigEndian.AppendUint16(b, uint16(m.ID))
	return binary.BigEndian.AppendUint64(b, m.UntilNS), nil
}

func (m *Protect) decodePayload(r *reader) error {
	m.ID = grid.PlayerID(r.u16())
	m.UntilNS = r.u64()
	if r.err == nil && m.ID == 0 {
		r.fail(ErrBadValue)
	}
	return r.done()
}

func (m *Ranking) appendPayload(b []byte) ([]byte, error) {
	if len(m.Players) > MaxFrame/rankEntryMin {
		return b, fmt.Errorf("%d players: %w", len(m.Players), ErrTooLarge)
	}
	b = binary.BigEndian.AppendUint16(b, m.Round)
	b = binary.BigEndian.AppendUint32(b, m.LeftMS)
	b = binary.BigEndian.AppendUint16(b, m.Online)
	b = binary.BigEndian.AppendUint16(b, m.Rank)
	b = binary.BigEndian.AppendUint16(b, uint16(m.Winner))
	b = binary.BigEndian.AppendUint16(b, m.WinnerPoints)
	b, err := appendStr(b, m.WinnerName)
	if err != nil {
		return b, err
	}
	b = binary.BigEndian.AppendUint16(b, uint16(len(m.Players)))
	for _, p := range m.Players {
		if p.ID == 0 {
			return b, fmt.Errorf("player ID 0: %w", ErrBadValue)
		}
		if !p.Named && (p.Color != 0 || p.Name != "") {
			return b, fmt.Errorf("player %d: a name without Named: %w", p.ID, ErrBadValue)
		}
		b = binary.BigEndian.AppendUint16(b, uint16(p.ID))
		var flags byte
		if p.Bot {
			flags |= rankBot
		}
		if p.Frozen {
			flags |= rankFrozen
		}
		if p.Named {
			flags |= rankNamed
		}
		b = append(b, flags)
		b = binary.BigEndian.AppendUint16(b, p.Points)
		if p.Named {
			b = append(b, p.Color)
			if b, err = appendStr(b, p.Name); err != nil {
				return b, err
			}
		}
	}
	return b, nil
}

func (m *Ranking) decodePayload(r *reader) error {
	m.Round = r.u16()
	m.LeftMS = r.u32()
	m.Online = r.u16()
	m.Rank = r.u16()
	m.Winner = grid.PlayerID(r.u16())
	m.WinnerPoints = r.u16()
	m.WinnerName = r.str()
	n := r.count(rankEntryMin)
	m.Players = make([]RankEntry, 0, n)
	for i := 0; i < n && r.err == nil; i++ {
		p := RankEntry{ID: grid.PlayerID(r.u16())}
		flags := r.u8()
		p.Points = r.u16()
		p.Bot, p.Frozen, p.Named = flags&rankBot != 0, flags&rankFrozen != 0, flags&rankNamed != 0
		if p.Named {
			p.Color = r.u8()
			p.Name = r.str()
		}
		if r.err == nil && (p.ID == 0 || flags&^rankFlags != 0) {
			r.fail(ErrBadValue)
		}
		m.Players = append(m.Players, p)
	}
	return r.done()
}
