package protocol

import (
	"encoding/binary"
	"fmt"

	"gridlag/grid"
)

// Scores is the scoreboard and the round, sent to every player when it
// changes: a player joins or leaves, scores, is frozen or thaws, a round
// ends. LeftMS is the time left in the round when the server sent it.
// Winner is the winner of the round that just ended (0 if none, or if no
// round has ended yet), with WinnerPoints.
//
// One frame carries at most MaxScorePlayers entries: a server with more
// lists those with the lowest IDs.
type Scores struct {
	Round        uint16
	LeftMS       uint32
	Winner       grid.PlayerID
	WinnerPoints uint16
	Players      []ScoreEntry // sorted by ID
}

// ScoreEntry is one player on the scoreboard.
type ScoreEntry struct {
	ID     grid.PlayerID
	Bot    bool // the player said it is a bot
	Frozen bool // tagged, waiting to respawn
	Points uint16
}

// The layout of a Scores frame body: the type, Round, LeftMS, Winner,
// WinnerPoints and the count, then per player ID, Bot, Frozen and Points.
const (
	scoresHeadLen = 1 + 2 + 4 + 2 + 2 + 2
	scoreEntryLen = 2 + 1 + 1 + 2

	// MaxScorePlayers is the most players one Scores frame can carry.
	MaxScorePlayers = (MaxFrame - scoresHeadLen) / scoreEntryLen
)

// Type implements Message.
func (*Scores) Type() Type { return TypeScores }

func (m *Scores) appendPayload(b []byte) ([]byte, error) {
	if len(m.Players) > MaxScorePlayers {
		return b, fmt.Errorf("%d players: %w", len(m.Players), ErrTooLarge)
	}
	b = binary.BigEndian.AppendUint16(b, m.Round)
	b = binary.BigEndian.AppendUint32(b, m.LeftMS)
	b = binary.BigEndian.AppendUint16(b, uint16(m.Winner))
	b = binary.BigEndian.AppendUint16(b, m.WinnerPoints)
	b = binary.BigEndian.AppendUint16(b, uint16(len(m.Players)))
	for _, p := range m.Players {
		if p.ID == 0 {
			return b, fmt.Errorf("player ID 0: %w", ErrBadValue)
		}
		b = binary.BigEndian.AppendUint16(b, uint16(p.ID))
		b = appendBool(b, p.Bot)
		b = appendBool(b, p.Frozen)
		b = binary.BigEndian.AppendUint16(b, p.Points)
	}
	return b, nil
}

func (m *Scores) decodePayload(r *reader) error {
	m.Round = r.u16()
	m.LeftMS = r.u32()
	m.Winner = grid.PlayerID(r.u16())
	m.WinnerPoints = r.u16()
	n := r.count(scoreEntryLen)
	m.Players = make([]ScoreEntry, n)
	for i := range m.Players {
		p := &m.Players[i]
		p.ID = grid.PlayerID(r.u16())
		if p.ID == 0 {
			r.fail(ErrBadValue)
		}
		p.Bot = r.bool()
		p.Frozen = r.bool()
		p.Points = r.u16()
	}
	return r.done()
}
