package sim

import (
	"errors"
	"time"

	"gridlag/internal/link"
)

// SetLoss sets the probability that a message sent from now on, either
// way, is lost and retransmitted as TCP does (see link.Link.SetLoss).
func (c *Client) SetLoss(p float64) {
	c.locked(func() {
		if c.dg != nil {
			c.dg.setLoss(p)
			return
		}
		c.d.Link().SetLoss(p)
	})
}

// Loss returns the probability that a message is lost, either way.
func (c *Client) Loss() float64 {
	c.w.mu.Lock()
	defer c.w.mu.Unlock()
	if c.dg != nil {
		return c.dg.rel.Loss()
	}
	return c.d.Link().Loss()
}

// ApplyPreset sets the link's latency, jitter and loss to a named
// condition, for messages sent from now on (see link.Link.Apply).
func (c *Client) ApplyPreset(p link.Preset) {
	c.locked(func() {
		if c.dg != nil {
			c.dg.set(p.RTT(), p.Jitter())
			c.dg.setLoss(p.Loss)
			return
		}
		c.d.Link().Apply(p)
	})
}

// Stall puts a lag spike of length d on the link, both ways, from the
// world's time: nothing arrives until it ends, then the backlog at once,
// in order.
func (c *Client) Stall(d time.Duration) {
	c.locked(func() {
		if c.dg != nil {
			c.dg.stall(c.w.now, d)
			return
		}
		c.d.Link().Stall(c.w.now, d)
	})
}

// FollowTrace makes the client's link follow tr from the world's time
// now, tr's time 0: each step changes the link's conditions, or stalls
// it, at its time (see link.Link.Follow); nil stops following. A
// datagram link follows no trace.
func (c *Client) FollowTrace(tr *link.Trace) error {
	c.w.mu.Lock()
	defer c.w.mu.Unlock()
	return c.followTrace(tr, c.w.now)
}

// FollowTraceFrom is FollowTrace with tr's time 0 at start on the
// world's clock, which may be past: the steps due by now apply at once,
// each as of its own time.
func (c *Client) FollowTraceFrom(tr *link.Trace, start time.Duration) error {
	c.w.mu.Lock()
	defer c.w.mu.Unlock()
	return c.followTrace(tr, start)
}

func (c *Client) followTrace(tr *link.Trace, start time.Duration) error {
	if c.dg != nil {
		if tr == nil {
			return nil
		}
		return errors.New("sim: a trace is followed over TCP: the datagram link follows none")
	}
	c.d.FollowTraceFrom(c.w.now, tr, start)
	return nil
}

// TraceState returns where the client's link is in the trace it
// follows (see link.Link.TraceState); its Trace is nil for none.
func (c *Client) TraceState() link.TraceState {
	c.w.mu.Lock()
	defer c.w.mu.Unlock()
	if c.dg != nil {
		return link.TraceState{}
	}
	return c.d.Link().TraceState()
}
