package sim

import (
	"fmt"
	"sync"
	"time"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/protocol"
	"gridlag/server/hub"
	"gridlag/server/world"
)

// World is a server's hub (the one the TCP server runs: its rooms, their
// worlds, their schedule) and its clients on one virtual clock. Its
// methods are safe for concurrent use.
type World struct {
	mu        sync.Mutex
	now       time.Duration
	hub       *hub.Hub
	clients   []*Client // in the order they joined: the order of every step
	byID      map[world.ConnID]*Client
	watchers  []*Watcher // spectators and teachers (teach.go), after the clients
	watchByID map[world.ConnID]*Watcher
	nextConn  world.ConnID
	trace     func(Event)
	wire      func(Wire)
	frames    []byte
	positions []grid.PlayerPos
}

// New returns a world around a hub whose rooms play with the given game
// numbers (see NewHub).
func New(cfg world.Config) *World { return NewHub(hub.Options{Config: cfg}) }

// NewHub returns a world around a hub of opts at time 0, its default room
// open. The hub's rooms ping nobody until told to (PingEvery). The
// clients are the server's own (hub.Origin.Own): no per-address cap,
// share or rate applies to them.
func NewHub(opts hub.Options) *World {
	h := hub.New(0, opts)
	h.PingEvery(0, 0)
	return &World{hub: h, byID: make(map[world.ConnID]*Client), watchByID: make(map[world.ConnID]*Watcher)}
}

// Trace makes the world call f for every event, in order, with the world's
// lock held: f may read views (Client.ViewLocked) but must not call other
// methods of the world.
func (w *World) Trace(f func(Event)) {
	w.mu.Lock()
	w.trace = f
	w.mu.Unlock()
}

// Now returns the virtual time.
func (w *World) Now() time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.now
}

// Server returns the world of the server's default room. Use it only
// between calls of the world.
func (w *World) Server() *world.Core {
	c, _ := w.hub.Room("")
	return c
}

// Room returns the world of the room called name, if it is open. Use it
// only between calls of the world.
func (w *World) Room(name string) (*world.Core, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.hub.Room(name)
}

// Hub returns the server's hub. Use it only between calls of the world,
// to read it.
func (w *World) Hub() *hub.Hub { return w.hub }

// PingEvery makes the server ping every player every every from now on,
// the first time every from now, so that it measures their round trips,
// as a TCP server does every second; 0 stops the pings.
func (w *World) PingEvery(every time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.hub.PingEvery(w.now, every)
}

// Join connects a new client with the given name and options and advances
// the clock until its handshake is done (Welcome and first State received)
// or failed. Latency and jitter come from opts; opts.Seed 0 means seed 1.
func (w *World) Join(name string, opts client.Options) *Client {
	return w.JoinOver(name, opts, TCP)
}

// JoinOver is Join with the client's messages travelling over transport
// t: the latency, jitter and loss of opts are then those of a datagram
// link (see Datagram), not of the driver's own.
func (w *World) JoinOver(name string, opts client.Options, t Transport) *Client {
	w.mu.Lock()
	defer w.mu.Unlock()
	opts.Name = name
	seed := opts.Seed
	if seed == 0 {
		seed = 1
	}
	opts.Seed = seed
	opts.SharedClock = true // the server runs on the world's clock too
	c := &Client{
		w:    w,
		name: name,
		done: make(chan struct{}),
	}
	if t == Datagram {
		c.dg = newDgram(opts.Latency, opts.Jitter, opts.Loss, seed)
		opts.Latency, opts.Jitter, opts.Loss = 0, 0, 0
	}
	c.d = client.NewDriver(w.now, opts)
	c.observe()
	w.clients = append(w.clients, c)
	w.connect(c)
	deadline := w.now + JoinTimeout
	for !c.d.Core().Ready() && c.d.Phase() != client.Closed {
		next, ok := w.next()
		if !ok || next > deadline {
			break
		}
		w.step(next)
	}
	return c
}

// JoinTimeout bounds the virtual time Join waits for a handshake: a
// client not playing by then is returned as it is (its View says so).
const JoinTimeout = time.Minute

// Advance moves the virtual clock forward by d, delivering every message
// and running every timer due on the way, in time order.
func (w *World) Advance(d time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.advanceTo(w.now + d)
}

// AdvanceTo moves the virtual clock to t (if t is later than now).
func (w *World) AdvanceTo(t time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.advanceTo(t)
}

func (w *World) advanceTo(target time.Duration) {
	for {
		next, ok := w.next()
		if !ok || next > target {
			break
		}
		w.step(next)
	}
	if target > w.now {
		w.now = target
	}
}

// connect gives client c a new connection to the server.
func (w *World) connect(c *Client) {
	w.nextConn++
	c.id = w.nextConn
	w.byID[c.id] = c
	w.hub.Connect(w.now, c.id, hub.Origin{Own: true})
	w.route()
}

// next returns the time of the earliest thing due.
func (w *World) next() (time.Duration, bool) {
	var best time.Duration
	found := false
	consider := func(t time.Duration, ok bool) {
		if ok && (!found || t < best) {
			best, found = t, true
		}
	}
	consider(w.hub.NextWake())
	for _, c := range w.clients {
		if c.gone {
			continue
		}
		consider(c.d.Next())
		if c.dg != nil {
			consider(c.dg.next())
		}
	}
	for _, v := range w.watchers {
		if !v.gone {
			consider(v.d.Next())
		}
	}
	if found && best < w.now {
		best = w.now
	}
	return best, found
}

// step does everything due at time t, in a fixed order: frames reaching the
// server, the server's own times (its ticks, pings and timers: the hub's
// Advance), frames reaching the clients, client timers.
func (w *World) step(t time.Duration) {
	w.now = t
	if w.wire != nil {
		w.traceWire(t)
	}
	for _, c := range w.clients {
		if c.gone {
			continue
		}
		frames := c.d.Outgoing(t)
		if c.dg != nil {
			c.dg.send(t, frames)
			frames = c.dg.atServer(t)
		}
		for _, f := range frames {
			if !c.cut {
				w.toServer(c, f)
			}
		}
	}
	for _, v := range w.watchers {
		if !v.gone {
			for _, f := range v.d.Outgoing(t) {
				w.fromWatcher(v, f)
			}
		}
	}
	if at, ok := w.hub.NextWake(); ok && at <= t {
		w.hub.Advance(t)
		w.route()
	}
	for _, c := range w.clients {
		if c.gone {
			continue
		}
		if c.dg != nil {
			c.dg.atClient(t, c)
		}
		c.d.Update(t)
	}
	for _, v := range w.watchers {
		if !v.gone {
			v.d.Update(t)
		}
	}
}

func (w *World) toServer(c *Client, frame []byte) {
	m, _, err := protocol.Unmarshal(frame)
	if err != nil {
		panic(fmt.Sprintf("sim: a client sent a frame that does not decode: %v", err))
	}
	before, had := w.position(c)
	w.hub.Receive(w.now, c.id, m)
	if seq, ok := inputSeq(m); ok {
		if seq <= c.lastSeq {
			// A copy the server skips: a datagram link's repeat.
			if c.dg != nil && w.hub.Options().Config.Rate == 0 {
				c.dg.again(w.now)
			}
			w.route()
			return
		}
		c.lastSeq = seq
	}
	switch m := m.(type) {
	case *protocol.Input:
		after, _ := w.position(c)
		w.emit(Event{T: w.now, Client: c, Kind: ServerInput, Seq: m.Seq, Dir: m.Dir, Pos: after, Moved: !had || after != before})
	case *protocol.Zap:
		var z world.ZapRecord
		if r, ok := w.hub.RoomOf(c.id); ok {
			z, _ = r.LastZap()
		}
		w.emit(Event{T: w.now, Client: c, Kind: ServerZap, Seq: m.Seq, Dir: z.Beam.Dir, Pos: z.Beam.From, Zap: z})
	case *protocol.Hello:
		if p, ok := w.position(c); ok {
			w.emit(Event{T: w.now, Client: c, Kind: ServerJoin, Pos: p})
		}
	}
	w.route()
}

// inputSeq returns the number of an input (a move or a zap).
func inputSeq(m protocol.Message) (uint32, bool) {
	switch m := m.(type) {
	case *protocol.Input:
		return m.Seq, true
	case *protocol.Zap:
		return m.Seq, true
	}
	return 0, false
}

// Hangup closes client c's connection from the server's side, as a server
// that shuts down does: the server forgets the client at once (its player
// leaves), the client learns it after its link's latency, as the end of
// the stream.
func (w *World) Hangup(c *Client, reason string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if c.gone {
		return
	}
	c.d.Hangup(w.now, nil)
	c.cut = true
	w.hub.Close(w.now, c.id, reason)
	w.emit(Event{T: w.now, Client: c, Kind: ServerDisconnect})
	w.route()
}

// disconnect tells the server that client c's connection ended.
func (w *World) disconnect(c *Client, reason string) {
	w.hub.Disconnect(w.now, c.id, reason)
	w.emit(Event{T: w.now, Client: c, Kind: ServerDisconnect})
	w.route()
}

// route moves the server's outbox onto the clients' links, encoded as the
// TCP adapter encodes it (a State that changes nothing as a step). A
// connection the server closes after its last message is gone for the
// server at once, as the TCP adapter reports it; that may produce more
// messages to route.
func (w *World) route() {
	var closed []world.ConnID
	for _, e := range w.hub.Outbox().Envelopes {
		if w.toWatcher(e) {
			if e.Close {
				closed = append(closed, e.To)
			}
			continue
		}
		c := w.client(e.To)
		if c == nil {
			continue
		}
		if e.Close {
			closed = append(closed, e.To)
		}
		if c.dg != nil {
			if err := c.dg.fromServer(w.now, e.Msg); err != nil {
				panic(fmt.Sprintf("sim: the server sent a message that does not encode: %v", err))
			}
			if e.Close {
				c.dg.rel.Down.Send(w.now, nil)
				c.cut = true
			}
			continue
		}
		var err error
		w.frames, err = c.states.Append(w.frames[:0], e.Msg)
		if err != nil {
			panic(fmt.Sprintf("sim: the server sent a message that does not encode: %v", err))
		}
		c.d.Deliver(w.now, append([]byte(nil), w.frames...))
		if e.Close {
			c.d.Hangup(w.now, nil)
			c.cut = true
		}
	}
	for _, id := range closed {
		w.hub.Disconnect(w.now, id, "closed by the server")
	}
	if len(closed) > 0 {
		w.route()
	}
}

func (w *World) client(id world.ConnID) *Client { return w.byID[id] }

func (w *World) emit(e Event) {
	if w.trace != nil {
		w.trace(e)
	}
}

// Position returns where the server has client c's player now.
func (w *World) Position(c *Client) (grid.Pos, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.position(c)
}

// PositionLocked is Position for use inside a Trace function.
func (w *World) PositionLocked(c *Client) (grid.Pos, bool) { return w.position(c) }

func (w *World) position(c *Client) (grid.Pos, bool) {
	r, ok := w.hub.RoomOf(c.id)
	if !ok {
		return grid.Pos{}, false
	}
	id, ok := r.Player(c.id)
	if !ok {
		return grid.Pos{}, false
	}
	w.positions = r.Positions(w.positions[:0])
	for _, p := range w.positions {
		if p.ID == id {
			return p.Pos, true
		}
	}
	return grid.Pos{}, false
}

// Points returns the points the server counts for client c's player;
// ok is false when it has none in a room.
func (w *World) Points(c *Client) (points int, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	r, ok := w.hub.RoomOf(c.id)
	if !ok {
		return 0, false
	}
	id, ok := r.Player(c.id)
	if !ok {
		return 0, false
	}
	for _, e := range r.Scoreboard(nil) {
		if e.ID == id {
			return int(e.Points), true
		}
	}
	return 0, false
}

// Locked runs f with the world's lock held, as a Trace function runs: f may
// use the Locked variants of the read methods.
func (w *World) Locked(f func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	f()
}
