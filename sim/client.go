package sim

import (
	"fmt"
	"time"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/link"
	"gridlag/protocol"
	"gridlag/server"
)

// Client is a client core on a simulated link to the world's server. It
// implements client.Session on the world's virtual clock.
type Client struct {
	w       *World
	id      server.ConnID
	name    string
	core    *client.Core
	link    *link.Link[[]byte, []byte]
	changed chan struct{}
	done    chan struct{}
	gone    bool // fully disconnected: nothing more to deliver either way
	quit    bool // closed locally: the Bye and the close are still on the way up
	buf     []byte

	// BytesIn and BytesOut count the frames' bytes each way.
	BytesIn, BytesOut int64
}

// Name returns the client's player name.
func (c *Client) Name() string { return c.name }

// Core returns the client's core. Use it only between calls of the world.
func (c *Client) Core() *client.Core { return c.core }

// flush moves the core's outbox onto the link.
func (c *Client) flush() {
	for _, m := range c.core.Outbox() {
		var err error
		c.buf, err = protocol.Append(c.buf[:0], m)
		if err != nil {
			panic(fmt.Sprintf("sim: client message does not encode: %v", err))
		}
		c.BytesOut += int64(len(c.buf))
		c.link.Up.Send(c.w.now, append([]byte(nil), c.buf...))
	}
}

func (c *Client) fromServer(t time.Duration, frame []byte) {
	if c.quit {
		return
	}
	if frame == nil {
		c.core.Disconnected(fmt.Errorf("sim: server closed the connection"))
		c.end(t)
		return
	}
	c.BytesIn += int64(len(frame))
	m, _, err := protocol.Unmarshal(frame)
	if err != nil {
		panic(fmt.Sprintf("sim: the server sent a frame that does not decode: %v", err))
	}
	corrections := c.core.Stats().Corrections
	c.core.Receive(t, m)
	c.flush()
	if s, ok := m.(*protocol.State); ok {
		v := c.core.View(t)
		text := fmt.Sprintf("%s: state arrives, ack #%d, server says %v", c.name, s.Ack, v.Server)
		if len(v.Pending) > 0 && v.Reconcile {
			text += fmt.Sprintf(", replays %d pending", len(v.Pending))
		}
		if v.Corrections > corrections && v.LastCorrection != nil {
			text += fmt.Sprintf("; CORRECTION %v -> %v (%s)", v.LastCorrection.From, v.LastCorrection.To, v.LastCorrection.Reason)
		}
		c.w.emit(Event{T: t, Client: c, Kind: StateArrived, Seq: s.Ack, Text: text})
	} else {
		c.w.emit(Event{T: t, Client: c, Kind: OtherArrived, Text: fmt.Sprintf("%s: %v arrives", c.name, m.Type())})
	}
	signal(c.changed)
	if c.core.Phase() == client.Closed {
		c.end(t)
	}
}

func (c *Client) end(t time.Duration) {
	if c.gone || c.quit {
		return
	}
	c.gone = true
	close(c.done)
	signal(c.changed)
	c.w.emit(Event{T: t, Client: c, Kind: Closed, Text: fmt.Sprintf("%s: connection closed: %v", c.name, c.core.Err())})
}

func signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// Press implements client.Session at the world's current time.
func (c *Client) Press(d grid.Dir) {
	c.w.mu.Lock()
	defer c.w.mu.Unlock()
	r := c.core.Press(c.w.now, d)
	c.flush()
	v := c.core.View(c.w.now)
	text := ""
	switch r {
	case client.Sent:
		last := v.Pending[len(v.Pending)-1]
		text = fmt.Sprintf("%s: press %v, sends #%d", c.name, d, last.Seq)
		if v.Predict {
			text += fmt.Sprintf(", predicts %v", v.Predicted)
		}
	case client.Deferred:
		text = fmt.Sprintf("%s: press %v, held by the speed limit", c.name, d)
	default:
		text = fmt.Sprintf("%s: press %v, ignored", c.name, d)
	}
	c.w.emit(Event{T: c.w.now, Client: c, Kind: Press, Text: text})
}

// SetPredict implements client.Session.
func (c *Client) SetPredict(on bool) { c.locked(func() { c.core.SetPredict(on) }) }

// SetReconcile implements client.Session.
func (c *Client) SetReconcile(on bool) { c.locked(func() { c.core.SetReconcile(on) }) }

// SetInterpolate implements client.Session.
func (c *Client) SetInterpolate(on bool) { c.locked(func() { c.core.SetInterpolate(on) }) }

// SetLatency implements client.Session.
func (c *Client) SetLatency(rtt time.Duration) {
	c.locked(func() { c.link.Set(rtt, c.link.Jitter()) })
}

// SetJitter changes the injected jitter.
func (c *Client) SetJitter(j time.Duration) {
	c.locked(func() { c.link.Set(c.link.RTT(), j) })
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

// ViewLocked is View for use inside a Trace function.
func (c *Client) ViewLocked() client.View {
	v := c.core.View(c.w.now)
	v.Latency, v.Jitter = c.link.RTT(), c.link.Jitter()
	return v
}

// Changed implements client.Session.
func (c *Client) Changed() <-chan struct{} { return c.changed }

// Done implements client.Session.
func (c *Client) Done() <-chan struct{} { return c.done }

// Close implements client.Session: Bye goes on the link, then the
// connection closes when it arrives.
func (c *Client) Close() error {
	c.w.mu.Lock()
	defer c.w.mu.Unlock()
	if c.gone {
		return nil
	}
	if c.quit {
		return nil
	}
	c.core.Close()
	c.flush()
	c.link.Up.Send(c.w.now, nil)
	c.quit = true
	close(c.done)
	return nil
}

var _ client.Session = (*Client)(nil)
