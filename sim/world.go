package sim

import (
	"fmt"
	"sync"
	"time"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/protocol"
	"gridlag/server"
)

// World is a server core and its clients on one virtual clock. Its methods
// are safe for concurrent use.
type World struct {
	mu        sync.Mutex
	now       time.Duration
	server    *server.Core
	rate      int
	nextTick  time.Duration
	clients   []*Client // in the order they joined: the order of every step
	byID      map[server.ConnID]*Client
	nextConn  server.ConnID
	trace     func(Event)
	frames    []byte
	positions []grid.PlayerPos
}

// New returns a world around a server core with the given configuration.
func New(cfg server.Config) *World {
	cfg = cfg.WithDefaults()
	w := &World{server: server.NewCore(cfg), rate: cfg.Rate, byID: make(map[server.ConnID]*Client)}
	if w.rate > 0 {
		w.nextTick = w.interval()
	}
	return w
}

func (w *World) interval() time.Duration { return time.Second / time.Duration(w.rate) }

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

// Server returns the server core. Use it only between calls of the world.
func (w *World) Server() *server.Core { return w.server }

// Join connects a new client with the given name and options and advances
// the clock until its handshake is done (Welcome and first State received)
// or failed. Latency and jitter come from opts; opts.Seed 0 means seed 1.
func (w *World) Join(name string, opts client.Options) *Client {
	w.mu.Lock()
	defer w.mu.Unlock()
	opts.Name = name
	seed := opts.Seed
	if seed == 0 {
		seed = 1
	}
	opts.Seed = seed
	w.nextConn++
	c := &Client{
		w:    w,
		id:   w.nextConn,
		name: name,
		d:    client.NewDriver(w.now, opts),
		done: make(chan struct{}),
	}
	c.observe()
	w.clients = append(w.clients, c)
	w.byID[c.id] = c
	for !c.d.Core().Ready() && c.d.Phase() != client.Closed {
		next, ok := w.next()
		if !ok {
			break
		}
		w.step(next)
	}
	return c
}

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

// next returns the time of the earliest thing due.
func (w *World) next() (time.Duration, bool) {
	var best time.Duration
	found := false
	consider := func(t time.Duration, ok bool) {
		if ok && (!found || t < best) {
			best, found = t, true
		}
	}
	if w.rate > 0 && len(w.clients) > 0 {
		consider(w.nextTick, true)
	}
	for _, c := range w.clients {
		if c.gone {
			continue
		}
		consider(c.d.Next())
	}
	if found && best < w.now {
		best = w.now
	}
	return best, found
}

// step does everything due at time t, in a fixed order: frames reaching the
// server, the server's tick, frames reaching the clients, client timers.
func (w *World) step(t time.Duration) {
	w.now = t
	for _, c := range w.clients {
		if c.gone {
			continue
		}
		for _, f := range c.d.Outgoing(t) {
			if !c.cut {
				w.toServer(c, f)
			}
		}
	}
	if w.rate > 0 && len(w.clients) > 0 && w.nextTick <= t {
		w.server.Tick(t)
		w.route()
		w.nextTick += w.interval()
	}
	for _, c := range w.clients {
		if !c.gone {
			c.d.Update(t)
		}
	}
}

func (w *World) toServer(c *Client, frame []byte) {
	m, _, err := protocol.Unmarshal(frame)
	if err != nil {
		panic(fmt.Sprintf("sim: a client sent a frame that does not decode: %v", err))
	}
	before, had := w.position(c)
	w.server.Receive(w.now, c.id, m)
	switch m := m.(type) {
	case *protocol.Input:
		after, _ := w.position(c)
		w.emit(Event{T: w.now, Client: c, Kind: ServerInput, Seq: m.Seq, Dir: m.Dir, Pos: after, Moved: !had || after != before})
	case *protocol.Zap:
		z, _ := w.server.LastZap()
		w.emit(Event{T: w.now, Client: c, Kind: ServerZap, Seq: m.Seq, Dir: z.Beam.Dir, Pos: z.Beam.From, Zap: z})
	case *protocol.Hello:
		if p, ok := w.position(c); ok {
			w.emit(Event{T: w.now, Client: c, Kind: ServerJoin, Pos: p})
		}
	}
	w.route()
}

// Hangup closes client c's connection from the server's side, as a server
// that shuts down does: the server forgets the client at once, the client
// learns it after its link's latency, as the end of the stream.
func (w *World) Hangup(c *Client, reason string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if c.gone {
		return
	}
	c.d.Hangup(w.now, nil)
	c.cut = true
	w.disconnect(c, reason)
}

// disconnect tells the server that client c's connection closed.
func (w *World) disconnect(c *Client, reason string) {
	w.server.Disconnect(w.now, c.id, reason)
	w.emit(Event{T: w.now, Client: c, Kind: ServerDisconnect})
	w.route()
}

// route moves the server's outbox onto the clients' links, encoded as the
// TCP adapter encodes it (a State that changes nothing as a step). A
// connection the server closes after its last message is gone for the
// server at once, as the TCP adapter reports it; that may produce more
// messages to route.
func (w *World) route() {
	var closed []server.ConnID
	for _, e := range w.server.Outbox().Envelopes {
		c := w.client(e.To)
		if c == nil {
			continue
		}
		if e.Close {
			closed = append(closed, e.To)
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
		w.server.Disconnect(w.now, id, "closed by the server")
	}
	if len(closed) > 0 {
		w.route()
	}
}

func (w *World) client(id server.ConnID) *Client { return w.byID[id] }

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
	id, ok := w.server.Player(c.id)
	if !ok {
		return grid.Pos{}, false
	}
	w.positions = w.server.Positions(w.positions[:0])
	for _, p := range w.positions {
		if p.ID == id {
			return p.Pos, true
		}
	}
	return grid.Pos{}, false
}

// Locked runs f with the world's lock held, as a Trace function runs: f may
// use the Locked variants of the read methods.
func (w *World) Locked(f func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	f()
}
