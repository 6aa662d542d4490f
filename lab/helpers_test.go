package lab

import (
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/lab/sim"
	"gridlag/protocol"
)

const ms = time.Millisecond

// wall is a wall clock the test moves by hand.
type wall struct{ t time.Time }

func (w *wall) now() time.Time       { return w.t }
func (w *wall) pass(d time.Duration) { w.t = w.t.Add(d) }

// newLab builds the lab of cfg on a hand-moved wall clock.
func newLab(t *testing.T, cfg Config) (*Lab, *wall) {
	t.Helper()
	w := &wall{t: time.Date(2026, 11, 23, 20, 0, 0, 0, time.UTC)}
	l, err := New(cfg, w.now)
	if err != nil {
		t.Fatal(err)
	}
	return l, w
}

// inputs returns the Inputs on a player's link one way.
func inputs(p *Player, way sim.Way) []sim.Flight { return ofType(p, way, protocol.TypeInput) }

func ofType(p *Player, way sim.Way, typ protocol.Type) []sim.Flight {
	var out []sim.Flight
	for _, f := range p.InFlight(way, nil) {
		if f.Type == typ {
			out = append(out, f)
		}
	}
	return out
}

// serverHas returns where the server has player i and its ack.
func serverHas(t *testing.T, l *Lab, i int) (grid.Pos, uint32) {
	t.Helper()
	for _, sp := range l.Overview().Players {
		if sp.Name == l.Players()[i].Name() {
			return sp.Pos, sp.Ack
		}
	}
	t.Fatalf("the server does not have player %d", i+1)
	return grid.Pos{}, 0
}

func seqs(p *Player) []uint32 {
	var out []uint32
	for _, in := range p.View().Pending {
		out = append(out, in.Seq)
	}
	return out
}
