package server

import (
	"strconv"
	"time"

	"gridlag/protocol"
)

// Ticks come first. A join is the loop's dearest work (a Welcome, a big
// map's pieces, the Joins of everyone in view and the newcomer's Join to
// each of them, its area set up), and a crowd offers thousands at once;
// handled as they come, they push the ticks back, and with the ticks the
// States of everyone in. When the hub does not pace the joins itself (its
// line is off: -tick-budget 0 or -line-wait 0), the loop holds back the
// newcomers' Hellos and Spectates and takes them only while the ticks
// keep their cadence, and then in what the tick leaves of its budget.
//
// The cadence is judged on the whole core, not the loop's own work alone.
// A tick's lateness is how long after it was due it began, held back by
// whatever ran meanwhile (the writers, the readers, the collector,
// another process; a tick skipped is one an interval late), or, if more,
// how long after the interval's end the frames of the tick before were
// handed to the sockets (the cost from when it was due until they were
// written, as hub.Load is told it, less the interval). A tick later than
// a tenth of an interval (at least minSlack) is behind: no join is taken
// until the next tick. While the last second's ticks were behind on
// average and newcomers are held the gate is closed: no join at all is
// taken, not even one a tick, until the last second's ticks average half
// of that (or nobody is held any more). While it is open the loop takes
// joins after each tick while the tick's own work and the joins taken
// since stay under the budget (-tick-budget, or half an update interval
// without one) and under what the whole core left of the interval at the
// tick before, and at least one a tick, so that the line of them moves.
// A newcomer held for -join-wait is refused "server busy" and told why.
// What a held connection says meanwhile waits behind its Hello, at most
// maxHeldEach messages of it.

// DefaultJoinWait is the longest a newcomer's Hello is held back for the
// ticks' spare time (-join-wait): the time a new connection has to say
// Hello, the same promise the other way.
const DefaultJoinWait = DefaultHandshakeTimeout

// cadenceFloor is the fewest members from which the join gate judges
// the ticks' cadence, whatever -load-floor says (0 there means from the
// first for admission by load): so few cost a tick well under a
// millisecond (docs/performance.md), so late ticks with them are another
// process's doing, which holding newcomers back does not mend.
const cadenceFloor = 64

// minSlack is the least lateness the join gate judges a tick behind by:
// below it is the timers' and the scheduler's jitter, whatever the rate.
const minSlack = 5 * time.Millisecond

// maxHeldEach is the most messages of one connection held back behind
// its Hello: a client waiting for its Welcome pings once a second.
const maxHeldEach = 32

// joinGate is the loop's hold on the joins: the connections whose
// handshakes are held back and what the ticks leave for them. Owned by
// the loop; its clocks are given (the hub's for the waits, the loop's own
// work for the costs), so that a test runs it on a virtual one.
type joinGate struct {
	budget   time.Duration // the loop work an update interval may take, the tick's and the joins'
	wait     time.Duration // the longest a handshake is held
	floor    int           // the members below which the cadence is not judged: -load-floor, at least cadenceFloor
	interval time.Duration // the update interval, whose cadence the ticks keep; 0 = not judged
	held     []heldConn    // in the order their handshakes came
	first    int           // held[first:] still wait
	spent    time.Duration // the loop work since the last tick: the tick's, then the joins'
	room     time.Duration // what spent may reach this interval: the budget, or less where the core has less to spare
	took     int           // handshakes taken since the last tick
	// holding is set while handshakes are held back, for the log's lines
	// when that starts and ends; most is the most held at once meanwhile.
	holding bool
	most    int
	// behind is set while the gate is closed for the ticks' cadence;
	// lateNow while the last tick was behind; lags are the last
	// second's ticks' lateness, mean their mean at the last tick.
	behind  bool
	lateNow bool
	lags    lags
	mean    time.Duration
}

// tickTimes is what the loop measured of a tick: how late it began after
// it was due (on the hub's clock), its own work in the loop, and what the
// tick before it cost from when it was due until its frames were handed
// to the sockets (0 if not measured).
type tickTimes struct {
	late, own, full time.Duration
}

// heldConn is a connection whose handshake is held (its events in
// conn.heldEvs), and when it came on the hub's clock.
type heldConn struct {
	c  *conn
	at time.Duration
}

// waiting is how many handshakes are held.
func (g *joinGate) waiting() int { return len(g.held) - g.first }

// hold holds c's handshake back, come at now.
func (g *joinGate) hold(c *conn, now time.Duration) {
	g.held = append(g.held, heldConn{c: c, at: now})
	g.most = max(g.most, g.waiting())
}

// ticked starts an update interval with what the tick measured, and
// judges the ticks' cadence: no join is taken until the next tick if
// this one is behind, and the gate closes while the last second's ticks
// were behind on average with handshakes held, until they average half
// that (or nobody is held). It reports whether the gate closed or opened.
func (g *joinGate) ticked(t tickTimes) (changed bool) {
	g.spent, g.took, g.room, g.lateNow = t.own, 0, g.budget, false
	if g.interval <= 0 {
		return false
	}
	slack := max(g.interval/10, minSlack)
	// The joins may take what the whole core left of the interval at the
	// tick before, if less than what the loop's budget leaves.
	g.room = min(g.budget, t.own+g.interval-slack-t.full)
	lag := max(t.late, t.full-g.interval, 0)
	g.lateNow = lag > slack
	g.mean = g.lags.add(lag, int(max(time.Second/g.interval, 1)))
	switch {
	case !g.behind && g.mean > slack && g.waiting() > 0:
		g.behind = true
		return true
	case g.behind && (g.mean <= slack/2 || g.waiting() == 0):
		g.behind = false
		return true
	}
	return false
}

// lags is the lateness of the last second's ticks (a ring), for their
// mean.
type lags struct {
	ring []time.Duration
	next int
	sum  time.Duration
}

// add adds a tick's lateness to the last n ticks' (n: a second of them;
// a change of n starts afresh), and returns their mean over n.
func (l *lags) add(lag time.Duration, n int) time.Duration {
	if cap(l.ring) != n {
		*l = lags{ring: make([]time.Duration, 0, n)}
	}
	if len(l.ring) < n {
		l.ring = append(l.ring, lag)
	} else {
		l.sum -= l.ring[l.next]
		l.ring[l.next] = lag
		l.next = (l.next + 1) % n
	}
	l.sum += lag
	return l.sum / time.Duration(n)
}

// open reports whether the next held handshake may be taken: the ticks
// keep their cadence (the gate is not closed, the last tick was not
// behind), and none was taken since the last tick or the tick and the
// joins since leave room. Under the floor (free: fewer members than
// -load-floor, and than cadenceFloor whatever it says) the cadence is not judged: late ticks with so few are
// another process's doing, which holding newcomers back does not mend,
// and a class is not turned away because the teacher's laptop is busy;
// the joins keep to the loop's budget, at least one a tick.
func (g *joinGate) open(free bool) bool {
	if free {
		return g.waiting() > 0 && (g.took == 0 || g.spent < g.budget)
	}
	return g.waiting() > 0 && !g.behind && !g.lateNow && (g.took == 0 || g.spent < g.room)
}

// next takes the first held handshake's connection, counted as a join
// taken. It reports false if none waits.
func (g *joinGate) next() (*conn, bool) {
	if g.waiting() == 0 {
		return nil, false
	}
	c := g.held[g.first].c
	g.held[g.first] = heldConn{}
	g.first++
	if g.first == len(g.held) {
		g.held, g.first = g.held[:0], 0
		if cap(g.held) > 1024 {
			g.held = nil // a crowd's burst is let go of
		}
	} else if g.first >= 1024 && g.first > len(g.held)/2 {
		n := copy(g.held, g.held[g.first:])
		clear(g.held[n:])
		g.held, g.first = g.held[:n], 0
	}
	g.took++
	return c, true
}

// spend counts cost of loop work on the joins taken.
func (g *joinGate) spend(cost time.Duration) { g.spent += cost }

// late reports whether the first held handshake waited wait at now.
func (g *joinGate) late(now time.Duration) bool {
	return g.waiting() > 0 && now-g.held[g.first].at >= g.wait
}

// isHandshake reports whether ev is a Hello or a Spectate: a join.
func isHandshake(ev event) bool {
	if ev.kind != evMessage {
		return false
	}
	switch ev.msg.(type) {
	case *protocol.Hello, *protocol.Spectate:
		return true
	}
	return false
}

// gating reports whether the loop holds the joins back: the hub has
// ticks and does not pace the joins in its line.
func (s *Server) gating() bool {
	return s.opts.Hub.Config.Rate > 0 && !s.hub.LineOn()
}

// joinBudget is the loop work an update interval may take, its tick's
// and its joins': the tick budget, or half an interval without one.
func (s *Server) joinBudget() time.Duration {
	if b := s.opts.Hub.TickBudget; b > 0 {
		return b
	}
	return time.Second / time.Duration(max(s.opts.Hub.Config.Rate, 1)) / 2
}

// heldBack reports whether ev waits in the gate: a connection's
// handshake while the loop holds joins back, or whatever a connection
// says behind its handshake held. A connection that says too much
// behind its Hello is ended.
func (s *Server) heldBack(ev event) bool {
	c := ev.c
	if ev.kind != evMessage || c.state == connGone || (len(c.heldEvs) == 0 && !(isHandshake(ev) && s.gating())) {
		return false
	}
	if len(c.heldEvs) >= maxHeldEach {
		reason := "flooding: " + strconv.Itoa(len(c.heldEvs)) + " messages before its join was taken"
		s.drop(c, reason, &protocol.Error{Code: protocol.ErrCodeFlood, Text: reason}, true)
		return false // handled as a gone connection's
	}
	if len(c.heldEvs) == 0 {
		s.gate.hold(c, s.now())
	}
	c.heldEvs = append(c.heldEvs, ev)
	return true
}

// takeJoins hands the hub the held handshakes, the first first, each
// with what its connection said behind it, while the ticks leave budget
// for them (see joinGate), flushing their frames as it goes; one held
// for -join-wait is refused first. The loop calls it after each tick
// and each wake.
func (s *Server) takeJoins() {
	g := &s.gate
	now := s.now()
	for g.late(now) {
		c, _ := g.next()
		if c.state == connOpen {
			reason := "server busy: your join waited " + g.wait.String() + " for the ticks' spare time (-join-wait); try again later"
			// Counted once, as the hub's note of the drop: join_wait.
			s.warn.Warn("refused join wait", "refused join", "conn", c.id, "remote", c.remote, "reason", reason, "held", g.waiting())
			s.drop(c, reason, &protocol.Error{Code: protocol.ErrCodeFull, Text: reason}, false)
		}
		s.handleHeld(c) // counted handled; gone, it does nothing more
	}
	for g.open(s.hub.Members() < g.floor) {
		began := time.Now()
		c, _ := g.next()
		s.handleHeld(c)
		s.flush()
		g.spend(time.Since(began))
	}
	s.publishGate()
	switch {
	case !g.holding && g.waiting() > 0:
		g.holding = true
		s.log.Info("joins wait for the ticks' spare time", "waiting", g.waiting(), "budget", g.budget, "join-wait", g.wait)
	case g.holding && g.waiting() == 0:
		g.holding = false
		s.log.Info("joins caught up with the ticks", "most-waiting", g.most)
		g.most = 0
	}
}

// gateTicked tells the gate what the tick measured (see joinGate.ticked),
// at the hub's update interval now, and says in the log when the gate
// closes for the ticks' cadence and when it opens again (summarised when
// they repeat).
func (s *Server) gateTicked(t tickTimes) {
	g := &s.gate
	g.interval = time.Second / time.Duration(max(s.hub.Options().Config.Rate, 1))
	if !g.ticked(t) {
		return
	}
	if g.behind {
		s.warn.Warn("join gate behind", "joins stop: the ticks are late", "mean-late", g.mean.Round(time.Microsecond), "late", t.late.Round(time.Microsecond),
			"tick-cost", t.full.Round(time.Microsecond), "interval", g.interval, "waiting", g.waiting())
	} else {
		s.warn.Info("join gate calm", "joins resume: the ticks keep their cadence", "waiting", g.waiting())
	}
	s.publishGate()
}

// GateNow is what the loop's hold on the joins is doing (joinGate),
// without a line: how many newcomers it holds, and whether it takes none
// because the ticks are late.
type GateNow struct {
	Held   int
	Behind bool
}

// Gate returns what the loop's hold on the joins was doing at its last
// change: how many newcomers it held and whether it took none because the
// ticks were late. Safe for concurrent use.
func (s *Server) Gate() GateNow {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gateNow
}

// publishGate publishes the gate's state for Gate, if it changed.
func (s *Server) publishGate() {
	now := GateNow{Held: s.gate.waiting(), Behind: s.gate.behind}
	if now == s.gateSeen {
		return
	}
	s.gateSeen = now
	s.mu.Lock()
	s.gateNow = now
	s.mu.Unlock()
}

// handleHeld hands the hub what c said from its handshake on, held.
func (s *Server) handleHeld(c *conn) {
	evs := c.heldEvs
	c.heldEvs = nil
	for _, ev := range evs {
		s.handle(ev)
	}
}
