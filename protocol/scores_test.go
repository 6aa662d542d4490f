package protocol_test

import (
	"errors"
	"testing"

	"gridlag/grid"
	"gridlag/protocol"
)

// TestScoresFitsItsFrame: a scoreboard of MaxScorePlayers players is one
// frame, and one more is refused, not cut.
func TestScoresFitsItsFrame(t *testing.T) {
	s := &protocol.Scores{Round: 1, Players: make([]protocol.ScoreEntry, protocol.MaxScorePlayers)}
	for i := range s.Players {
		s.Players[i] = protocol.ScoreEntry{ID: grid.PlayerID(i + 1), Points: 65535}
	}
	b := mustMarshal(t, s)
	if len(b) > protocol.MaxFrame+protocol.HeaderLen {
		t.Errorf("%d bytes", len(b))
	}
	if protocol.MaxScorePlayers < protocol.MaxStatePlayers {
		t.Errorf("MaxScorePlayers %d < MaxStatePlayers %d: a full world's scoreboard does not fit", protocol.MaxScorePlayers, protocol.MaxStatePlayers)
	}
	s.Players = append(s.Players, protocol.ScoreEntry{ID: 65535})
	if _, err := protocol.Marshal(s); !errors.Is(err, protocol.ErrTooLarge) {
		t.Errorf("one more player: %v, want ErrTooLarge", err)
	}
}
