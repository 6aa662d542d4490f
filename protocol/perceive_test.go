package protocol_test

import (
	"reflect"
	"strings"
	"testing"

	"gridlag/grid"
	"gridlag/protocol"
)

// TestPerceptionFitsAFrame: a Perception of the most trials, waiting
// students and names it may carry, each name of 16 four-byte characters
// and a note of the longest, encodes into one frame and comes back whole.
func TestPerceptionFitsAFrame(t *testing.T) {
	m := &protocol.Perception{Run: 9, Round: 3, Rounds: 120, Phase: protocol.TrialAnswer, LeftMS: 9000, Predict: 3,
		Students: protocol.MaxPerceptionStudents, Note: strings.Repeat("é", 127)}
	for i := range protocol.MaxPerceptionStudents {
		id := grid.PlayerID(i + 1)
		m.Waiting = append(m.Waiting, id)
		m.Names = append(m.Names, protocol.PlayerInfo{ID: id, Color: 1, Name: strings.Repeat("\U0001d504", protocol.MaxNameRunes)})
	}
	for i := range protocol.MaxPerceivedTrials {
		m.Trials = append(m.Trials, protocol.PerceivedTrial{Run: 1, Round: uint16(i/256 + 1), ID: grid.PlayerID(i%256 + 1),
			Predict: i%2 == 0, Answer: protocol.Laggy, RTTMS: 400, MeasuredMS: 401})
	}
	b, err := protocol.Marshal(m)
	if err != nil {
		t.Fatalf("the largest Perception: %v", err)
	}
	got, _, err := protocol.Unmarshal(b)
	if err != nil || !reflect.DeepEqual(got, m) {
		t.Fatalf("the largest Perception (%d bytes) came back %v", len(b), err)
	}
	m.Trials = append(m.Trials, m.Trials[0])
	if _, err := protocol.Marshal(m); err == nil {
		t.Error("one trial more than MaxPerceivedTrials encoded")
	}
}
