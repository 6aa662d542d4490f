package hub

import (
	"time"

	"gridlag/internal/link"
	"gridlag/protocol"
	"gridlag/server/world"
)

// The network a teacher sets for a room (class.go) is applied here, by the
// hub, to each student's connection, both ways: what the student sends
// waits on its connection's way up before the room's world takes it, and
// what the world (or the class) sends the student waits on its way down
// before the adapter gets it, each on a link.Line with the room's latency
// (half each way), jitter and loss (retransmitted after a timeout, with
// everything behind it waiting, as TCP does). So it holds for every
// student alike, over TCP, SSH or the web, on the wall clock of the TCP
// server and on the virtual clock of the simulator. A connection has such
// a network from the moment its room has one until its lines are empty
// once the room's is gone again (net.idle).

// held is one message on a connection's way down: its bytes, encoded when
// it was sent (the world reuses its messages), or the message itself for
// a map's piece, which every room shares and nobody changes.
type held struct {
	frame []byte
	piece protocol.Message
	close bool // the adapter closes the connection after it
}

// network is one connection's injected network.
type network struct {
	link *link.Link[protocol.Message, held]
	on   bool // the room's network is set; false: drain what is on the lines, then go
}

// newNetwork returns the network of connection id: its lines seeded by the
// connection, so that the same run gives the same delays.
func newNetwork(id world.ConnID) *network {
	return &network{link: link.New[protocol.Message, held](0, 0, int64(id)*1000003+17)}
}

// set gives the network the room's conditions: the round trip half each
// way, the jitter and the loss, for the messages sent from now on; or,
// with a trace (tr, whose time 0 is start), the trace's, step by step.
func (n *network) set(c protocol.Conditions, tr *link.Trace, start time.Duration) {
	if tr != nil {
		if was, from := n.link.Following(); was != tr || from != start {
			n.link.Follow(tr, start)
		}
		n.on = true
		return
	}
	n.link.Follow(nil, 0)
	n.link.Set(time.Duration(c.LatencyMS)*time.Millisecond, time.Duration(c.JitterMS)*time.Millisecond)
	n.link.SetLoss(float64(c.LossBP) / protocol.MaxLossBP)
	n.on = hasNetwork(c)
}

// idle reports whether the network has nothing left to do: the room has
// none, and nothing is on its lines.
func (n *network) idle() bool {
	return !n.on && n.link.Up.Len() == 0 && n.link.Down.Len() == 0
}

// hasNetwork reports whether conditions c change a connection's network.
func hasNetwork(c protocol.Conditions) bool {
	return c.LatencyMS > 0 || c.JitterMS > 0 || c.LossBP > 0 || c.Trace != ""
}

// network gives c, a student of room r, the room's network (its class's
// conditions, or the trace it follows), or takes it away (once its lines
// are empty) when the room has none. A subject of the room's perception
// test has its round's round trip instead (perceive.go).
func (h *Hub) network(c *conn, r *room) {
	cond, tr := r.class.set, r.class.trace
	if inj, ok := h.injected(c); ok {
		cond, tr = inj, nil
	}
	if c.net == nil {
		if !hasNetwork(cond) {
			return
		}
		c.net = newNetwork(c.id)
		h.lined = append(h.lined, c)
	}
	c.net.set(cond, tr, r.class.traceStart)
}

// hold puts m, from connection c at now, on its way up.
func (h *Hub) hold(now time.Duration, c *conn, m protocol.Message) {
	c.net.link.Up.Send(now, m)
}

// arrive hands the world what reached it on the connections' ways up by
// now, in the order each was sent.
func (h *Hub) arrive(now time.Duration) {
	for i := 0; i < len(h.lined); i++ {
		c := h.lined[i]
		h.upward = c.net.link.Up.Receive(now, h.upward[:0])
		for _, m := range h.upward {
			if h.conns[c.id] != c {
				break // refused on the way: what follows is nothing
			}
			h.dispatch(now, c, m)
		}
	}
	clear(h.upward)
}

// arriveAll hands the world everything still on c's way up, at now: c's
// connection ended, and what it sent before it did comes before its end,
// as on a TCP connection.
func (h *Hub) arriveAll(now time.Duration, c *conn) {
	if c.net == nil {
		return
	}
	for {
		at, ok := c.net.link.Up.Next()
		if !ok || h.conns[c.id] != c {
			return
		}
		h.upward = c.net.link.Up.Receive(at, h.upward[:0])
		for _, m := range h.upward {
			if h.conns[c.id] != c {
				break
			}
			h.dispatch(now, c, m)
		}
	}
}

// route hands e to the adapter in this batch, or puts it on its
// connection's way down if the connection has a network.
func (h *Hub) route(b *Out, e world.Envelope) {
	c := h.conns[e.To]
	if c == nil || c.net == nil {
		b.Envelopes = append(b.Envelopes, e)
		return
	}
	hd := held{close: e.Close}
	switch e.Msg.(type) {
	case *protocol.MapChunk, *protocol.MapBits:
		hd.piece = e.Msg
	default:
		f, err := protocol.Marshal(e.Msg)
		if err != nil {
			// Cannot happen with what a world sends; if it does, the
			// adapter meets the same error and says so.
			b.Envelopes = append(b.Envelopes, e)
			return
		}
		hd.frame = f
	}
	c.net.link.Down.Send(h.now, hd)
}

// release hands the adapter what reached the end of the connections' ways
// down by h.now, and forgets the networks that have nothing left to do.
func (h *Hub) release(b *Out) {
	keep := h.lined[:0]
	for _, c := range h.lined {
		if h.conns[c.id] != c {
			continue // ended: what was on its lines goes nowhere
		}
		h.downward = c.net.link.Down.Receive(h.now, h.downward[:0])
		for _, hd := range h.downward {
			m := hd.piece
			if m == nil {
				var err error
				if m, _, err = protocol.Unmarshal(hd.frame); err != nil {
					continue // encoded by Marshal above: cannot happen
				}
			}
			b.Envelopes = append(b.Envelopes, world.Envelope{To: c.id, Msg: m, Close: hd.close})
		}
		if c.net.idle() {
			c.net = nil
			continue
		}
		keep = append(keep, c)
	}
	clear(h.lined[len(keep):])
	h.lined = keep
	clear(h.downward)
}

// nextArrival returns when the next message on a connection's network
// arrives, either way; ok is false if none is on its way.
func (h *Hub) nextArrival() (at time.Duration, ok bool) {
	for _, c := range h.lined {
		if t, due := c.net.link.Next(); due && (!ok || t < at) {
			at, ok = t, true
		}
	}
	return at, ok
}
