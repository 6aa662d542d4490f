package protocol_test

import (
	"errors"
	"testing"

	"gridlag/grid"
	"gridlag/protocol"
)

// bigOverview is an Overview listing n players of n.
func bigOverview(n int) *protocol.Overview {
	o := &protocol.Overview{Tick: 1, TimeNS: 2, Total: uint16(n), Players: make([]protocol.OverviewPlayer, n)}
	for i := range o.Players {
		o.Players[i] = protocol.OverviewPlayer{ID: grid.PlayerID(i + 1), Pos: grid.Pos{X: i % 1024, Y: i / 1024}, Ack: uint32(i), RTTMS: protocol.NoRTT}
	}
	return o
}

// TestMaxOverviewPlayers: the largest Overview fills at most one frame and
// decodes back; one player more does not encode.
func TestMaxOverviewPlayers(t *testing.T) {
	b, err := protocol.Marshal(bigOverview(protocol.MaxOverviewPlayers))
	if err != nil {
		t.Fatalf("an Overview of MaxOverviewPlayers players does not encode: %v", err)
	}
	if len(b)-protocol.HeaderLen > protocol.MaxFrame || len(b)-protocol.HeaderLen+13 <= protocol.MaxFrame {
		t.Errorf("an Overview of MaxOverviewPlayers players is a %d-byte body: room for one more in %d", len(b)-protocol.HeaderLen, protocol.MaxFrame)
	}
	m, _, err := protocol.Unmarshal(b)
	if err != nil || len(m.(*protocol.Overview).Players) != protocol.MaxOverviewPlayers {
		t.Fatalf("the largest Overview does not decode back: %v", err)
	}
	if _, err := protocol.Marshal(bigOverview(protocol.MaxOverviewPlayers + 1)); !errors.Is(err, protocol.ErrTooLarge) {
		t.Errorf("an Overview of one player too many: %v, want ErrTooLarge", err)
	}
}
