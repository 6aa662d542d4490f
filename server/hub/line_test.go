package hub

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
	"gridlag/server/world"
)

// lineOpts is a server with a line: 20 Hz, a 25 ms tick budget, a minute's
// wait at most, no floor (the pace counts from the first newcomer).
func lineOpts() Options {
	return Options{Config: world.Config{Rate: 20, MaxPlayers: 1000}, TickBudget: 25 * ms, LineWait: time.Minute, JoinRate: 1000}
}

// spendAllowance says Hello from 25 addresses: the first tick's
// allowance, 25 at 1 ms a join.
func spendAllowance(r *rig) {
	for i := range 25 {
		hello(r.dial(host(i+1)), fmt.Sprintf("in%d", i))
	}
}

// queueEach says Hello from n more addresses, which wait in line.
func queueEach(r *rig, n int) []*peer {
	var waiting []*peer
	for i := range n {
		p := r.dial(host(50 + i))
		hello(p, fmt.Sprintf("w%d", i))
		waiting = append(waiting, p)
	}
	return waiting
}

// hello says Hello as a client of version 6 named name.
func hello(p *peer, name string) { p.send(&protocol.Hello{Version: protocol.Version, Name: name}) }

// placesTold returns the places p was told in line, in order.
func placesTold(p *peer) []uint32 {
	var places []uint32
	for _, m := range p.got {
		if q, ok := m.(*protocol.Queued); ok {
			places = append(places, q.Place)
		}
	}
	return places
}

// welcomed reports whether p got its Welcome, after any Queued.
func welcomed(p *peer) bool {
	for _, m := range p.got {
		switch m.(type) {
		case *protocol.Welcome:
			return true
		case *protocol.Queued:
		default:
			return false
		}
	}
	return false
}

// A burst the server could not take at once waits in line instead of
// being refused: each newcomer is told the rules of admission and, if it
// must wait, its place, which then falls, about once a second, until its
// Welcome; the line moves at the pace the ticks' headroom allows for the
// joins as measured apart from the ticks (5 ms each here: about 4 a
// tick), and nobody is refused.
func TestLineTakesABurstAtThePaceOfTheHeadroom(t *testing.T) {
	r := newRig(t, lineOpts())
	r.joinEach = 5 * ms
	cost := perMember(ms, 50*time.Microsecond) // 200 members cost 11 ms: the budget holds them all
	var ps []*peer
	for i := range 200 {
		p := r.dial(host(i + 1))
		hello(p, fmt.Sprintf("p%d", i))
		ps = append(ps, p)
	}
	at := 0
	for i, p := range ps {
		a := p.admission
		if a == nil || a.PerAddr != uint16(DefaultMaxPlayersPerAddr) || a.LineWaitS != 60 || a.LineMax != DefaultLineMax {
			t.Fatalf("newcomer %d was told the rules %+v, want %d per address, a line of %d, 60 s at most", i, a, DefaultMaxPlayersPerAddr, DefaultLineMax)
		}
		if len(p.got) > 0 {
			if _, ok := p.got[0].(*protocol.Welcome); ok {
				at++
			}
		}
	}
	if at == 0 || at > 25 {
		t.Fatalf("%d let in at once, want some and at most the 25 the first tick's headroom allows at the default 1 ms a join", at)
	}
	if l := r.h.LoadAt(r.now).Line; l.Waiting != 200-at || l.Entered != uint64(200-at) {
		t.Fatalf("the line reads %+v, want %d waiting", l, 200-at)
	}
	last := ps[len(ps)-1]
	if q, ok := last.got[0].(*protocol.Queued); !ok || q.Place != uint32(200-at) || q.Line != q.Place {
		t.Fatalf("the last newcomer got %+v first, want Queued at place %d of %d", last.got[0], 200-at, 200-at)
	}
	r.ticking(10*time.Second, cost)
	fell := 0
	for i, p := range ps {
		if !welcomed(p) {
			t.Fatalf("newcomer %d got %v, want its places and then a Welcome", i, p.got)
		}
		places := placesTold(p)
		for j := 1; j < len(places); j++ {
			if places[j] > places[j-1] {
				t.Fatalf("newcomer %d was told places %v: a place never rises", i, places)
			}
		}
		if len(places) > 1 && places[len(places)-1] < places[0] {
			fell++
		}
	}
	if fell < 50 {
		t.Errorf("%d newcomers saw their place fall, want most of those who waited over a second", fell)
	}
	l := r.h.LoadAt(r.now).Line
	if l.Waiting != 0 || l.Admitted != uint64(200-at) || l.Refused != 0 {
		t.Errorf("the line reads %+v, want everyone let in from it, none refused", l)
	}
	if l.JoinCost != 5*ms {
		t.Errorf("join cost read as %v, want the 5 ms reported", l.JoinCost)
	}
	if n := len(r.noted(NoteQueued)); n != 200-at {
		t.Errorf("%d queued notes, want %d", n, 200-at)
	}
	if n := r.noted(NoteAdmitted); len(n) != 200-at || n[len(n)-1].Waited < time.Second {
		t.Errorf("%d admitted notes (the last waited %v), want %d, the last after a second or more", len(n), n[len(n)-1].Waited, 200-at)
	}
}

// The pace follows the headroom: while the ticks cost their budget
// nobody is let in, those waiting are told so, and a newcomer whose wait
// would pass the bound is refused at once with the reason, as is one
// still waiting past it.
func TestLineRefusesWaitsPastTheBound(t *testing.T) {
	o := lineOpts()
	o.LineWait = 5 * time.Second
	r := newRig(t, o)
	full := perMember(30*ms, 0) // over the budget, whoever is in
	var in []*peer
	for i := range 25 {
		p := r.dial(host(i + 1))
		hello(p, fmt.Sprintf("in%d", i))
		in = append(in, p)
	}
	r.ticking(2*time.Second, full) // the door shuts
	waiter := r.dial(host(100))
	hello(waiter, "waiter")
	if q, ok := waiter.got[0].(*protocol.Queued); !ok || q.Place != 1 {
		t.Fatalf("the 26th got %v, want Queued at place 1", waiter.got)
	}
	r.ticking(12*time.Second, full)
	e, ok := waiter.got[len(waiter.got)-1].(*protocol.Error)
	if !ok || !waiter.closed || e.Code != protocol.ErrCodeFull || !strings.Contains(e.Text, "no place came within 5s") {
		t.Fatalf("the one waiting got %v last, want Error \"... no place came within 5s ...\"", waiter.got[len(waiter.got)-1])
	}
	late := r.dial(host(101))
	hello(late, "late")
	e, ok = late.got[len(late.got)-1].(*protocol.Error)
	if !ok || !late.closed || !strings.Contains(e.Text, "no place is coming") || !strings.Contains(e.Text, "more than the 5s") {
		t.Fatalf("a newcomer to a stuck line got %v, want refused at once: no place is coming", late.got)
	}
	if l := r.h.LoadAt(r.now).Line; l.Refused != 2 || l.Waiting != 0 {
		t.Errorf("the line reads %+v, want 2 refused", l)
	}
}

// The line is bounded: past -line-max newcomers are refused "the line is
// full"; one address holds at most its share of the places, joined
// players counted; and whoever leaves the line frees its place at once.
func TestLineIsBoundedAndShared(t *testing.T) {
	o := lineOpts()
	o.LineMax = 10
	r := newRig(t, o)
	spendAllowance(r)
	waiting := queueEach(r, 10)
	over := r.dial(host(70))
	hello(over, "over")
	e, ok := over.got[len(over.got)-1].(*protocol.Error)
	if !ok || !over.closed || !strings.Contains(e.Text, "the line is full: 10 wait already") {
		t.Fatalf("the 11th in line got %v, want refused: the line is full", over.got)
	}
	waiting[0].gone("closed")
	if l := r.h.LoadAt(r.now).Line; l.Waiting != 9 || l.Left != 1 {
		t.Fatalf("the line reads %+v after one left, want 9 waiting, 1 left", l)
	}
	next := r.dial(host(71))
	hello(next, "next")
	if q, ok := next.got[0].(*protocol.Queued); !ok || q.Place != 10 {
		t.Fatalf("a newcomer after one left got %v, want Queued at place 10", next.got)
	}

	// One address: its players joined and waiting together are capped.
	r2 := newRig(t, lineOpts())
	refused := 0
	for i := range DefaultMaxPlayersPerAddr + 8 {
		p := r2.dial("198.51.100.7")
		hello(p, fmt.Sprintf("a%d", i))
		if e, ok := p.got[len(p.got)-1].(*protocol.Error); ok {
			if !strings.Contains(e.Text, "from your address") {
				t.Fatalf("refused %q, want the cap per address", e.Text)
			}
			refused++
		}
	}
	if refused != 8 {
		t.Errorf("%d refused from one address, want the 8 past its %d, joined and waiting", refused, DefaultMaxPlayersPerAddr)
	}
}

// A client of version 5 waits in the same line: it is told its place in
// Notices, and an empty Notice takes the words off its screen when it is
// let in, before its Welcome.
func TestLineTellsOlderClientsInNotices(t *testing.T) {
	r := newRig(t, lineOpts())
	for i := range 25 {
		hello(r.dial(host(i+1)), fmt.Sprintf("in%d", i))
	}
	old := r.dial(host(99))
	old.send(&protocol.Hello{Version: 5, Name: "old"})
	if old.admission != nil {
		t.Fatalf("a version 5 client was told %+v", old.admission)
	}
	n, ok := old.got[0].(*protocol.Notice)
	if !ok || n.Text != "waiting: 1st in line, any moment now" {
		t.Fatalf("a version 5 client in line got %v, want a Notice of its place", old.got)
	}
	r.ticking(time.Second, perMember(ms, 0))
	var kinds []string
	for _, m := range old.got {
		kinds = append(kinds, m.Type().String())
	}
	if len(old.got) < 3 || old.got[1].(*protocol.Notice).Text != "" || old.got[2].Type() != protocol.TypeWelcome {
		t.Fatalf("then got %v, want an empty Notice and its Welcome", kinds)
	}
}

// A room whose map's floor is taken, by its players and those in line
// for it, refuses a newcomer at once, saying the room is full (its own
// code from version 6, ErrCodeFull before, the same words): the line is
// not for a place that cannot come, and a load refusal ("server full")
// is another thing. The room list says what the room holds.
func TestLineRefusesAFullRoomAtOnce(t *testing.T) {
	m, err := grid.ParseMap(strings.Repeat("#######\n", 1) + strings.Repeat("#.....#\n", 6) + "#######\n")
	if err != nil {
		t.Fatal(err)
	}
	o := lineOpts()
	o.Config.Map = m // 30 floor cells: the room holds 30 of its 1000
	r := newRig(t, o)
	spendAllowance(r)
	waiting := queueEach(r, 5)
	for i, p := range waiting {
		if _, ok := p.got[0].(*protocol.Queued); !ok {
			t.Fatalf("newcomer %d past the allowance got %v, want a place in line", i, p.got)
		}
	}
	const text = "room full: 25 of 30 players and 5 in line for it, as many as its map's floor holds, one a cell; another room may have a place"
	over := r.dial(host(70))
	hello(over, "over")
	if e, ok := over.got[0].(*protocol.Error); len(over.got) != 1 || !ok || !over.closed || e.Code != protocol.ErrCodeRoomFull || e.Text != text {
		t.Fatalf("the 31st got %v, want at once Error %d %q", over.got, protocol.ErrCodeRoomFull, text)
	}
	old := r.dial(host(71))
	old.send(&protocol.Hello{Version: 5, Name: "old"})
	if e, ok := old.got[0].(*protocol.Error); len(old.got) != 1 || !ok || e.Code != protocol.ErrCodeFull || e.Text != text {
		t.Fatalf("a version 5 client got %v, want at once Error %d (it knows no room-full code) %q", old.got, protocol.ErrCodeFull, text)
	}
	if l := r.h.LoadAt(r.now).Line; l.Refused != 0 || l.Waiting != 5 {
		t.Errorf("the line reads %+v, want 5 waiting, none refused by it: a full room is no load refusal", l)
	}
	if got := r.listRooms().Rooms[0].MaxPlayers; got != 30 {
		t.Errorf("the room list says the room holds %d, want the 30 its floor holds", got)
	}
	r.ticking(time.Second, perMember(ms, 0))
	for i, p := range waiting {
		if !welcomed(p) {
			t.Errorf("the %d-th in line got %v, want its Welcome: the room had a place for it", i, p.got)
		}
	}
}

// In a burst's first second, a few ticks at capacity slow the line's
// estimate instead of making it "no place is coming": the newcomers of
// that second wait in line, and are let in once the ticks have room.
func TestLineFirstSecondAtCapacityStillQueues(t *testing.T) {
	r := newRig(t, lineOpts())
	spendAllowance(r)
	r.ticking(150*ms, perMember(ms, 0))    // three cheap ticks: the allowance is spent on the 25
	r.ticking(100*ms, perMember(30*ms, 0)) // then two at capacity, within the first second
	if !r.h.LoadAt(r.now).Full {
		t.Fatalf("the server reads %+v, want at capacity", r.h.LoadAt(r.now))
	}
	var late []*peer
	for i := range 10 {
		p := r.dial(host(100 + i))
		hello(p, fmt.Sprintf("late%d", i))
		if _, ok := p.got[0].(*protocol.Queued); !ok {
			t.Fatalf("newcomer %d in the first second at capacity got %v, want a place in line", i, p.got)
		}
		late = append(late, p)
	}
	r.ticking(3*time.Second, perMember(ms, 0))
	for i, p := range late {
		if !welcomed(p) {
			t.Errorf("newcomer %d got %v, want let in once the ticks had room", i, p.got)
		}
	}
}
