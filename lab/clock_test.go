package lab

import (
	"reflect"
	"testing"
	"time"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/lab/scenario"
	"gridlag/lab/sim"
	"gridlag/protocol"
)

// TestSpeedTenth: at 1/10, one second of wall time is 100 ms of virtual
// time; at full speed, a second is a second; changing speed does not make
// the virtual time jump.
func TestSpeedTenth(t *testing.T) {
	cfg := Default()
	cfg.Speed = Tenth
	l, w := newLab(t, cfg)
	w.pass(time.Second)
	l.Sync()
	if l.Now() != 100*ms {
		t.Fatalf("at 1/10, one wall second gave %v of virtual time, want 100ms", l.Now())
	}
	l.SetSpeed(Full)
	l.Sync()
	if l.Now() != 100*ms {
		t.Fatalf("changing speed moved the virtual time to %v", l.Now())
	}
	w.pass(time.Second)
	l.Sync()
	if l.Now() != 1100*ms || l.Speed() != Full {
		t.Fatalf("at %v, one wall second later the lab is at %v, want 1.1s", l.Speed(), l.Now())
	}
}

// TestSpeedsCycleAndParse: the speed key goes 1x, 1/2, 1/4, 1/10 and back
// to 1x, and the -speed flag reads what the screen writes.
func TestSpeedsCycleAndParse(t *testing.T) {
	s := Full
	var names []string
	for range 4 {
		names = append(names, s.String())
		if got, err := ParseSpeed(s.String()); err != nil || got != s {
			t.Fatalf("ParseSpeed(%q) = %v, %v", s, got, err)
		}
		s = s.Next()
	}
	if s != Full || !reflect.DeepEqual(names, []string{"1x", "1/2", "1/4", "1/10"}) {
		t.Fatalf("speeds %v, then %v", names, s)
	}
	if _, err := ParseSpeed("2x"); err == nil {
		t.Fatal("ParseSpeed accepted 2x")
	}
}

// frozen is everything the screen draws from the lab.
type frozen struct {
	Now     time.Duration
	Views   []any
	Flights [][]sim.Flight
	Server  client.WorldView
	Tick    uint64
}

func snapshot(l *Lab) frozen {
	f := frozen{Now: l.Now(), Server: l.Overview(), Tick: l.Tick()}
	for _, p := range l.Players() {
		f.Views = append(f.Views, p.View())
		f.Flights = append(f.Flights, p.InFlight(sim.Up, nil), p.InFlight(sim.Down, nil))
	}
	return f
}

// TestPauseFreezesEverything: while paused, the views (ledger ages
// included), the messages in flight and their progress, and the server's
// facts are the same at any wall time; on Resume the clock goes on from
// where it stopped, without making up the wall time spent paused.
func TestPauseFreezesEverything(t *testing.T) {
	l, w := newLab(t, Default())
	l.Players()[0].Press(grid.Right)
	l.Players()[1].Press(grid.Up)
	w.pass(80 * ms)
	l.Sync()
	l.Pause()
	before := snapshot(l)
	if len(l.Players()[0].View().Pending) != 1 || len(before.Flights[0]) == 0 {
		t.Fatalf("nothing pending or in flight to freeze: %+v", before)
	}
	for range 3 {
		w.pass(700 * ms)
		l.Sync()
		if got := snapshot(l); !reflect.DeepEqual(got, before) {
			t.Fatalf("paused, the lab changed:\n%+v\nwas\n%+v", got, before)
		}
	}
	if !l.Paused() {
		t.Fatal("not paused")
	}
	age := l.Players()[0].View().Pending[0].Age
	if age != 80*ms {
		t.Fatalf("the ledger shows #1 aged %v, want the 80ms it had at the pause", age)
	}
	l.Resume()
	w.pass(20 * ms)
	l.Sync()
	if got := l.Players()[0].View().Pending[0].Age; got != 100*ms || l.Now() != 100*ms {
		t.Fatalf("20ms after Resume: #1 aged %v at %v, want 100ms", got, l.Now())
	}
}

// TestStepDoesOneEvent: paused, each Step lands the virtual time on
// exactly the moment Next named, whatever the wall clock does, and does
// only what is due then: at the article's 125 ms, #1 has reached the
// server, #2 is still on its way up, the State answering #1 has just left,
// and Player 1 still waits for both.
func TestStepDoesOneEvent(t *testing.T) {
	cfg := Default()
	cfg.Rate = 0
	cfg.Players[0].Presses = []scenario.Press{{At: 0, Dir: grid.Right}, {At: 100 * ms, Dir: grid.Right}}
	l, w := newLab(t, cfg)
	l.Pause()
	p1 := l.Players()[0]
	w.pass(time.Hour)
	l.Sync()
	if got := seqs(p1); len(got) != 0 {
		t.Fatalf("paused before the press at 0, a frame played it: pending %v", got)
	}
	for l.Now() < 125*ms {
		next := l.Next()
		if next < l.Now() {
			t.Fatalf("at %v next is %v", l.Now(), next)
		}
		w.pass(time.Hour) // the wall clock does not matter while paused
		if l.Step(); l.Now() != next {
			t.Fatalf("stepped to %v, want %v", l.Now(), next)
		}
	}
	if l.Now() != 125*ms {
		t.Fatalf("stepped over 125ms to %v", l.Now())
	}
	if pos, ack := serverHas(t, l, 0); pos != (grid.Pos{X: 11, Y: 10}) || ack != 1 {
		t.Fatalf("at 125ms the server has Player 1 at %v ack #%d, want (11,10) ack #1", pos, ack)
	}
	if up := inputs(p1, sim.Up); len(up) != 1 || up[0].Seq != 2 || up[0].Progress != 0.2 {
		t.Fatalf("at 125ms going up %+v, want #2 a fifth of the way", up)
	}
	if down := ofType(p1, sim.Down, protocol.TypeState); len(down) != 1 || down[0].Ack != 1 || down[0].Progress != 0 {
		t.Fatalf("at 125ms coming down %+v, want the State ack #1 just sent", down)
	}
	if got := seqs(p1); !reflect.DeepEqual(got, []uint32{1, 2}) {
		t.Fatalf("at 125ms Player 1 waits for %v, want [1 2]", got)
	}
}
