package sim

import (
	"time"

	"gridlag/grid"
	"gridlag/internal/link"
	"gridlag/protocol"
)

// Way is one direction of a client's link.
type Way uint8

// The two ways of a link.
const (
	Up   Way = iota // from the client to the server
	Down            // from the server to the client
)

// Flight is a message on its way between a client and the server, decoded
// for a viewer that draws it travelling: what it is, when it left and
// arrives, how far along it is, and whether it is held up.
type Flight struct {
	// Type is the message's type; zero for the end of the stream (the
	// server closing the connection).
	Type protocol.Type
	// Seq and Dir are an Input's number and direction.
	Seq uint32
	Dir grid.Dir
	// Ack is a State's last processed input for the client.
	Ack uint32
	// Sent is when the message left; Arrive is when it reaches the far
	// end; At is when it is delivered there (later than Arrive when it
	// waits behind an earlier message).
	Sent, Arrive, At time.Duration
	// Resent is when the copy that gets through left: Sent, unless the
	// message was lost (Lost above zero), when it is the last of its
	// retransmissions, each after a timeout twice the one before (see
	// link.Line.SetLoss).
	Resent time.Duration
	// Progress is how far along its trip the copy that gets through is at
	// the world's time: 0 just sent (or, lost, waiting at the sender to be
	// sent again), 1 at the far end (see link.Flight.Progress).
	Progress float64
	// Waiting says it has reached the far end and waits there behind an
	// earlier message, as TCP keeps what comes after a lost segment in
	// the receiver's buffer.
	Waiting bool
	// Resending says it was lost and waits at the sender for its
	// retransmission.
	Resending bool
	// Lost is how many times the message is lost before a copy gets
	// through: above zero, it waits for a retransmission.
	Lost int
	// Held says the message arrives later than its own delay and
	// retransmissions make it: held by a stall or behind a lost message.
	Held bool
	// Dropped says the message is lost for good (a datagram): it never
	// arrives; At is when it would have.
	Dropped bool
	// Inputs are the inputs a datagram packet carries, oldest first
	// (Seq and Dir are the newest's); nil for anything else.
	Inputs []uint32
	// Bytes is the message's size on the wire.
	Bytes int
}

// InFlight appends to dst every message on client c's link one way, oldest
// first, and returns the extended slice.
func (c *Client) InFlight(way Way, dst []Flight) []Flight {
	c.w.mu.Lock()
	defer c.w.mu.Unlock()
	return c.inFlight(way, c.w.now, dst)
}

// inFlight is InFlight with the world's lock held, progress taken at now.
func (c *Client) inFlight(way Way, now time.Duration, dst []Flight) []Flight {
	if c.dg != nil {
		return c.dg.inFlight(way, now, dst)
	}
	line := c.d.Link().Down
	if way == Up {
		line = c.d.Link().Up
	}
	// The frames on the way down are the rest of the stream the client
	// decoded so far: a State step decodes from the State before it.
	states := c.d.States()
	for f := range line.InFlight {
		dst = append(dst, decodeFlight(f, &states, now))
	}
	return dst
}

// inFlight lists what is on a datagram link one way, in the order sent:
// the reliable channel's frames, then the datagrams.
func (g *dgram) inFlight(way Way, now time.Duration, dst []Flight) []Flight {
	var none protocol.StateStream
	rel := g.rel.Down
	if way == Up {
		rel = g.rel.Up
	}
	for f := range rel.InFlight {
		dst = append(dst, decodeFlight(f, &none, now))
	}
	if way == Down {
		for f := range g.down.InFlight {
			out := decodeFlight(f, &none, now)
			out.Dropped, out.Lost = f.Lost > 0, 0
			dst = append(dst, out)
		}
		return dst
	}
	for f := range g.up.InFlight {
		out := Flight{Sent: f.Sent, At: f.At, Progress: f.Progress(now), Held: f.Held, Dropped: f.Lost > 0}
		for _, frame := range f.Value {
			in := decodeFlight(link.Flight[[]byte]{Value: frame}, &none, now)
			out.Type, out.Seq, out.Dir = in.Type, in.Seq, in.Dir
			out.Inputs = append(out.Inputs, in.Seq)
			out.Bytes += len(frame)
		}
		dst = append(dst, out)
	}
	return dst
}

// decodeFlight labels a frame on a line at time now, decoding it on
// states, the stream it is on. Every frame on a simulated line is one
// whole frame the world encoded (or nil, the end of the stream), so it
// decodes.
func decodeFlight(f link.Flight[[]byte], states *protocol.StateStream, now time.Duration) Flight {
	out := Flight{Sent: f.Sent, Resent: f.Resent, Arrive: f.Arrive, At: f.At, Progress: f.Progress(now), Lost: f.Lost, Held: f.Held,
		Waiting: f.Waiting(now), Resending: f.Resending(now), Bytes: len(f.Value)}
	if f.Value == nil {
		return out
	}
	m, _, err := states.Unmarshal(f.Value)
	if err != nil {
		return out
	}
	out.Type = m.Type()
	switch m := m.(type) {
	case *protocol.Input:
		out.Seq, out.Dir = m.Seq, m.Dir
	case *protocol.Zap:
		out.Seq = m.Seq
	case *protocol.State:
		out.Ack = m.Ack
	}
	return out
}
