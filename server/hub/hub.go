package hub

import (
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"gridlag/internal/limit"
	"gridlag/protocol"
	"gridlag/server/world"
)

// Hub is the sans-I/O driver of a server's worlds: its rooms by name
// (room.go), the routing of each connection to one of them, what each
// address may take (admit.go), the room list, the drain's countdown
// (drain.go) and the schedule of it all. An adapter brings connections in
// and out (Connect, Receive, Disconnect, Close), calls Advance at
// NextWake, and sends and logs what Outbox hands over. It is not safe for
// concurrent use; one owner calls every method.
type Hub struct {
	opts  Options
	share *world.MapShare // the map every room plays on, and its pieces

	rooms   map[string]*room // the open rooms by name; "" is the default room
	order   []*room          // the same, in the order they opened: the order of Advance
	touched []*room          // the rooms given something since the last Outbox
	retired world.Stats      // the counters of the rooms closed

	conns map[world.ConnID]*conn
	gone  map[world.ConnID]*conn // ended since the last Outbox: their events still name their address

	// Admission, per address (admit.go).
	players    addrCount      // joined players per address
	joins      *limit.PerKey  // Hello, Spectate and Resume
	roomOpens  *limit.PerKey  // new rooms
	roomsBy    map[string]int // open rooms by the address that opened them
	lobby      *limit.PerKey  // room lists, per address
	lobbyAll   *limit.PerKey  // room lists, all addresses together ("")
	lobbySpare *limit.PerKey  // room lists for addresses that asked for none lately, past lobbyAll
	swept      time.Duration  // when the rates last forgot the addresses done with them
	list       roomList       // the room list, built once per change

	pingFirst time.Duration // a ping falls due then, and every PingInterval before and after
	pingEvery time.Duration // 0: no pings

	drain drainCount // the countdown of a drain, if one began
	load  loadMeter  // the ticks' costs, for admission by load (capacity.go)
	line  line       // the newcomers waiting, and the pace of the joins (line.go)

	classes int // classes begun, which numbers each (class.go)

	// The classes' codes (classcode.go): the room of each, by protocol.NormCode;
	// their generator; the wrong codes of each address.
	codes      map[string]*room
	codeRand   *rand.Rand
	wrongCodes *limit.PerKey

	// The teachers' network (network.go): the connections that have one,
	// in the order they got it, and scratch lists of what arrives.
	now      time.Duration // the time of the last call given one: what is sent in the batch is sent then
	lined    []*conn
	upward   []protocol.Message
	downward []held

	out     []world.Envelope // the hub's own messages since the last Outbox
	later   []world.Envelope // the hub's own messages that follow the worlds' (class.go)
	notes   []Note
	crowds  []CrowdOrder // the teachers' orders of bots since the last Outbox (crowd.go)
	batch   Out          // what the last Outbox handed over, its slices reused
	drained bool         // Outbox was called: the next producing call starts a new batch
}

// connState is where a connection is in its life, as the hub sees it.
type connState uint8

const (
	arriving connState = iota // connected; nothing of it handled yet
	listing                   // it asked for the room list: a lobby
	inRoom                    // its first Hello, Spectate or Resume chose a room
)

// conn is a connection the hub knows, from Connect until it ends.
type conn struct {
	id    world.ConnID
	from  Origin
	state connState
	room  *room // inRoom
	// heard says its room's world was given one of its messages: it knows
	// the connection, and counts it if it refuses it.
	heard    bool
	watching bool // a spectator of room, counted in its watchers

	version   uint16 // the protocol version of its handshake
	player    bool   // its room's world took its Hello or Resume
	spectator bool   // its room's world took its Spectate (or Teach)
	teaching  bool   // its handshake was a Teach (class.go)
	teacher   bool   // a teacher of its room
	code      string // the class code it presented (protocol.NormCode), "" for none (classcode.go)
	net       *network
	line      *inLine // where it waits in line, nil if it does not (line.go)
}

// counted reports whether c, ending now, counts as a refused connection:
// no world nor lobby ever took one of its messages.
func (c *conn) counted() bool {
	return c.state == arriving || c.state == inRoom && !c.heard
}

// New returns a hub of opts, its zero fields defaulted, with its default
// room open at now. It builds the map's share (a big map is compressed
// here, once). It panics if opts.Config fails Validate: game numbers come
// from the operator, and the adapter validates them first.
func New(now time.Duration, opts Options) *Hub {
	opts = opts.WithDefaults()
	if err := opts.Config.Validate(); err != nil {
		panic(err)
	}
	opts.Config = opts.Config.WithDefaults() // once: a room opens without finding the spawn again
	h := &Hub{
		opts:       opts,
		share:      world.NewMapShare(opts.Config.Map),
		rooms:      make(map[string]*room),
		conns:      make(map[world.ConnID]*conn),
		gone:       make(map[world.ConnID]*conn),
		players:    addrCount{hosts: make(map[world.ConnID]string), count: make(map[string]int), free: make(map[world.ConnID]bool)},
		joins:      limit.NewPerKey(limit.PerSecond(opts.JoinRate, JoinBurst*opts.JoinRate)),
		roomOpens:  limit.NewPerKey(limit.Rate{Burst: opts.RoomRate, Every: time.Minute / time.Duration(opts.RoomRate)}),
		roomsBy:    make(map[string]int),
		lobby:      limit.NewPerKey(limit.PerSecond(opts.LobbyRate, LobbyBurst*opts.LobbyRate)),
		lobbyAll:   limit.NewPerKey(limit.PerSecond(opts.LobbyRateTotal, LobbyBurst*opts.LobbyRateTotal)),
		lobbySpare: limit.NewPerKey(limit.PerSecond(max(opts.LobbyRateTotal/10, 1), LobbyBurst*max(opts.LobbyRateTotal/10, 1))),
		swept:      now,
		pingFirst:  now + opts.PingInterval,
		pingEvery:  opts.PingInterval,
		load:       loadMeter{budget: opts.TickBudget, floor: opts.LoadFloor},
		line:       line{byHost: make(map[string]int)},
		codes:      make(map[string]*room),
		codeRand:   newCodeRand(opts.CodeSeed),
		wrongCodes: limit.NewPerKey(limit.Rate{Burst: opts.CodeTries, Every: time.Minute / time.Duration(opts.CodeTries)}),
	}
	h.open(now, "")
	if h.lineOn() {
		h.pace(now) // the first tick's allowance
	}
	return h
}

// Share returns the map every room plays on, with what travels of it.
func (h *Hub) Share() *world.MapShare { return h.share }

// Config returns the game numbers of the default room, defaults filled in.
func (h *Hub) Config() world.Config { return h.rooms[""].core.Config() }

// Options returns the hub's options, defaults filled in (the game numbers'
// too).
func (h *Hub) Options() Options { return h.opts }

// Room returns the world of the room called name, if it is open. Use it
// only between calls of the hub, to read it.
func (h *Hub) Room(name string) (*world.Core, bool) {
	r := h.rooms[name]
	if r == nil {
		return nil, false
	}
	return r.core, true
}

// RoomOf returns the world of the room connection id was routed to, if it
// was. Use it only between calls of the hub, to read it.
func (h *Hub) RoomOf(id world.ConnID) (*world.Core, bool) {
	c := h.conns[id]
	if c == nil || c.room == nil {
		return nil, false
	}
	return c.room.core, true
}

// Stats returns the counters of every room, open and closed, summed (Ticks
// counts each room's ticks).
func (h *Hub) Stats() world.Stats {
	t := h.retired
	for _, r := range h.order {
		t.Add(r.core.Stats())
	}
	return t
}

// Rooms returns the counters of every open room, the default room first,
// the others by name.
func (h *Hub) Rooms() []RoomStats {
	rooms := make([]RoomStats, 0, len(h.order))
	for _, r := range h.order {
		rooms = append(rooms, RoomStats{Name: r.name, Stats: r.core.Stats()})
	}
	slices.SortFunc(rooms, func(a, b RoomStats) int { return strings.Compare(a.Name, b.Name) })
	return rooms
}

// Connect brings in connection id, from from, at now. The hub routes it
// by its first message (Receive). A connection that comes while the
// server drains is told so at once.
func (h *Hub) Connect(now time.Duration, id world.ConnID, from Origin) {
	h.begin()
	h.now = now
	h.conns[id] = &conn{id: id, from: from}
	if h.drain.told != "" {
		h.send(id, &protocol.Notice{Text: h.drain.told})
	}
}

// Receive hands the hub a decoded message from connection id, received
// at now. The first ListRooms of a connection is answered with the room
// list; its first Hello, Spectate or Resume chooses its room (opening a
// named room that is not open), and from then on everything it sends goes
// to that room's world. A request that breaks the hub's rules (admit.go)
// is refused with an Error, and the connection ends.
func (h *Hub) Receive(now time.Duration, id world.ConnID, m protocol.Message) {
	h.begin()
	h.now = now
	c := h.conns[id]
	if c == nil {
		return // refused or ended: what it still sends is nothing
	}
	if c.net != nil {
		h.hold(now, c, m) // its room's world gets it when it arrives (network.go)
		return
	}
	if c.state != inRoom {
		if lr, ok := m.(*protocol.ListRooms); ok {
			h.listRooms(now, c, lr)
			return
		}
		if code, ok := m.(*protocol.Code); ok {
			h.presentCode(now, c, code)
			return
		}
		if e := h.teachRefusal(c, m); e != nil {
			h.refuse(now, c, e.Text, e)
			return
		}
		m = teach(c, m)
		h.tellAdmission(c, m)
		if e := h.joinRefusal(now, c, m); e != nil {
			h.refuse(now, c, e.Text, e)
			return
		}
		if e := h.capacityRefusal(now, m); e != nil {
			h.refuse(now, c, e.Text, e)
			return
		}
		if !h.enter(now, c, m) {
			return
		}
	}
	h.dispatch(now, c, m)
}

// dispatch hands m, from c (in a room), to the hub's rules, the room's
// class or its world.
func (h *Hub) dispatch(now time.Duration, c *conn, m protocol.Message) {
	if c.line != nil {
		h.lineMessage(now, c, m)
		return
	}
	if e := h.playerRefusal(c, m); e != nil {
		h.refuse(now, c, e.Text, e)
		return
	}
	if e := h.teachRefusal(c, m); e != nil {
		h.refuse(now, c, e.Text, e)
		return
	}
	if h.classMessage(now, c, m) {
		return
	}
	if h.queue(now, c, m) {
		return // it waits in line, or was refused a place
	}
	h.receive(now, c, m)
}

// Disconnect reports that connection id ended at now, for reason: it
// closed or broke, or the adapter gave up on it. Its player leaves, or,
// where its world keeps players for resume, is kept for a while (see
// world.Core.Drop). An unknown or ended connection is ignored.
func (h *Hub) Disconnect(now time.Duration, id world.ConnID, reason string) {
	h.end(now, id, reason, (*world.Core).Drop)
}

// Resync makes the next State to connection id a full picture of its
// area (world.Core.Resync): the adapter skipped States it could not take.
func (h *Hub) Resync(id world.ConnID) {
	if c := h.conns[id]; c != nil && c.room != nil {
		c.room.core.Resync(id)
	}
}

// Close ends connection id on the server's account at now, for reason (a
// server shutting down): its player leaves at once, as with a Bye.
func (h *Hub) Close(now time.Duration, id world.ConnID, reason string) {
	h.end(now, id, reason, (*world.Core).Disconnect)
}

// end takes connection id out of the hub and tells its world with tell.
func (h *Hub) end(now time.Duration, id world.ConnID, reason string, tell func(*world.Core, time.Duration, world.ConnID, string)) {
	h.begin()
	h.now = now
	c := h.conns[id]
	if c == nil {
		return
	}
	h.arriveAll(now, c)
	if h.conns[id] != c {
		return // refused by what it sent last
	}
	if c.line != nil {
		h.line.left++
	}
	h.forget(now, c)
	if r := c.room; r != nil {
		tell(r.core, now, id, reason)
	}
	h.notes = append(h.notes, Note{Kind: NoteEnded, Conn: id, Host: c.from.Host, Reason: reason, Counted: c.counted()})
}

// forget takes c out of the hub's connections and its room's count (and
// class), at now; what was on its network goes nowhere.
func (h *Hub) forget(now time.Duration, c *conn) {
	delete(h.conns, c.id)
	h.gone[c.id] = c
	if c.player || c.spectator {
		h.memberLeft(now) // the line's estimates read how fast places free
	}
	h.leaveLine(c) // its place is free at once
	if c.net != nil {
		h.lined = slices.DeleteFunc(h.lined, func(o *conn) bool { return o == c })
		c.net = nil
	}
	h.leaveClass(now, c)
	if r := c.room; r != nil {
		h.touch(r)
		r.conns--
		if c.watching {
			c.watching = false
			r.unwatched(c.from.Host)
		}
	}
}

// refuse ends c, whose request breaks the hub's rules, with e (reason is
// for the log): e goes to it with Close.
func (h *Hub) refuse(now time.Duration, c *conn, reason string, e *protocol.Error) {
	counted := c.counted()
	h.forget(now, c)
	if r := c.room; r != nil {
		r.core.Drop(now, c.id, reason) // a world that never heard of it ignores it
	}
	h.out = append(h.out, world.Envelope{To: c.id, Msg: e, Close: true})
	h.notes = append(h.notes, Note{Kind: NoteRefused, Conn: c.id, Host: c.from.Host, Reason: reason, Counted: counted})
}

// send queues the hub's own message m for connection id.
func (h *Hub) send(id world.ConnID, m protocol.Message) {
	h.out = append(h.out, world.Envelope{To: id, Msg: m})
}

// touch notes that r was given something (a message, a tick, a
// disconnection): the next Outbox takes its output and reports its
// counters. Only the rooms touched cost an Outbox anything.
func (h *Hub) touch(r *room) {
	if !r.touched {
		r.touched = true
		h.touched = append(h.touched, r)
	}
}

// NextWake returns when Advance next has something to do: a room's tick,
// pings or away player's window (world.Core.NextWake), the drain's next
// notice, forgetting the addresses done with their rates, a message
// arriving on a student's network (either way). ok is false when nothing
// is scheduled.
func (h *Hub) NextWake() (at time.Duration, ok bool) {
	consider := func(t time.Duration, due bool) {
		if due && (!ok || t < at) {
			at, ok = t, true
		}
	}
	for _, r := range h.order {
		consider(r.core.NextWake())
	}
	consider(h.drain.next, h.drain.counting)
	consider(h.swept+sweepEvery, h.rated())
	consider(h.nextArrival())
	consider(h.traceWake())
	consider(h.lineWake())
	consider(h.perceptionWake())
	return at, ok
}

// NextTick returns when the first room's next tick is due; ok is false
// while no room ticks.
func (h *Hub) NextTick() (at time.Duration, ok bool) {
	for _, r := range h.order {
		if t, due := r.core.NextTick(); due && (!ok || t < at) {
			at, ok = t, true
		}
	}
	return at, ok
}

// sweepEvery is how often the rates forget the addresses done with them.
const sweepEvery = time.Second

// Advance does what is due at now: the messages that reach the worlds on
// the students' networks, then, in the order the rooms opened, their
// ticks, pings and away players' windows, the drain's notice, the rates'
// sweep (what reaches the students on their networks by now goes in the
// next Outbox). It reports whether a room ticked.
func (h *Hub) Advance(now time.Duration) (ticked bool) {
	h.begin()
	h.now = now
	h.arrive(now)
	h.stepTraces(now)
	h.stepPerception(now)
	for _, r := range h.order {
		if at, ok := r.core.NextWake(); ok && at <= now {
			ticked = r.core.Advance(now) || ticked
			h.tellReports(r)
			h.touch(r)
		}
	}
	h.advanceLine(now, ticked)
	if h.drain.counting && now >= h.drain.next {
		h.countDown(now)
	}
	if h.rated() && now >= h.swept+sweepEvery {
		h.sweepRates(now)
	}
	return ticked
}

// SetRate changes every room's update rate to hz at now (see
// world.Core.SetRate), and that of the rooms opened later.
func (h *Hub) SetRate(now time.Duration, hz int) {
	h.opts.Config.Rate = hz
	for _, r := range h.order {
		r.core.SetRate(now, hz)
	}
}

// SetLagComp turns every room's lag compensation on or off, and that of
// the rooms opened later (see world.Core.SetLagComp).
func (h *Hub) SetLagComp(on bool) {
	h.opts.Config.LagComp = on
	for _, r := range h.order {
		r.core.SetLagComp(on)
	}
}

// SetAreas turns every room's areas of interest on or off, and those of
// the rooms opened later (see world.Core.SetAreas).
func (h *Hub) SetAreas(on bool) {
	h.opts.Config.AreasOff = !on
	for _, r := range h.order {
		r.core.SetAreas(on)
	}
}

// PingEvery makes every room ping its players every every from now on,
// the first time every from now; 0 stops the pings.
func (h *Hub) PingEvery(now, every time.Duration) {
	h.pingFirst, h.pingEvery = now+every, every
	for _, r := range h.order {
		r.core.SetPings(h.nextPing(now), every)
	}
}

// nextPing returns when a room opened at now pings first: the hub's
// pings fall on one beat for every room.
func (h *Hub) nextPing(now time.Duration) time.Duration {
	if h.pingEvery <= 0 || h.pingFirst > now {
		return h.pingFirst
	}
	return h.pingFirst + h.pingEvery*((now-h.pingFirst)/h.pingEvery+1)
}

// begin starts a new batch if the last one was handed over.
func (h *Hub) begin() {
	if h.drained {
		h.drained = false
		clear(h.out)
		h.out = h.out[:0]
		clear(h.later)
		h.later = h.later[:0]
		h.notes = h.notes[:0]
		clear(h.crowds)
		h.crowds = h.crowds[:0]
		clear(h.gone)
	}
}

// Outbox hands over everything produced since the last Outbox call (see
// Out) and ends the batch: the worlds' messages and events, the hub's own,
// and the counters of the rooms touched. What goes to a student whose
// room's teacher set a network goes on its way down, and comes out of the
// Outbox when it arrives (network.go). The rooms that nobody is in any
// more are closed. Everything in it stays valid until the next call of
// any method of the hub.
func (h *Hub) Outbox() Out {
	h.begin()
	h.drained = true
	b := &h.batch
	clear(b.Envelopes)
	b.Envelopes = append(b.Envelopes[:0], h.out...)
	b.Rooms, b.Closed = b.Rooms[:0], b.Closed[:0]
	for i := 0; i < len(h.touched); i++ {
		r := h.touched[i]
		batch := r.core.Outbox()
		for _, ev := range batch.Events {
			h.happened(r, ev)
		}
		for _, e := range batch.Envelopes {
			h.route(b, e)
		}
	}
	for _, e := range h.later {
		h.route(b, e)
	}
	h.release(b)
	h.closeEmptyRooms()
	for _, r := range h.touched {
		b.Rooms = append(b.Rooms, RoomStats{Name: r.name, Stats: r.core.Stats()})
		if r.closed {
			b.Closed = append(b.Closed, r.name)
		}
		r.touched = false
	}
	clear(h.touched)
	h.touched = h.touched[:0]
	b.Notes = h.notes
	b.Crowds = h.crowds
	return *b
}

// happened notes ev, an event of r's world, and counts the players of
// each address by it.
func (h *Hub) happened(r *room, ev world.Event) {
	ev.Room = r.name
	n := Note{Kind: NoteEvent, Event: ev, Conn: ev.Conn, Room: r.name}
	c := h.conns[ev.Conn]
	if c == nil {
		c = h.gone[ev.Conn] // ended since the last Outbox
	}
	if c != nil {
		n.Host = c.from.Host
	}
	switch ev.Kind {
	case world.EventJoin:
		if c != nil && !c.from.Own {
			h.players.join(ev.Conn, n.Host, c.classed(h)) // at its Hello already (receive): once
		}
		h.list.dirty = true
	case world.EventLeave:
		n.Host = h.players.hosts[ev.Conn] // its connection may be long gone (away)
		h.players.leave(ev.Conn)
		h.list.dirty = true
	case world.EventAway:
		n.Host = h.players.hosts[ev.Conn] // its connection is gone already
	case world.EventResume:
		h.players.leave(ev.From)
		if c != nil && !c.from.Own {
			h.players.join(ev.Conn, n.Host, c.classed(h))
		}
	case world.EventWatch, world.EventUnwatch:
		h.list.dirty = true
	}
	h.notes = append(h.notes, n)
}
