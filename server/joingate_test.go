package server

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"gridlag/protocol"
	"gridlag/server/hub"
	"gridlag/server/world"
)

// TestJoinGateKeepsTheTicksCadence runs the loop's rule on a virtual
// clock: a flood of 3,000 joins offered at once, each costing 2 ms of the
// loop, to a world whose tick costs 10 ms at 20 Hz with a budget of 25
// ms. Every tick comes when it is due (the joins never take the time
// that is the next tick's), the joins go in at what the ticks leave (7
// a tick: 140 a second), and those held past the wait are refused, the
// first come first in.
func TestJoinGateKeepsTheTicksCadence(t *testing.T) {
	const (
		interval = 50 * time.Millisecond
		tickCost = 10 * time.Millisecond
		joinCost = 2 * time.Millisecond
		offered  = 3000
	)
	g := joinGate{budget: 25 * time.Millisecond, wait: 10 * time.Second}
	conns := make([]*conn, offered)
	for i := range conns {
		conns[i] = &conn{}
		g.hold(conns[i], 0)
	}
	taken, refused, ticks := 0, 0, 0
	var now time.Duration
	for due := time.Duration(0); due < 20*time.Second; due += interval {
		if now > due {
			t.Fatalf("tick %d due at %v came at %v: the joins took the tick's time", ticks, due, now)
		}
		now = due + tickCost
		ticks++
		g.ticked(tickTimes{own: tickCost})
		for g.late(now) {
			c, _ := g.next()
			if c != conns[taken+refused] {
				t.Fatal("a held join was refused out of its turn")
			}
			refused++
		}
		for g.open(false) {
			c, _ := g.next()
			if c != conns[taken+refused] {
				t.Fatal("a held join was taken out of its turn")
			}
			taken++
			now += joinCost
			g.spend(joinCost)
		}
	}
	if ticks != 400 {
		t.Errorf("%d ticks in 20 s, want 400", ticks)
	}
	// 25 ms less the tick's 10 leaves 15: 8 joins of 2 ms, the last
	// begun before the budget was spent.
	if want := 8 * 200; taken != want || refused != offered-want {
		t.Errorf("%d joins taken in the first 10 s and %d refused after waiting 10 s, want %d and %d", taken, refused, want, offered-want)
	}
	if g.waiting() != 0 {
		t.Errorf("%d joins still held after 20 s", g.waiting())
	}
}

// TestJoinGateStopsWhileTheTicksAreLate runs the loop's rule on a
// virtual clock against a core it shares with what it does not see: a
// flood of 3,000 joins offered at once (2 ms of the loop each) to a
// world at 20 Hz whose tick costs the loop 10 ms and the writers 0.05 ms
// a player more, out of the loop, after it; from 2 s to 3 s something
// else takes the core's first 30 ms of every interval. The loop's own
// work never reaches its budget, so the old rule took joins on, and the
// writers' share grew with every player until the ticks slipped. Now no
// join is taken at a tick that began late, nor until the last second's
// ticks came on time (on average within a twentieth of an interval: at
// most one of them 30 ms late); the joins resume then; and the ticks
// keep their due times outside the window the core was taken (every one
// of the 239 ticks of 12 s comes, none skipped), the crowd held where the
// writers' share leaves the interval no room.
func TestJoinGateStopsWhileTheTicksAreLate(t *testing.T) {
	const (
		interval  = 50 * time.Millisecond
		tickCost  = 10 * time.Millisecond
		joinCost  = 2 * time.Millisecond
		perPlayer = 50 * time.Microsecond
		offered   = 3000
	)
	g := joinGate{budget: 25 * time.Millisecond, wait: 10 * time.Second, interval: interval}
	for range offered {
		g.hold(&conn{}, 0)
	}
	var (
		players, refused, ticks  int
		busy, full               time.Duration // the core is busy until busy; the tick before cost full
		lastLate, resumed        time.Duration = -1, -1
		joinsBefore, joinsDuring int
	)
	for due := interval; due < 12*time.Second; due += interval {
		outside := time.Duration(0)
		taken := due >= 2*time.Second && due < 3*time.Second
		if taken {
			outside = 30 * time.Millisecond
		}
		start := max(due+outside, busy)
		if start-due >= interval {
			t.Fatalf("the tick due at %v was skipped: the core was busy until %v (%d players)", due, busy, players)
		}
		ticks++
		late := start - due
		if late > interval/10 {
			if spill := due == 3*time.Second; !taken && !spill {
				t.Fatalf("the tick due at %v began %v late with the core its own (%d players): the joins took the ticks' time", due, late, players)
			}
			lastLate = due
		}
		g.ticked(tickTimes{late: late, own: tickCost, full: full})
		for g.late(start + tickCost) {
			g.next()
			refused++
		}
		n := 0
		for g.open(false) {
			g.next()
			n++
			g.spend(joinCost)
		}
		switch {
		case n > 0 && late > interval/10:
			t.Fatalf("%d joins taken at the tick due at %v, which began %v late", n, due, late)
		case n > 0 && lastLate >= 0 && due-lastLate < 900*time.Millisecond:
			t.Fatalf("%d joins taken at the tick due at %v, %v after the last late one: want the last second's ticks on time first (at most one of them late)", n, due, due-lastLate)
		case n > 0 && lastLate >= 0 && resumed < 0:
			resumed = due
		case n > 0 && due < 2*time.Second:
			joinsBefore += n
		case n > 0 && due < 3*time.Second:
			joinsDuring += n
		}
		players += n
		busy = start + tickCost + time.Duration(n)*joinCost + time.Duration(players)*perPlayer
		full = busy - due
	}
	if ticks != 239 {
		t.Errorf("%d ticks in 12 s, want 239", ticks)
	}
	if joinsBefore == 0 || joinsDuring != 0 {
		t.Errorf("%d joins taken before the core was taken and %d while it was, want some and none", joinsBefore, joinsDuring)
	}
	if resumed < 0 || resumed > 3*time.Second+2*time.Second {
		t.Errorf("the joins resumed at %v after the core was given back at 3 s, want within 2 s", resumed)
	}
	// The joins take only what the whole core left at the tick before:
	// past 700 players (the tick's 10 ms and the writers' 35 leave no
	// spare) one a tick, and none once a tick is behind (860), so the
	// crowd stops short of the cadence and the rest are refused.
	if players < 300 || players > 860 || refused != offered-players || g.waiting() != 0 {
		t.Errorf("%d players in and %d refused after 12 s, %d held: want 300-860 in, the rest refused", players, refused, g.waiting())
	}
}

// TestJoinGateTakesOneATickWhenTheTicksTakeAll: a world whose tick alone
// costs more than its budget still lets one join in a tick, so that the
// held ones move.
func TestJoinGateTakesOneATickWhenTheTicksTakeAll(t *testing.T) {
	g := joinGate{budget: 25 * time.Millisecond, wait: time.Minute}
	for range 10 {
		g.hold(&conn{}, 0)
	}
	for tick := 1; tick <= 3; tick++ {
		g.ticked(tickTimes{own: 40 * time.Millisecond})
		n := 0
		for g.open(false) {
			g.next()
			g.spend(time.Millisecond)
			n++
		}
		if n != 1 {
			t.Fatalf("tick %d: %d joins taken, want 1", tick, n)
		}
	}
}

// startNoSpare starts a server on the test's clock, without a line, whose
// tick budget leaves no spare time for joins (1 ns), at rate, for n
// newcomers from one address, each held at most joinWait.
func startNoSpare(t *testing.T, rate, n int, joinWait time.Duration) (*testServer, *testClock) {
	t.Helper()
	return startNoSpareFloor(t, rate, n, joinWait, 10*n)
}

// startNoSpareFloor is startNoSpare with a load floor of floor members.
func startNoSpareFloor(t *testing.T, rate, n int, joinWait time.Duration, floor int) (*testServer, *testClock) {
	t.Helper()
	return startClocked(t, Options{cadenceFloor: floor,
		Hub: hub.Options{Config: world.Config{Rate: rate, MaxPlayers: 2 * n}, MaxPlayersPerAddr: 2 * n, JoinRate: 2 * n,
			TickBudget: time.Nanosecond, LoadFloor: floor},
		MaxConnsPerAddr: 2 * n,
		JoinWait:        joinWait,
		IdleTimeout:     time.Hour,
	})
}

// TestFloodOfJoinsDoesNotStopTheTicks: on the server's own loop, on the
// test's clock, 24 newcomers say Hello at once to a server without a
// line whose tick budget leaves no spare time (1 ns): each interval the
// clock moves brings its tick, whatever waits, and one join; all 24 are
// in after 24 ticks, none refused. Then a newcomer held past -join-wait
// is refused "server busy", with the reason, in the log too.
func TestFloodOfJoinsDoesNotStopTheTicks(t *testing.T) {
	const (
		n        = 24
		rate     = 20
		interval = time.Second / rate
	)
	ts, clock := startNoSpare(t, rate, n, 2*n*interval)
	clients := make([]*testClient, n)
	for i := range clients {
		clients[i] = dial(t, ts)
		clients[i].send(&protocol.Hello{Version: protocol.Version, Name: fmt.Sprint("p", i), Bot: true})
	}
	eventually(t, func() bool { return ts.Stats().Connections >= 1 }, func() string { return "the first newcomer was never taken" })
	ticks := func() uint64 { return ts.Stats().Ticks }
	for k := 1; ts.Stats().Players < n; k++ {
		if k > 3*n {
			t.Fatalf("%d of %d joined after %d ticks, want one a tick", ts.Stats().Players, n, k)
		}
		before := ticks()
		clock.advance(interval)
		eventually(t, func() bool { return ticks() > before }, func() string {
			return fmt.Sprintf("no tick came for the interval %d with %d of %d joined: the joins held it", k, ts.Stats().Players, n)
		})
		if p := ts.Stats().Players; p > k+1 {
			t.Fatalf("%d joined after %d ticks whose budget leaves nothing for joins, want one a tick", p, k)
		}
	}
	for _, c := range clients {
		c.until("its Welcome", func(m protocol.Message) bool { _, ok := m.(*protocol.Welcome); return ok })
	}

	// Three more at once, and the clock jumps past -join-wait before a
	// tick takes those held: they are refused, told why (those that came
	// after the jump are taken).
	const held = "joins wait for the ticks' spare time"
	helds := strings.Count(ts.logs.String(), held)
	late := []*testClient{dial(t, ts), dial(t, ts), dial(t, ts)}
	for i, c := range late {
		c.send(&protocol.Hello{Version: protocol.Version, Name: fmt.Sprint("late", i), Bot: true})
	}
	eventually(t, func() bool { return strings.Count(ts.logs.String(), held) > helds }, func() string { return "no newcomer was held" })
	clock.advance(3 * n * interval)
	stop := clock.run(interval) // for those that came after the jump
	defer stop()
	refused := 0
	for _, c := range late {
		switch m := c.until("a Welcome or an Error", func(m protocol.Message) bool {
			switch m.(type) {
			case *protocol.Welcome, *protocol.Error:
				return true
			}
			return false
		}).(type) {
		case *protocol.Error:
			if m.Code != protocol.ErrCodeFull || !strings.HasPrefix(m.Text, "server busy: your join waited") {
				t.Errorf("refused %q, want server busy: your join waited", m.Text)
			}
			refused++
		}
	}
	if refused < 1 {
		t.Error("none of 3 newcomers, held past -join-wait, was refused")
	}
	ts.waitLog(t, "refused join")
}

// TestJoinsStopWhileTheTicksAreLate: on the server's own loop, on the
// test's clock, newcomers are held one a tick (a budget of 1 ns); then the
// clock jumps ten intervals, as when something else held the core: that
// tick is late, and no join is taken, not even one a tick, until the last
// second's ticks came on time (20 ticks at least); the log says so, and
// Gate says so for /metrics. Then
// the joins resume, one a tick, and the log says that too.
func TestJoinsStopWhileTheTicksAreLate(t *testing.T) {
	const (
		n        = 40
		rate     = 20
		interval = time.Second / rate
	)
	ts, clock := startNoSpareFloor(t, rate, n, time.Hour, 1) // judged from the first member: under the floor it is not
	for i := range n {
		dial(t, ts).send(&protocol.Hello{Version: protocol.Version, Name: fmt.Sprint("p", i), Bot: true})
	}
	eventually(t, func() bool { return ts.Stats().Connections+ts.Gate().Held >= n },
		func() string {
			return fmt.Sprintf("%d of %d newcomers taken or held", ts.Stats().Connections+ts.Gate().Held, n)
		})
	ticks := func() uint64 { return ts.Stats().Ticks }
	step := func(d time.Duration) {
		t.Helper()
		before := ticks()
		clock.advance(d)
		eventually(t, func() bool { return ticks() > before }, func() string { return "no tick came" })
	}
	step(interval)
	step(interval)
	if g := ts.Gate(); g.Behind || g.Held == 0 {
		t.Fatalf("gate %+v after two ticks on time, want newcomers held and joins taken", g)
	}

	step(10 * interval)
	ts.waitLog(t, "joins stop: the ticks are late")
	if !ts.Gate().Behind {
		t.Error("Gate does not say the joins stopped")
	}
	in := ts.Stats().Players
	k := 0
	for ; ts.Stats().Players == in; k++ {
		if k > 2*rate {
			t.Fatalf("no join taken in %d ticks on time after the late one", k)
		}
		step(interval)
	}
	if k < rate {
		t.Errorf("a join was taken %d ticks after a late one, want none for a second (%d ticks)", k, rate)
	}
	ts.waitLog(t, "joins resume: the ticks keep their cadence")
	if g := ts.Gate(); g.Behind {
		t.Errorf("gate %+v after the joins resumed", g)
	}
}

// TestJoinGateUnderTheFloorIgnoresLateTicks: below -load-floor members
// late ticks are another process's doing (the teacher's laptop busy), so
// the gate takes joins as the budget allows, at least one a tick, while
// above it a late tick takes none.
func TestJoinGateUnderTheFloorIgnoresLateTicks(t *testing.T) {
	interval := 50 * time.Millisecond
	g := joinGate{budget: 25 * time.Millisecond, wait: time.Minute, interval: interval}
	for range 40 {
		g.hold(&conn{}, 0)
	}
	for tick := 1; tick <= 25; tick++ { // a second and more of ticks 30 ms late
		g.ticked(tickTimes{late: 30 * time.Millisecond, own: time.Millisecond})
	}
	if g.open(false) {
		t.Fatal("over the floor, the gate is open while every tick of the last second began 30 ms late")
	}
	n := 0
	for g.open(true) {
		g.next()
		g.spend(5 * time.Millisecond)
		n++
	}
	if n == 0 {
		t.Fatal("under the floor, no join was taken at a late tick: a busy machine turns a class away")
	}
}
