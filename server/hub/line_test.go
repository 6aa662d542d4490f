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
// nobody is let in. One who came while the door had just shut waits,
// and once the server has been at capacity for a LoadWindow it is told
// at once that no place is coming, with the reason, not after the whole
// bound; a newcomer then is refused at once.
func TestLineRefusesWaitsPastTheBound(t *testing.T) {
	r := newRig(t, lineOpts())
	full := perMember(30*ms, 0) // over the budget, whoever is in
	for i := range 25 {
		hello(r.dial(host(i+1)), fmt.Sprintf("in%d", i))
	}
	r.ticking(200*ms, full) // the door shuts: three ticks measured
	waiter := r.dial(host(100))
	hello(waiter, "waiter")
	if q, ok := waiter.got[0].(*protocol.Queued); !ok || q.Place != 1 {
		t.Fatalf("the 26th got %v, want Queued at place 1", waiter.got)
	}
	came := r.now
	r.ticking(12*time.Second, full)
	e, ok := waiter.got[len(waiter.got)-1].(*protocol.Error)
	if !ok || !waiter.closed || e.Code != protocol.ErrCodeFull || !strings.Contains(e.Text, "no place is coming for the 1st in line") ||
		!strings.Contains(e.Text, "holds about 20 players by its ticks' cost and has 25") || !strings.Contains(e.Text, "you waited") {
		t.Fatalf("the one waiting got %v last, want Error \"... no place is coming ... holds about 20 players ... has 25 ... you waited ...\"", waiter.got[len(waiter.got)-1])
	}
	if waited := waiter.at[len(waiter.at)-1] - came; waited > 3*time.Second {
		t.Errorf("the one waiting was refused after %v, want within a LoadWindow and a second or two of the door shutting", waited)
	}
	late := r.dial(host(101))
	hello(late, "late")
	e, ok = late.got[len(late.got)-1].(*protocol.Error)
	if !ok || !late.closed || !strings.Contains(e.Text, "no place is coming") || !strings.Contains(e.Text, "within the 1m0s the server lets anyone wait") {
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

// fate is what became of one of a burst: when it came, the waits it was
// told, and when it was let in or refused (and why).
type fate struct {
	came    time.Duration
	told    []time.Duration // the estimates, in order
	toldAt  []time.Duration // when each was told
	in      bool
	refused string
	ended   time.Duration // when it was let in or refused
}

// fateOf reads p's fate: it came at came.
func fateOf(p *peer, came time.Duration) fate {
	f := fate{came: came, ended: -1}
	for i, m := range p.got {
		switch v := m.(type) {
		case *protocol.Queued:
			f.told = append(f.told, time.Duration(v.WaitMS)*ms)
			f.toldAt = append(f.toldAt, p.at[i])
		case *protocol.Welcome:
			f.in, f.ended = true, p.at[i]
			return f
		case *protocol.Error:
			f.refused, f.ended = v.Text, p.at[i]
			return f
		}
	}
	return f
}

// A burst that carries the server to its capacity: those the capacity
// holds are let in, and each was told an estimate not far below its real
// wait; those past it are told so early, with the reason (the server
// holds about so many by its ticks' cost and has them), instead of a
// short estimate and a refusal after the whole minute; nobody is refused
// after waiting -line-wait while the capacity holds steady.
func TestLineBurstPastCapacityIsRefusedEarly(t *testing.T) {
	r := newRig(t, lineOpts())
	r.joinEach = ms
	cost := perMember(5*ms, 200*time.Microsecond) // 100 members cost the 25 ms budget
	ps, came := dialEach(r, 300, cost)            // 300 in a second
	r.ticking(70*time.Second, cost)
	in, early := 0, 0
	for i, p := range ps {
		f := fateOf(p, came[p])
		switch {
		case f.in:
			in++
			if len(f.told) > 0 {
				if real := f.ended - f.came; real-f.told[0] > max(real/2, time.Second) {
					t.Errorf("newcomer %d was told %v and waited %v: the estimate is far below the wait", i, f.told[0], real)
				}
			}
		case f.refused != "":
			if strings.Contains(f.refused, "no place came within") {
				t.Fatalf("newcomer %d was refused after the whole wait: %q", i, f.refused)
			}
			if !strings.HasPrefix(f.refused, "server full: at capacity: it holds about ") || !strings.Contains(f.refused, "no place is coming") {
				t.Errorf("newcomer %d was refused %q, want the capacity and its members", i, f.refused)
			}
			if waited := f.ended - f.came; waited > 5*time.Second {
				t.Errorf("newcomer %d was refused after %v in line, want early: within seconds of the server reaching capacity", i, waited)
			}
			early++
		default:
			t.Errorf("newcomer %d got %v, want let in or refused", i, p.got)
		}
	}
	if in < 90 || in > 110 {
		t.Errorf("%d let in, want about the 100 the budget holds", in)
	}
	l := r.h.LoadAt(r.now).Line
	if l.Waiting != 0 || l.Refused != uint64(early) {
		t.Errorf("the line reads %+v, want nobody waiting, %d refused", l, early)
	}
	t.Logf("%d in, %d refused early; line %+v", in, early, l)
}

// dialEach says Hello from n newcomers, each from its own address, 15 a
// tick (300 a second at 20 Hz) with the ticks costing cost, and returns
// them and when each came.
func dialEach(r *rig, n int, cost func(int) time.Duration) ([]*peer, map[*peer]time.Duration) {
	came := map[*peer]time.Duration{}
	var ps []*peer
	for i := range n {
		if i > 0 && i%15 == 0 {
			r.ticking(50*ms, cost)
		}
		p := r.dial(fmt.Sprintf("198.51.%d.%d", i/200, i%200+1))
		hello(p, fmt.Sprintf("b%d", i))
		came[p] = r.now
		ps = append(ps, p)
	}
	return ps, came
}

// A server with room to spare refuses nobody whose wait is under the
// bound: a burst the pace serves within -line-wait (600 at 10 ms a
// join, one a tick: the last wait about 28 s of a 40 s bound) is let in,
// every one, though the pace of its first ticks (before a join was
// measured) was twenty times that.
func TestLineSpareCapacityRefusesNobodyUnderTheBound(t *testing.T) {
	o := lineOpts()
	o.LineWait = 40 * time.Second
	r := newRig(t, o)
	r.joinEach = 10 * ms
	cost := perMember(20*ms, 5*time.Microsecond) // 600 members cost 23 ms
	ps, came := dialEach(r, 600, cost)
	r.ticking(45*time.Second, cost)
	longest := time.Duration(0)
	for i, p := range ps {
		f := fateOf(p, came[p])
		if !f.in {
			t.Fatalf("newcomer %d got %q, want let in: its wait was under the bound", i, f.refused)
		}
		longest = max(longest, f.ended-f.came)
	}
	if l := r.h.LoadAt(r.now).Line; l.Refused != 0 || l.Waiting != 0 {
		t.Errorf("the line reads %+v, want none refused", l)
	}
	t.Logf("the longest wait %v, line %+v", longest, r.h.LoadAt(r.now).Line)
	if longest < 20*time.Second {
		t.Errorf("the longest wait was %v, want one near the bound (the test's point)", longest)
	}
}

// At capacity, places past the headroom come as members leave: with
// members leaving two a second, those waiting are told estimates from
// that rate, not "no place is coming", and are let in as places free;
// one whose wait that rate puts past the bound is refused early.
func TestLineAtCapacityEstimatesFromMembersLeaving(t *testing.T) {
	o := lineOpts()
	o.LineWait = 30 * time.Second
	r := newRig(t, o)
	r.joinEach = ms
	cost := perMember(5*ms, 200*time.Microsecond) // 100 members cost the 25 ms budget
	ps, came := dialEach(r, 180, cost)            // 80 past the capacity
	// Members leave two a second, the first in first, from now on.
	leaving := 0
	for range 60 * 2 {
		r.ticking(500*ms, cost)
		for leaving < len(ps) && !welcomed(ps[leaving]) {
			leaving++
		}
		if leaving < len(ps) {
			ps[leaving].gone("connection closed")
			leaving++
		}
	}
	in, refused := 0, 0
	for i, p := range ps {
		f := fateOf(p, came[p])
		if f.refused != "" {
			refused++
			if strings.Contains(f.refused, "no place came within") || strings.Contains(f.refused, "no place is coming") {
				t.Errorf("newcomer %d was refused %q, want an estimate from the members leaving", i, f.refused)
			}
			continue
		}
		in++
		// Once the server has been at capacity a second (from about
		// 2 s), each estimate is finite and not far below the wait left.
		for j, est := range f.told {
			if f.toldAt[j] < 2*time.Second {
				continue
			}
			if left := f.ended - f.toldAt[j]; est >= o.LineWait || left-est > max(left/2, 2*time.Second) {
				t.Errorf("newcomer %d was told %v at %v and let in %v later, want a finite estimate not far below", i, est, f.toldAt[j], left)
			}
		}
	}
	if in < 140 || refused == 0 {
		t.Errorf("%d let in, %d refused early, want about the 100 the budget holds and 60 on leaves (2 a second for the 30 s bound), the rest refused early", in, refused)
	}
	t.Logf("%d in, %d refused", in, refused)
}

// A refusal's sentence fits an Error (255 bytes), whatever its figures.
func TestLineRefusalTextFits(t *testing.T) {
	o := lineOpts()
	o.LineWait = 59*time.Minute + 59*time.Second
	r := newRig(t, o)
	for _, ol := range []outlook{
		{atCap: true, capacity: 1 << 30, members: 1 << 30},
		{atCap: true, capacity: 1 << 30, members: 1 << 30, freeing: 1e-6, freeingHigh: 1e-6},
		{pace: 1e-6, paceHigh: 1e-6},
	} {
		for _, waited := range []time.Duration{0, 59*time.Minute + 58*time.Second} {
			text := r.h.tooLong(r.now, ol, 1<<32-1, ol.hope(1<<32-1), waited)
			if len(text) > 255 || !strings.HasPrefix(text, "server full: at capacity: ") {
				t.Errorf("refused with %d bytes, %q: want at most 255 and the kind's prefix", len(text), text)
			}
		}
	}
}
