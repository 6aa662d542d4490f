package sim

import (
	"time"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/internal/notify"
	"gridlag/protocol"
	"gridlag/server/world"
)

// Client is a client driver (client.Driver, the code a TCP player runs) on
// a simulated link to the world's server. It implements client.Session on
// the world's virtual clock.
type Client struct {
	w       *World
	id      world.ConnID
	name    string
	d       *client.Driver
	changed chan struct{} // signalled (capacity 1) at each note of the driver
	done    chan struct{}
	dg      *dgram // the datagram link; nil on TCP (the driver's own link)
	gone    bool   // closed by either side: nothing more to deliver either way
	cut     bool   // closed by the server: what the client still sends is lost
	// lastSeq is the last input the client's connection brought the
	// server: a datagram link's repeats of it, or of one before, are
	// skipped by the server, and not reported.
	lastSeq uint32
	// states is the server's end of the stream to the client: the last
	// State sent, the base of a step.
	states protocol.StateStream
}

// Name returns the client's player name.
func (c *Client) Name() string { return c.name }

// observe makes the client take the notes of its driver.
func (c *Client) observe() {
	c.changed = make(chan struct{}, 1)
	c.d.Observe(c.noted)
}

// noted reports what the driver did as an event of the world, and wakes
// the reader of Changed.
func (c *Client) noted(n client.Note) {
	t := c.w.now
	v := c.view(t)
	switch n.Kind {
	case client.Arrived:
		s, ok := n.Msg.(*protocol.State)
		if !ok {
			c.w.emit(Event{T: t, Client: c, Kind: OtherArrived, Message: n.Msg.Type()})
			break
		}
		e := Event{T: t, Client: c, Kind: StateArrived, Seq: s.Ack, Pos: v.Server, Correction: n.Correction, Made: time.Duration(s.TimeNS)}
		if v.Reconcile {
			e.Replayed = len(v.Pending)
		}
		c.w.emit(e)
	case client.Lived:
		c.w.emit(Event{T: t, Client: c, Kind: Lived, Seq: n.Life.Seq, Life: n.Life})
	case client.LinkChanged:
		tr, _ := c.d.Link().Following()
		e := Event{T: t, Client: c, Kind: LinkChanged, Step: n.Step}
		if tr != nil {
			e.Trace = tr.Name
		} else if room := v.Teaching; room != nil {
			e.Trace = room.Trace // the room's, as its teacher set it
		}
		c.w.emit(e)
	case client.HeldSent:
		last := v.Pending[len(v.Pending)-1]
		c.w.emit(Event{T: t, Client: c, Kind: HeldSent, Seq: last.Seq, Dir: last.Dir, Predict: v.Predict, Pos: v.Predicted})
	case client.Entered:
		if n.Phase == client.Closed {
			c.end()
			c.w.emit(Event{T: t, Client: c, Kind: Closed, Err: n.Err})
		}
	}
	notify.Poke(c.changed)
}

// end marks the client gone and its session done.
func (c *Client) end() {
	c.gone = true
	close(c.done)
}

// Press implements client.Session at the world's current time.
func (c *Client) Press(d grid.Dir) {
	c.w.mu.Lock()
	defer c.w.mu.Unlock()
	e := Event{T: c.w.now, Client: c, Kind: Press, Dir: d, Result: c.d.Press(c.w.now, d)}
	if e.Result == client.Sent {
		v := c.view(c.w.now)
		e.Seq, e.Predict, e.Pos = v.Pending[len(v.Pending)-1].Seq, v.Predict, v.Predicted
	}
	c.w.emit(e)
}

// Zap implements client.Session at the world's current time.
func (c *Client) Zap() {
	c.w.mu.Lock()
	defer c.w.mu.Unlock()
	e := Event{T: c.w.now, Client: c, Kind: Zapped, Result: c.d.Zap(c.w.now)}
	if e.Result == client.Sent {
		v := c.view(c.w.now)
		e.Seq, e.Dir, e.Pos = v.Pending[len(v.Pending)-1].Seq, v.Facing, v.Predicted
	}
	c.w.emit(e)
}

// SetPredict implements client.Session.
func (c *Client) SetPredict(on bool) { c.locked(func() { c.d.SetPredict(on) }) }

// SetReconcile implements client.Session.
func (c *Client) SetReconcile(on bool) { c.locked(func() { c.d.SetReconcile(on) }) }

// SetInterpolate implements client.Session.
func (c *Client) SetInterpolate(on bool) { c.locked(func() { c.d.SetInterpolate(on) }) }

// SetLatency implements client.Session.
func (c *Client) SetLatency(rtt time.Duration) {
	c.locked(func() {
		if c.dg != nil {
			c.dg.set(rtt, c.dg.jitter)
			return
		}
		c.d.SetLatency(rtt)
	})
}

// Answer implements client.Answerer at the world's current time.
func (c *Client) Answer(laggy bool) { c.locked(func() { c.d.Answer(c.w.now, laggy) }) }

// SetJitter changes the injected jitter.
func (c *Client) SetJitter(j time.Duration) {
	c.locked(func() {
		if c.dg != nil {
			c.dg.set(c.dg.rtt, j)
			return
		}
		c.d.SetJitter(j)
	})
}

func (c *Client) locked(f func()) {
	c.w.mu.Lock()
	f()
	c.w.mu.Unlock()
}

// View implements client.Session at the world's current time.
func (c *Client) View() client.View {
	c.w.mu.Lock()
	defer c.w.mu.Unlock()
	return c.ViewLocked()
}

// ViewAt returns the view the client shows at time t, later than the
// world's, with nothing delivered or sent in between: what a screen draws
// between two events (others interpolated, a freeze running out). t must
// not be past the world's next event (Next).
func (c *Client) ViewAt(t time.Duration) client.View {
	c.w.mu.Lock()
	defer c.w.mu.Unlock()
	return c.d.View(max(t, c.w.now))
}

// ViewLocked is View for use inside a Trace function.
func (c *Client) ViewLocked() client.View { return c.view(c.w.now) }

// view is the driver's view at t, with the datagram link's conditions.
func (c *Client) view(t time.Duration) client.View {
	v := c.d.View(t)
	if c.dg != nil {
		v.Latency, v.Jitter = c.dg.rtt, c.dg.jitter
	}
	return v
}

// Instruments implements client.Instrumented at the world's current time.
func (c *Client) Instruments(dst *client.Instruments) {
	c.w.mu.Lock()
	defer c.w.mu.Unlock()
	c.d.Instruments(c.w.now, dst)
}

// SetTrace implements client.Instrumented.
func (c *Client) SetTrace(on bool) { c.locked(func() { c.d.SetTrace(c.w.now, on) }) }

// SetSmooth implements client.Instrumented.
func (c *Client) SetSmooth(on bool) { c.locked(func() { c.d.SetSmooth(on) }) }

// Stats returns the client's running totals (the RTT list is a copy).
func (c *Client) Stats() client.Stats {
	c.w.mu.Lock()
	defer c.w.mu.Unlock()
	return c.d.Stats()
}

// Bytes returns the bytes of the frames that came from the server and
// went to it so far.
func (c *Client) Bytes() (in, out int64) {
	c.w.mu.Lock()
	defer c.w.mu.Unlock()
	if c.dg != nil {
		return c.dg.stats.BytesDown, c.dg.stats.BytesUp
	}
	return c.d.Bytes()
}

// Changed implements client.Session: it receives at each note of the
// driver (a message arrived, a held press went, the connection changed
// phase).
func (c *Client) Changed() <-chan struct{} { return c.changed }

// Done implements client.Session.
func (c *Client) Done() <-chan struct{} { return c.done }

// Close implements client.Session: the Bye reaches the server at once,
// and the connection closes, as the TCP client does it.
func (c *Client) Close() error {
	c.w.mu.Lock()
	defer c.w.mu.Unlock()
	if c.gone {
		return nil
	}
	for _, f := range c.d.Close() {
		c.w.toServer(c, f)
	}
	c.end()
	c.w.disconnect(c, "client closed")
	return nil
}

var (
	_ client.Session      = (*Client)(nil)
	_ client.Instrumented = (*Client)(nil)
	_ client.Answerer     = (*Client)(nil)
)
