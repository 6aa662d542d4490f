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
// newcomers' Hellos and Spectates and takes them only in what the tick
// leaves of its budget: after each tick, while the tick's own work and
// the joins taken since stay under the budget (-tick-budget, or half an
// update interval without one), and at least one a tick, so that the
// line of them always moves. A newcomer held for -join-wait is refused
// "server busy" and told why. What a held connection says meanwhile
// waits behind its Hello, at most maxHeldEach messages of it.

// DefaultJoinWait is the longest a newcomer's Hello is held back for the
// ticks' spare time (-join-wait): the time a new connection has to say
// Hello, the same promise the other way.
const DefaultJoinWait = DefaultHandshakeTimeout

// maxHeldEach is the most messages of one connection held back behind
// its Hello: a client waiting for its Welcome pings once a second.
const maxHeldEach = 32

// joinGate is the loop's hold on the joins: the connections whose
// handshakes are held back and what the ticks leave for them. Owned by
// the loop; its clocks are given (the hub's for the waits, the loop's own
// work for the costs), so that a test runs it on a virtual one.
type joinGate struct {
	budget time.Duration // the loop work an update interval may take, the tick's and the joins'
	wait   time.Duration // the longest a handshake is held
	held   []heldConn    // in the order their handshakes came
	first  int           // held[first:] still wait
	spent  time.Duration // the loop work since the last tick: the tick's, then the joins'
	took   int           // handshakes taken since the last tick
	// holding is set while handshakes are held back, for the log's lines
	// when that starts and ends; most is the most held at once meanwhile.
	holding bool
	most    int
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

// ticked starts an update interval: the tick's own work cost.
func (g *joinGate) ticked(cost time.Duration) {
	g.spent, g.took = cost, 0
}

// open reports whether the next held handshake may be taken: none was
// since the last tick, or the tick and the joins since leave budget.
func (g *joinGate) open() bool {
	return g.waiting() > 0 && (g.took == 0 || g.spent < g.budget)
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
	for g.open() {
		began := time.Now()
		c, _ := g.next()
		s.handleHeld(c)
		s.flush()
		g.spend(time.Since(began))
	}
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

// handleHeld hands the hub what c said from its handshake on, held.
func (s *Server) handleHeld(c *conn) {
	evs := c.heldEvs
	c.heldEvs = nil
	for _, ev := range evs {
		s.handle(ev)
	}
}
