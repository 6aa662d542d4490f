package hub

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"gridlag/protocol"
	"gridlag/server/world"
)

// ticking plays the adapter's part of admission by load on the rig's
// virtual clock: for d, tick by tick, it advances the hub and reports
// each tick's cost, as cost says for the members the hub has.
func (r *rig) ticking(d time.Duration, cost func(members int) time.Duration) {
	interval := time.Second / time.Duration(r.h.Config().Rate)
	for end := r.now + d; r.now < end; {
		r.advance(interval)
		r.h.Load(r.now, cost(r.h.members()))
		r.flush()
	}
}

// perMember is a server whose ticks cost each a fixed part and so much
// per member: the linear estimate's model.
func perMember(fixed, each time.Duration) func(int) time.Duration {
	return func(members int) time.Duration { return fixed + time.Duration(members)*each }
}

// capacityRefusal reports whether the last message p got is the refusal
// for capacity, failing the test on any other refusal.
func capacityRefused(t *testing.T, p *peer) bool {
	t.Helper()
	if !p.closed {
		return false
	}
	e, ok := p.got[len(p.got)-1].(*protocol.Error)
	if !ok || e.Code != protocol.ErrCodeFull || !strings.HasPrefix(e.Text, "server full: at capacity") {
		t.Fatalf("refused with %+v, want Error %d \"server full: at capacity ...\"", p.got[len(p.got)-1], protocol.ErrCodeFull)
	}
	return true
}

// The server protects the players it has: once its ticks cost their
// budget, newcomers are refused with a reason that says so, while the
// players in keep their States, a player coming back (Resume) and a lobby
// are let in; when the cost falls again newcomers are let in again, and
// the log hears of both.
func TestCapacityRefusesNewcomersPastTheTickBudget(t *testing.T) {
	r := newRig(t, Options{Config: world.Config{Rate: 20, Resume: 10 * time.Second}, TickBudget: 25 * ms, JoinRate: 1000})
	cost := perMember(time.Millisecond, 2*time.Millisecond) // 12 members cost 25 ms
	var in []*peer
	var token [16]byte
	refused := 0
	for i := range 30 {
		p := r.dial(host(i + 1))
		p.send(&protocol.Hello{Version: protocol.Version, Name: fmt.Sprintf("p%d", i)})
		if capacityRefused(t, p) {
			refused++
		} else {
			w := p.next("a Welcome").(*protocol.Welcome)
			token = w.Token
			in = append(in, p)
		}
		r.ticking(100*ms, cost)
	}
	if len(in) < 10 || len(in) > 12 {
		t.Errorf("%d players let in by ticks of 1 ms + 2 ms a member within 25 ms, want 10 to 12 (the estimate's lag is counted)", len(in))
	}
	if refused != 30-len(in) {
		t.Errorf("%d refused of %d turned away", refused, 30-len(in))
	}
	if l := r.h.LoadAt(r.now); !l.Full || l.Cost < 20*ms || l.Ticks < 10 {
		t.Errorf("the hub reads %+v, want its ticks' cost near the budget and the door shut", l)
	}
	if n := r.noted(NoteCapacity); len(n) != 1 || !n[0].Full || !strings.Contains(n[0].Reason, "25ms budget") {
		t.Errorf("capacity notes %+v, want one saying the server is full and why", n)
	}

	// The players in play on: each gets its State every tick.
	for _, p := range in {
		before := len(p.got)
		r.ticking(50*ms, cost)
		if _, ok := p.got[len(p.got)-1].(*protocol.State); !ok || len(p.got) == before {
			t.Fatalf("a player in got %+v, want its State", p.got[before:])
		}
	}
	// A spectator is a newcomer too; a lobby and a player coming back are not.
	s := r.dial(host(100))
	s.send(&protocol.Spectate{Version: protocol.Version})
	if !capacityRefused(t, s) {
		t.Error("a spectator was let in at capacity")
	}
	if list := r.listRooms(); len(list.Rooms) != 1 || int(list.Rooms[0].Players) != len(in) {
		t.Errorf("the lobby at capacity: %+v", list)
	}
	last := in[len(in)-1]
	last.gone("connection closed by the client")
	back := r.dial(host(101))
	back.send(&protocol.Resume{Version: protocol.Version, Token: token})
	if _, ok := back.next("the resume's Welcome").(*protocol.Welcome); !ok {
		t.Fatalf("a player coming back at capacity got %+v, want its Welcome", back.got)
	}

	// Half the players leave: the ticks cost less, the door opens.
	for _, p := range in[:len(in)/2] {
		p.send(&protocol.Bye{Reason: "home"})
	}
	r.ticking(2*LoadWindow, cost)
	late := r.dial(host(102))
	late.send(&protocol.Hello{Version: protocol.Version, Name: "late"})
	if capacityRefused(t, late) {
		t.Errorf("a newcomer refused once half the players left: %+v", r.h.LoadAt(r.now))
	}
	if n := r.noted(NoteCapacity); len(n) != 2 || n[1].Full || !strings.HasPrefix(n[1].Reason, "below capacity again") {
		t.Errorf("capacity notes %+v, want the second saying newcomers are let in again", n)
	}
}

// One slow tick (a garbage collection, another process on the core) does
// not shut the door: the hub reads the 90th percentile of the last
// second's ticks. A second's worth of them does.
func TestCapacityOneSlowTickDoesNotShutTheDoor(t *testing.T) {
	r := newRig(t, Options{Config: world.Config{Rate: 20}, TickBudget: 25 * ms})
	n := 0
	cost := func(int) time.Duration {
		n++
		if n%20 == 0 {
			return 200 * ms
		}
		return 2 * ms
	}
	r.ticking(3*time.Second, cost)
	p := r.dial(host(1))
	p.join("one", "")
	if l := r.h.LoadAt(r.now); l.Full || l.Cost != 2*ms {
		t.Errorf("with one slow tick a second the hub reads %+v, want 2ms and an open door", l)
	}
	r.ticking(time.Second, func(int) time.Duration { return 30 * ms })
	q := r.dial(host(2))
	q.send(&protocol.Hello{Version: protocol.Version, Name: "two"})
	if !capacityRefused(t, q) {
		t.Errorf("a second of ticks over the budget let a newcomer in: %+v", r.h.LoadAt(r.now))
	}
}

// Without a budget, or without an adapter reporting the ticks' costs, a
// hub refuses nobody for load; below half the budget, nobody either, so
// that a quiet server's first players are never judged on a tick or two;
// nor below the load floor, whatever the ticks cost (a class of 40 on a
// busy laptop).
func TestCapacityOffWithoutBudgetOrMeasures(t *testing.T) {
	heavy := func(int) time.Duration { return time.Second }
	for _, tc := range []struct {
		name   string
		budget time.Duration
		cost   func(int) time.Duration
		floor  int
	}{
		{"no budget", 0, heavy, 0},
		{"no measures", 25 * ms, nil, 0},
		{"under half the budget", 25 * ms, perMember(12*ms, 0), 0},
		{"under the load floor", 25 * ms, heavy, 41},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, Options{Config: world.Config{Rate: 20}, TickBudget: tc.budget, JoinRate: 1000, LoadFloor: tc.floor})
			for i := range 40 {
				if tc.cost != nil {
					r.ticking(50*ms, tc.cost)
				} else {
					r.advance(50 * ms)
				}
				p := r.dial(host(i + 1))
				p.join(fmt.Sprintf("p%d", i), "")
			}
		})
	}
}

// A crowd joining at once, within the second the ticks' costs lag
// behind, is let in only as far as the estimate holds: members ×
// budget / cost, counted with those who joined since.
func TestCapacityCountsACrowdJoiningAtOnce(t *testing.T) {
	r := newRig(t, Options{Config: world.Config{Rate: 20}, TickBudget: 25 * ms, JoinRate: 1000})
	cost := perMember(time.Millisecond, 2*time.Millisecond)
	for i := range 8 {
		r.dial(host(i+1)).join(fmt.Sprintf("p%d", i), "")
	}
	r.ticking(LoadWindow, cost) // 8 members cost 17 ms: the estimate holds 11
	in := 0
	for i := range 10 {
		p := r.dial(host(i + 20))
		p.send(&protocol.Hello{Version: protocol.Version, Name: fmt.Sprintf("q%d", i)})
		if !capacityRefused(t, p) {
			in++
		}
	}
	if in != 3 {
		t.Errorf("%d of a crowd of 10 let in at once to 8 players costing 17 of 25 ms, want 3 (to 11)", in)
	}
}

// While a crowd joins and the ticks' costs swing about the budget (one
// tick in eight over it, so that the window's 90th percentile is over it
// for a tick or two, then well under), the log hears that the server is
// at capacity once, not in and out of it with every tick: the server is
// below capacity again only a LoadWindow after the last refusal.
func TestCapacityNoteDoesNotFlapWhileCostsSwing(t *testing.T) {
	r := newRig(t, Options{Config: world.Config{Rate: 20}, TickBudget: 25 * ms, JoinRate: 100000})
	n := 0
	swing := func(int) time.Duration {
		n++
		if n%8 == 0 {
			return 30 * ms
		}
		return 10 * ms
	}
	refused := 0
	for i := range 60 {
		p := r.dial(host(i + 1))
		p.send(&protocol.Hello{Version: protocol.Version, Name: fmt.Sprintf("p%d", i)})
		if capacityRefused(t, p) {
			refused++
		}
		r.ticking(50*ms, swing) // one newcomer a tick, for 3 s
	}
	if refused < 10 {
		t.Errorf("%d of 60 refused by ticks costing 30 ms of 25 one in eight, want many", refused)
	}
	if notes := r.noted(NoteCapacity); len(notes) != 1 || !notes[0].Full {
		t.Errorf("capacity notes %+v over 3 s of swinging costs, want one saying the server is full", notes)
	}
	r.ticking(2*LoadWindow, func(int) time.Duration { return 5 * ms })
	if notes := r.noted(NoteCapacity); len(notes) != 2 || notes[1].Full {
		t.Errorf("capacity notes %+v once the costs fell, want the second saying newcomers are let in again", notes)
	}
}

// At the load floor the door shuts as it would without one: the floor
// spares a few players a busy machine, not a crowd its cost.
func TestCapacityRefusesFromTheLoadFloor(t *testing.T) {
	r := newRig(t, Options{Config: world.Config{Rate: 20}, TickBudget: 25 * ms, JoinRate: 1000, LoadFloor: 5})
	for i := range 5 {
		r.dial(host(i+1)).join(fmt.Sprintf("p%d", i), "")
		r.ticking(50*ms, func(int) time.Duration { return 40 * ms })
	}
	r.ticking(LoadWindow, func(int) time.Duration { return 40 * ms })
	p := r.dial(host(20))
	p.send(&protocol.Hello{Version: protocol.Version, Name: "sixth"})
	if !capacityRefused(t, p) {
		t.Errorf("a sixth player let in to 5 at the floor whose ticks cost 40 of 25 ms: %+v", r.h.LoadAt(r.now))
	}
}
