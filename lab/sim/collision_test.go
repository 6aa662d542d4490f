package sim

import (
	"testing"
	"time"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/server/world"
)

// TestCollisionCorrectsOnlyTheLoser: two players a cell apart both step
// into the cell between them at the same moment. The server lets in the one
// it processes first (the one with the shorter link); the other's
// prediction was wrong, and reconciliation corrects it exactly once.
func TestCollisionCorrectsOnlyTheLoser(t *testing.T) {
	for _, rate := range []int{0, 3, 20, 60} {
		w := New(world.Config{Rate: rate, Spawns: []grid.Pos{{X: 12, Y: 10}}})
		loser := w.Join("slow", client.Options{Latency: 250 * ms, Jitter: 10 * ms, Seed: 3})
		winner := w.Join("fast", client.Options{Latency: 40 * ms, Jitter: 10 * ms, Seed: 4})
		if a, b := loser.View().Server, winner.View().Server; a != (grid.Pos{X: 10, Y: 10}) || b != (grid.Pos{X: 12, Y: 10}) {
			t.Fatalf("spawned at %v and %v", a, b)
		}
		w.Advance(time.Second)
		loser.Press(grid.Right)
		winner.Press(grid.Left)
		if a, b := loser.View().Predicted, winner.View().Predicted; a != b {
			t.Fatalf("both should predict (11,10): %v, %v", a, b)
		}
		w.Advance(2 * time.Second)
		lv, wv := loser.View(), winner.View()
		if lv.Corrections != 1 || wv.Corrections != 0 {
			t.Errorf("rate %d: loser %d corrections, winner %d; want 1 and 0", rate, lv.Corrections, wv.Corrections)
		}
		if lv.Predicted != (grid.Pos{X: 10, Y: 10}) || wv.Predicted != (grid.Pos{X: 11, Y: 10}) {
			t.Errorf("rate %d: loser sees %v, winner %v", rate, lv.Predicted, wv.Predicted)
		}
		if c := lv.LastCorrection; c == nil || c.From != (grid.Pos{X: 11, Y: 10}) || c.To != (grid.Pos{X: 10, Y: 10}) || c.Reason != "blocked by another player" {
			t.Errorf("rate %d: correction %+v", rate, c)
		}
		if len(lv.Pending) != 0 || len(wv.Pending) != 0 {
			t.Errorf("rate %d: inputs left pending", rate)
		}
	}
}

// TestRefusedClientsAreForgotten: a connection the server refuses and
// closes does not linger in the server's books.
func TestRefusedClientsAreForgotten(t *testing.T) {
	w := New(world.Config{Rate: 20})
	for i := 0; i < 20; i++ {
		c := w.Join("bad\x1bname", client.Options{})
		if c.View().Err == nil {
			t.Fatal("a name with an escape sequence was accepted")
		}
	}
	w.Advance(time.Second)
	if st := w.Server().Stats(); st.Connections != 0 || st.Players != 0 {
		t.Fatalf("after 20 refusals the server still counts %d connections, %d players", st.Connections, st.Players)
	}
}
