package hub

import (
	"fmt"
	"math"
	"slices"
	"time"

	"gridlag/internal/limit"
	"gridlag/internal/names"
	"gridlag/protocol"
	"gridlag/server/world"
)

// The line: a newcomer the server cannot take now waits in line instead
// of being refused (Options.LineWait; off at 0, and without a tick budget
// or ticks to measure). Joins are paced on the measured steady state:
// after every tick the hub works out how many joins the ticks' headroom
// allows before the next one, (TickBudget - the ticks' cost) / what a
// join costs (both as the adapter measures them: Load for the ticks,
// JoinCost for the joins, apart), and lets that many in, from the head of
// the line first; none while the server is at capacity (its ticks cost
// the budget, or its members are those the budget holds by the linear
// estimate: see Load). Below Options.LoadFloor members, every newcomer
// the floor has room for is let in at once. So a burst of joins slows
// the line instead of closing the door, and the ticks of the players in
// keep their budget.
//
// A newcomer (a Hello or Spectate; the server's own connections,
// teachers and a Resume never wait) goes straight in while nobody waits
// and the tick's allowance is not spent; else it joins the end of the
// line, unless its estimated wait would pass LineWait, or the line holds
// LineMax already, or its address holds its share of the line (share:
// the players of one address, joined and waiting, at most
// MaxPlayersPerAddr; the line's last eighth for addresses with nobody in
// it): then it is refused with the reason. A connection in line is told
// its place and the estimate at once and about every lineTell (Queued
// from version 6, a Notice before), says nothing but Bye (or a Ping,
// answered), and frees its place at once when it ends.
//
// The estimate (outlook) must neither refuse one who would get in nor
// keep one waiting the whole bound for a place that is not coming. A
// burst's pace does not last: its first seconds are paced on an empty
// server, and once the server holds what its budget holds the pace falls
// to the few that members leaving let in. So:
//
//   - Below capacity, the wait for place p is p over the steady pace:
//     the lower of the last rateWindow's and the last steadySeconds'
//     (the pace of a burst's first seconds does not hold the estimate up
//     once it falls; one second at capacity does not make it nothing).
//   - Once the server has been at capacity for a LoadWindow (it says so,
//     NoteCapacity, with its own hysteresis: see noteCapacity), the
//     linear capacity is trusted: only the headroom H, the highest
//     capacity read over steadySeconds less the members in, comes from
//     the pace; each place past H must wait for a place to free, at the
//     rate places freed while at capacity (the line's pace since then:
//     members leaving, the capacity as measured rising) or members left
//     over rateWindow, the more. None freed: no place is coming.
//
// The wait told is that sober estimate. A refusal takes the hopeful
// one: the same with the higher of the two paces, and places freeing at
// the highest of the rates read (the last steadySeconds' too), so that
// nobody a place would come for in time is refused for a trough in the
// pace. Each lineTell the line is walked in order with the outlook of
// that moment: one whose hopeful wait would pass its own deadline (when
// it came + LineWait) is refused then, told why (the capacity and its
// members, or the wait and the ticks' cost) and how long it waited,
// instead of at the deadline; the newcomer's check is the same against
// the whole LineWait. One still waiting at its deadline (the estimate was
// wrong) is refused then. Before a LoadWindow at capacity nothing is
// trimmed for the capacity: a tick or two at the budget (a collection, a
// busy core) slows the line, it does not empty it.

// DefaultLineWait is the longest wait in line the TCP server promises a
// newcomer by default (cmd's -line-wait): a minute, what a player who
// was told "about 40 s" will still wait for.
const DefaultLineWait = time.Minute

// DefaultLineMax is how many may wait in line by default: half the TCP
// server's default connections, so that a full line leaves room for the
// players it waits behind.
const DefaultLineMax = 2048

// DefaultJoinCost is what a join is taken to cost until the adapter has
// measured one (JoinCost): a Welcome, a big map's bits and the Joins of a
// crowded spawn take about this much of a core.
const DefaultJoinCost = time.Millisecond

// lineTell is how often the line is told its places and estimates.
const lineTell = time.Second

// rateWindow is how far back the line's pace is read for the estimates:
// long enough that a few ticks over the budget (a crowd spreading from
// the spawn) do not make every estimate endless, short enough that a
// server that stopped taking anyone says so soon.
const rateWindow = 10 * time.Second

// line is the hub's line and the pace of its joins.
type line struct {
	waiting []*conn        // in the order they came
	byHost  map[string]int // waiting per address

	allow    int              // joins the hub may still take before the next tick
	paced    int              // the allowance the last tick gave
	due      bool             // the allowance is fresh and someone waits: Advance lets them in
	told     time.Duration    // when the line was last told its places
	opened   time.Duration    // when the pace's history starts (the first tick paced)
	secs     [rateSeconds]int // the allowances, a second each
	capSecs  [rateSeconds]int // those given while at capacity
	leaves   [rateSeconds]int // members that left
	caps     [rateSeconds]int // the highest capacity read by a tick (LoadNow.Capacity)
	sec      time.Duration    // the second the buckets' newest counts
	atCap    bool             // the server has been at capacity (it says so: Hub.load.full) since capSince
	capSince time.Duration
	lastTik  time.Duration // the last tick paced, for the ticks' rate

	joinCost   time.Duration // what one join costs, as measured (a running mean of the recent)
	measured   bool          // joinCost is measured
	unreported int           // joins taken since the adapter last reported their cost

	entered, admitted, refused, left uint64 // counters, for the metrics
}

// rateSeconds is the buckets of the pace's history: a second each.
const rateSeconds = int(rateWindow / time.Second)

// inLine is where a waiting connection is in the line.
type inLine struct {
	at   time.Duration    // when it came
	msg  protocol.Message // its Hello or Spectate, handed to its room when it is let in
	told uint32           // the place it was last told, 0 before
}

// LineOn reports whether newcomers the server cannot take at once wait in
// line: it has a line (Options.LineWait), a budget the ticks' costs are
// held against, and ticks to measure.
func (h *Hub) LineOn() bool { return h.lineOn() }

// lineOn is LineOn.
func (h *Hub) lineOn() bool {
	return h.opts.LineWait > 0 && h.opts.TickBudget > 0 && h.opts.Config.Rate > 0
}

// underFloor reports whether the server has fewer members than the load
// floor (Options.LoadFloor): a newcomer goes in at once, whatever the
// ticks' cost, as without a line (capacity.go).
func (h *Hub) underFloor() bool { return h.members() < h.opts.LoadFloor }

// Members reports the server's members: its players and spectators,
// joined or joining, every room's (not those waiting in line).
func (h *Hub) Members() int { return h.members() }

// waits reports whether m, c's first Hello or Spectate for its room, is
// one the line paces: not the server's own nor a teacher's, of a version
// the server serves (any other is refused by the world at once).
func waits(c *conn, m protocol.Message) bool {
	if c.from.Own || c.teaching {
		return false
	}
	switch v := m.(type) {
	case *protocol.Hello:
		return protocol.Supported(v.Version) && names.CheckPlayer(v.Name, v.Bot && c.from.Bots) == nil
	case *protocol.Spectate:
		return protocol.Supported(v.Version)
	}
	return false
}

// queue decides what happens to m, c's Hello or Spectate for its room,
// when the line is on: it goes in at once (false: the caller hands it to
// the room), or c waits in line, or is refused (true either way).
func (h *Hub) queue(now time.Duration, c *conn, m protocol.Message) bool {
	l := &h.line
	if !h.lineOn() || c.heard || !waits(c, m) {
		return false
	}
	if e := h.roomWaitRefusal(c, m); e != nil {
		h.refuse(now, c, e.Text, e)
		return true
	}
	if len(l.waiting) == 0 && (l.allow > 0 || h.underFloor()) {
		l.allow = max(l.allow-1, 0)
		l.unreported++
		return false
	}
	if e := h.lineRefusal(now, c); e != nil {
		h.lineRefused(now, c, e)
		return true
	}
	c.line = &inLine{at: now, msg: m}
	c.version = handshakeVersion(m)
	l.waiting = append(l.waiting, c)
	l.byHost[c.from.Host]++
	l.entered++
	h.roomWaiting(c, m, 1)
	place := uint32(len(l.waiting))
	wait := h.lineWait(place)
	h.tellPlace(c, place, wait)
	h.notes = append(h.notes, Note{Kind: NoteQueued, Conn: c.id, Host: c.from.Host, Room: c.room.name,
		Place: int(place), Reason: protocol.LineText(place, wait)})
	return true
}

// roomWaiting counts c, waiting to enter its room as m says (a player or
// a spectator), in or (by -1) out of the room's waiting.
func (h *Hub) roomWaiting(c *conn, m protocol.Message, by int) {
	if _, ok := m.(*protocol.Spectate); ok {
		c.room.waitWatchers += by
	} else {
		c.room.waitPlayers += by
	}
}

// roomWaitRefusal refuses m, c's Hello or Spectate, if its room has no
// place left for it once those waiting for the room are in: a full room
// is refused at once, as without a line, not after a wait. A room's
// players are held by its cap and by its map's floor (world.Core.Holds):
// a player who would find no free cell is told the room is full
// (protocol.ErrCodeRoomFull), not put in line for nothing.
func (h *Hub) roomWaitRefusal(c *conn, m protocol.Message) *protocol.Error {
	r := c.room
	cfg, st := r.core.Config(), r.core.Stats()
	if _, ok := m.(*protocol.Spectate); ok {
		if r.waitWatchers > 0 && st.Spectators+r.waitWatchers >= cfg.MaxSpectators {
			return &protocol.Error{Code: protocol.ErrCodeFull, Text: fmt.Sprintf(
				"spectators full: %d of %d, and %d waiting for the rest", st.Spectators, cfg.MaxSpectators, r.waitWatchers)}
		}
		return nil
	}
	holds := r.core.Holds()
	if st.Players+r.waitPlayers >= holds {
		return &protocol.Error{Code: protocol.RoomFullCode(handshakeVersion(m)),
			Text: world.RoomFullText(st.Players, holds, r.waitPlayers, holds < cfg.MaxPlayers)}
	}
	return nil
}

// lineRefusal refuses c a place at the end of the line: the line is
// full, c's address holds its share of it, or the wait would pass
// LineWait.
func (h *Hub) lineRefusal(now time.Duration, c *conn) *protocol.Error {
	l := &h.line
	place := uint32(len(l.waiting) + 1)
	o := h.outlook(now)
	if o.atCap { // c is counted in its room already, not yet in the line
		o.members--
		o.headroom = max(o.capacity-o.members, 0)
	}
	if wait := o.hope(place); wait > h.opts.LineWait { // the cause, before the line's own bounds
		return &protocol.Error{Code: protocol.ErrCodeFull, Text: h.tooLong(now, o, place, wait, 0)}
	}
	pool := share(h.lineMax(), h.opts.MaxPlayersPerAddr)
	switch mine := l.byHost[c.from.Host]; pool.Check(len(l.waiting), mine) {
	case limit.PoolFull:
		return &protocol.Error{Code: protocol.ErrCodeFull, Text: fmt.Sprintf(
			"server full: the line is full: %d wait already, the most it holds; try again later", len(l.waiting))}
	case limit.AddrFull:
		return &protocol.Error{Code: protocol.ErrCodeFull, Text: fmt.Sprintf(
			"too many players from your address in line: %d wait, the most one address may", mine)}
	case limit.Reserved:
		return &protocol.Error{Code: protocol.ErrCodeFull, Text: fmt.Sprintf(
			"server full: the line's last %d places are kept for addresses with nobody in it; try again later", pool.Reserve)}
	}
	return nil
}

// tooLong says why the one at place in line, who waited so far (0: a
// newcomer), would wait past the bound: the wait as o estimates it, and
// what holds the line (the capacity and its members, or the ticks'
// cost).
func (h *Hub) tooLong(now time.Duration, o outlook, place uint32, wait, waited time.Duration) string {
	text := h.tooLongText(now, o, place, wait, waited)
	return text[:min(len(text), maxErrorText)] // plain ASCII: cut anywhere
}

// maxErrorText is the longest text an Error carries (a string on the
// wire is at most 255 bytes).
const maxErrorText = 255

// tooLongText is tooLong's sentence, before any cut.
func (h *Hub) tooLongText(now time.Duration, o outlook, place uint32, wait, waited time.Duration) string {
	bound, more := fmt.Sprintf("the %v the server lets anyone wait", h.opts.LineWait), ""
	if waited > 0 {
		bound, more = fmt.Sprintf("%s (you waited %v)", bound, roundWait(waited)), " more"
	}
	if o.atCap && int(place) > o.headroom && o.freeingHigh <= 0 {
		return fmt.Sprintf("server full: at capacity: it holds about %d players by its ticks' cost and has %d, and none left in %v: "+
			"no place is coming for the %s in line within %s; try again later",
			o.capacity, o.members, rateWindow, protocol.Ordinal(place), bound)
	}
	ld := h.LoadAt(now)
	about := "no place is coming"
	if wait < forever {
		about = "the wait would be about " + roundWait(wait).String() + more
	}
	return fmt.Sprintf("server full: at capacity: %s for the %s in line, past %s; "+
		"its ticks take %v of their %v budget with %d players; try again later",
		about, protocol.Ordinal(place), bound, ld.Cost.Round(100*time.Microsecond), ld.Budget, ld.Members)
}

// roundWait rounds a wait for a sentence: to the second, to the minute
// past ten of them.
func roundWait(d time.Duration) time.Duration {
	if d >= 10*time.Minute {
		return d.Round(time.Minute)
	}
	return d.Round(time.Second)
}

// forever is the estimate of a wait in a line that has not moved for
// rateWindow: no place is coming.
const forever = time.Duration(1<<63 - 1)

// lineMax is the most that may wait: LineMax, or its default.
func (h *Hub) lineMax() int {
	if h.opts.LineMax > 0 {
		return h.opts.LineMax
	}
	return DefaultLineMax
}

// lineRefused ends c, refused a place in line (or put out of it) with e.
func (h *Hub) lineRefused(now time.Duration, c *conn, e *protocol.Error) {
	h.line.refused++
	h.refuse(now, c, e.Text, e)
}

// leaveLine takes c out of the line, if it waits, and frees its place.
func (h *Hub) leaveLine(c *conn) {
	if c.line == nil {
		return
	}
	l := &h.line
	l.waiting = slices.DeleteFunc(l.waiting, func(o *conn) bool { return o == c })
	if l.byHost[c.from.Host]--; l.byHost[c.from.Host] <= 0 {
		delete(l.byHost, c.from.Host)
	}
	h.roomWaiting(c, c.line.msg, -1)
	c.line = nil
}

// lineRate is the line's pace at now over the last window (whole
// seconds, at most rateWindow): the joins the ticks allowed in it, a
// second (see paceOf).
func (h *Hub) lineRate(now, window time.Duration) float64 {
	return h.paceOf(now, window, &h.line.secs, h.line.opened)
}

// paceOf is the count of the buckets of the last window (whole seconds,
// at most rateWindow) a second, from since on: each tick's allowance
// stands for the interval until the next tick, so in a burst's first
// second the allowances so far are read over the ticks they cover (one
// tick at capacity then, a garbage collection or the machine busy a
// moment, slows the estimate, it does not make it "no place is coming").
func (h *Hub) paceOf(now, window time.Duration, buckets *[rateSeconds]int, since time.Duration) float64 {
	l := &h.line
	h.rollRate(now)
	n := min(int(window/time.Second), rateSeconds)
	sum := 0
	for i := range n {
		sum += buckets[(int(l.sec/time.Second)-i+rateSeconds)%rateSeconds]
	}
	from := max(since, l.sec-time.Duration(n-1)*time.Second)
	span := now - from + time.Second/time.Duration(max(h.opts.Config.Rate, 1))
	if span <= 0 {
		return 0
	}
	return float64(sum) / span.Seconds()
}

// rollRate moves the pace's history on to the second of now, emptying
// the buckets of the seconds gone by.
func (h *Hub) rollRate(now time.Duration) {
	l := &h.line
	sec := now.Truncate(time.Second)
	for steps := 0; l.sec < sec && steps < rateSeconds; steps++ {
		l.sec += time.Second
		i := int(l.sec/time.Second) % rateSeconds
		l.secs[i], l.capSecs[i], l.leaves[i], l.caps[i] = 0, 0, 0, 0
	}
	l.sec = max(l.sec, sec)
}

// outlook is what the line expects at now, read once for every place
// (see lineWait): the steady pace, and at capacity the headroom the
// server's measured capacity leaves and the pace at which places free;
// each twice, soberly (for the waits told) and hopefully (for the
// refusals: one is refused only if even the hopeful reading brings no
// place in time).
type outlook struct {
	pace, paceHigh float64 // joins a second the ticks allow: the lower of the last 10 s's and the last steadySeconds', and the higher
	atCap          bool    // the server has been at capacity for a LoadWindow: places past headroom wait for places to free
	headroom       int     // at capacity: the members the capacity still holds, the highest it read over steadySeconds less those in
	capacity       int     // at capacity: that highest capacity
	members        int     // the members in now
	// At capacity, places freed a second: members leaving over the last
	// 10 s, or the line's pace since the server came to capacity (over
	// the last 10 s, and for freeingHigh the last steadySeconds too),
	// the more.
	freeing, freeingHigh float64
}

// steadySeconds is how far back the steady pace and the highest capacity
// are read: a burst's first seconds do not hold the pace up once it
// falls, and one second at capacity does not make it nothing.
const steadySeconds = 3

// outlook reads the line's outlook at now.
func (h *Hub) outlook(now time.Duration) outlook {
	l := &h.line
	o := outlook{members: h.members()}
	long, steady := h.lineRate(now, rateWindow), h.lineRate(now, steadySeconds*time.Second)
	o.pace, o.paceHigh = min(long, steady), max(long, steady)
	if !h.load.full || !l.atCap || now-l.capSince < LoadWindow {
		return o
	}
	o.atCap = true
	for i := range steadySeconds {
		o.capacity = max(o.capacity, l.caps[(int(l.sec/time.Second)-i+rateSeconds)%rateSeconds])
	}
	o.headroom = max(o.capacity-o.members, 0)
	o.freeing = max(h.paceOf(now, rateWindow, &l.leaves, l.opened), h.paceOf(now, rateWindow, &l.capSecs, l.capSince))
	o.freeingHigh = max(o.freeing, h.paceOf(now, steadySeconds*time.Second, &l.capSecs, l.capSince))
	return o
}

// wait is the estimated wait of the one at place in line, by o: forever
// if no place is coming. Below capacity, the place over the steady
// pace. At capacity, the places the headroom holds come at the pace (or
// as fast as places free, if that is faster), and each place past them
// only once a place frees (a member leaves, or the capacity as measured
// rises): a line of a thousand behind a server with room for twenty is
// told so, instead of the pace of a burst's first seconds.
func (o outlook) wait(place uint32) time.Duration { return o.waitAt(place, o.pace, o.freeing) }

// hope is the soonest a place could come for the one at place in line,
// by the higher readings of o: past it, no place is coming in time.
func (o outlook) hope(place uint32) time.Duration { return o.waitAt(place, o.paceHigh, o.freeingHigh) }

// waitAt is wait at the pace and the rate places free given.
func (o outlook) waitAt(place uint32, pace, freeing float64) time.Duration {
	p := float64(place)
	var secs float64
	switch {
	case !o.atCap:
		secs = p / pace
	case place <= uint32(o.headroom):
		secs = p / max(pace, freeing)
	default:
		h := float64(o.headroom)
		secs = h/max(pace, freeing) + (p-h)/freeing
	}
	if math.IsNaN(secs) || secs*float64(time.Second) >= float64(forever) {
		return forever
	}
	return time.Duration(secs * float64(time.Second))
}

// lineWait is the estimated wait of the one at place in line, now:
// forever if no place is coming.
func (h *Hub) lineWait(place uint32) time.Duration {
	return h.outlook(h.now).wait(place)
}

// pace works out, after a tick at now, how many joins the ticks' headroom
// allows before the next one, and lets in those waiting at the next
// Advance (Advance calls it).
func (h *Hub) pace(now time.Duration) {
	l := &h.line
	if l.opened == 0 && l.lastTik == 0 {
		l.opened = now
		l.sec = now.Truncate(time.Second)
	}
	l.lastTik = now
	l.unreported = 0 // taken in this wake with the tick: their cost is the tick's
	ld := h.LoadAt(now)
	k := 0
	if ld.Full {
		h.load.refused = now // held at capacity: noted, and not clear of it for a LoadWindow (noteCapacity)
		h.noteFull(ld, true)
	} else {
		head := max(ld.Budget-ld.Cost, 0)
		k = int(head / max(h.joinCost(), time.Microsecond))
		if ld.Capacity > 0 && h.members() >= ld.Floor {
			k = min(k, max(ld.Capacity-h.members(), 0))
		}
		k = max(k, 1)
	}
	l.allow, l.paced = k, k
	h.rollRate(now)
	i := int(l.sec/time.Second) % rateSeconds
	l.secs[i] += k
	l.caps[i] = max(l.caps[i], ld.Capacity)
	switch {
	case !h.load.full:
		l.atCap = false
	case !l.atCap:
		l.atCap, l.capSince = true, now
	}
	if l.atCap {
		l.capSecs[i] += k
	}
	l.due = len(l.waiting) > 0 && k > 0
}

// admitLine lets in as many of those waiting as the allowance holds, from
// the head of the line, at now.
func (h *Hub) admitLine(now time.Duration) {
	l := &h.line
	l.due = false
	for len(l.waiting) > 0 && (l.allow > 0 || !h.lineOn() || h.underFloor()) {
		c := l.waiting[0]
		in := c.line
		h.leaveLine(c)
		l.allow--
		l.unreported++
		l.admitted++
		if c.version < protocol.LineSince {
			h.send(c.id, &protocol.Notice{Text: h.drain.told}) // the place's words off its screen (the drain's back on)
		}
		h.notes = append(h.notes, Note{Kind: NoteAdmitted, Conn: c.id, Host: c.from.Host, Room: c.room.name, Waited: now - in.at})
		h.receive(now, c, in.msg)
	}
	l.allow = max(l.allow, 0)
}

// tellLine tells everyone in line their place and the estimate, in
// order, and refuses those whose wait would pass their time in line
// (LineWait from when they came) by the estimate now, at once instead of
// at its end, and those that waited LineWait already.
func (h *Hub) tellLine(now time.Duration) {
	l := &h.line
	l.told = now
	o := h.outlook(now)
	type out struct {
		c    *conn
		e    *protocol.Error
		wait time.Duration
	}
	var refused, told []out
	for i, c := range l.waiting {
		place, waited := uint32(i+1-len(refused)), now-c.line.at
		if waited >= h.opts.LineWait {
			refused = append(refused, out{c: c, e: &protocol.Error{Code: protocol.ErrCodeFull, Text: fmt.Sprintf(
				"server full: at capacity: no place came within %v in line; try again later", h.opts.LineWait)}})
			continue
		}
		if hope := o.hope(place); hope > h.opts.LineWait-waited {
			refused = append(refused, out{c: c, e: &protocol.Error{Code: protocol.ErrCodeFull, Text: h.tooLong(now, o, place, hope, waited)}})
			continue
		}
		told = append(told, out{c: c, wait: o.wait(place)})
	}
	for _, r := range refused {
		h.lineRefused(now, r.c, r.e)
	}
	for i, t := range told { // the line as it is once those are out
		h.tellPlace(t.c, uint32(i+1), t.wait)
	}
}

// tellPlace tells c, waiting in line, its place and its estimated wait:
// a Queued from version 6, a Notice before.
func (h *Hub) tellPlace(c *conn, place uint32, wait time.Duration) {
	q := &protocol.Queued{Place: place, Line: uint32(len(h.line.waiting)), WaitMS: uint32(min(wait, time.Duration(1<<32-1)*time.Millisecond) / time.Millisecond)}
	c.line.told = place
	if c.version >= protocol.LineSince {
		h.send(c.id, q)
		return
	}
	h.send(c.id, &protocol.Notice{Text: "waiting: " + q.Text()})
}

// lineMessage handles m from c, which waits in line: a Bye ends it (its
// place is free at once), a Ping is answered, anything else refuses it.
func (h *Hub) lineMessage(now time.Duration, c *conn, m protocol.Message) {
	switch v := m.(type) {
	case *protocol.Bye:
		h.line.left++
		reason := "said bye: " + protocol.Printable(v.Reason)
		h.forget(now, c)
		h.out = append(h.out, world.Envelope{To: c.id, Msg: &protocol.Bye{Reason: "goodbye"}, Close: true})
		h.notes = append(h.notes, Note{Kind: NoteEnded, Conn: c.id, Host: c.from.Host, Reason: reason})
	case *protocol.Ping:
		h.send(c.id, &protocol.Pong{Stamp: v.Stamp})
	default:
		text := fmt.Sprintf("protocol violation: %v while waiting in line", m.Type())
		h.refuse(now, c, text, &protocol.Error{Code: protocol.ErrCodeProtocol, Text: text})
	}
}

// JoinCost reports what the joins the hub took since the last report cost
// the adapter: from the call that took them (a Receive, or the Advance
// that let them in from the line) until their frames were queued, and
// writing those. The adapter calls it after each wake that did not tick;
// the hub takes it as the cost of the joins of that wake, if it took any,
// and paces the line on their mean (see pace).
func (h *Hub) JoinCost(cost time.Duration) {
	l := &h.line
	if l.unreported == 0 {
		return
	}
	each := max(cost, 0) / time.Duration(l.unreported)
	l.unreported = 0
	if !l.measured {
		l.joinCost, l.measured = each, true
		return
	}
	l.joinCost += (each - l.joinCost) / 4
}

// joinCost is what a join costs, as measured, or DefaultJoinCost before
// any was.
func (h *Hub) joinCost() time.Duration {
	if h.line.measured {
		return h.line.joinCost
	}
	return DefaultJoinCost
}

// Waiting reports whether connection id waits in line.
func (h *Hub) Waiting(id world.ConnID) bool {
	c := h.conns[id]
	return c != nil && c.line != nil
}

// lineWake is when the line has something to do: let in those waiting
// that the last tick's allowance holds (at that tick), tell the line its
// places (every lineTell), or let everyone in once the line is off (the
// update rate set to 0, say).
func (h *Hub) lineWake() (time.Duration, bool) {
	l := &h.line
	switch {
	case len(l.waiting) == 0:
		return 0, false
	case l.due || !h.lineOn():
		return l.lastTik, true
	}
	return l.told + lineTell, true
}

// advanceLine does the line's part of Advance at now: after a tick, the
// pace of the joins until the next one (those it lets in from the line
// are let in by the next Advance, apart from the tick's work, so that the
// adapter measures their cost apart); else those the allowance holds are
// let in, and the line is told its places when that is due.
func (h *Hub) advanceLine(now time.Duration, ticked bool) {
	l := &h.line
	switch {
	case ticked && h.lineOn():
		h.pace(now)
		return
	case l.due || !h.lineOn() && len(l.waiting) > 0:
		h.admitLine(now)
	}
	if len(l.waiting) > 0 && now >= l.told+lineTell {
		h.tellLine(now)
	}
}

// tellAdmission tells a client of version 6 or later that says Hello or
// Spectate the server's rules of admission that concern it, before
// anything else is said to it.
func (h *Hub) tellAdmission(c *conn, m protocol.Message) {
	v := uint16(0)
	switch hs := m.(type) {
	case *protocol.Hello:
		v = hs.Version
	case *protocol.Spectate:
		v = hs.Version
	}
	if v < protocol.LineSince || !protocol.Supported(v) {
		return
	}
	a := &protocol.Admission{}
	if !c.from.Own && c.code == "" {
		a.PerAddr = uint16(min(h.opts.MaxPlayersPerAddr, 1<<16-1))
	}
	if h.lineOn() {
		a.LineWaitS = uint16(min(h.opts.LineWait/time.Second, 1<<16-1))
		a.LineMax = uint32(h.lineMax())
	}
	h.send(c.id, a)
}

// lineNow is the line's part of LoadAt at now.
func (h *Hub) lineNow(now time.Duration) LineNow {
	l := &h.line
	ln := LineNow{On: h.lineOn(), Waiting: len(l.waiting), JoinCost: h.joinCost(),
		Entered: l.entered, Admitted: l.admitted, Refused: l.refused, Left: l.left}
	ln.Headroom = -1
	if ln.On && l.lastTik > 0 {
		ln.Pace = h.lineRate(now, rateWindow)
		if o := h.outlook(now); o.atCap {
			ln.Headroom = o.headroom
		}
	}
	return ln
}

// memberLeft counts a member leaving at now, for the rate at which
// places free (outlook).
func (h *Hub) memberLeft(now time.Duration) {
	l := &h.line
	h.rollRate(now)
	l.leaves[int(l.sec/time.Second)%rateSeconds]++
}
