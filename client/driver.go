package client

import (
	"time"

	"gridlag/grid"
)

// Driver runs a Core over a link of encoded frames, on a clock its caller
// gives: the wall clock for the TCP client (package client/tcp), a
// virtual one in a simulator (package sim). Bytes from the transport go
// in with Deliver (and Hangup at the end of the stream); Step delivers
// what the link has due to the core, lets the core do what is due, and
// returns the frames due to be written. Both directions wait on the
// link's injected latency, and the Driver counts the bytes either way.
// What happens to the core reaches the function given to Observe as
// notes; a Driver owns no channel, goroutine or clock. It is not safe
// for concurrent use.
type Driver struct {
	pipe[*Core]
}

// NewDriver returns a driver whose core says Hello at time now. The link
// takes opts.Latency, opts.Jitter, opts.Loss and opts.Seed as they are.
func NewDriver(now time.Duration, opts Options) *Driver {
	return &Driver{newPipe(now, NewCore(now, opts), opts)}
}

// Core returns the driven core. Use it only between calls of the driver.
func (d *Driver) Core() *Core { return d.m }

// Reconnect starts over on a new transport at time now, after a drop:
// what was in flight on the old one is forgotten (the core sends its
// unacknowledged inputs again once the server says which), and the core
// says Resume. The injected latency, jitter and loss stay as they were.
func (d *Driver) Reconnect(now time.Duration) {
	if d.m.Phase() != Reconnecting {
		return
	}
	d.record(Call{Kind: CallReconnect, At: now})
	d.fresh()
	d.m.Resume(now)
	d.flush(now)
}

// Press handles a key press at time now (see Core.Press); what it sends
// goes on the link.
func (d *Driver) Press(now time.Duration, dir grid.Dir) PressResult {
	d.record(Call{Kind: CallPress, At: now, Dir: dir})
	r := d.m.Press(now, dir)
	d.flush(now)
	return r
}

// Zap fires a zap at time now (see Core.Zap); it goes on the link.
func (d *Driver) Zap(now time.Duration) PressResult {
	d.record(Call{Kind: CallZap, At: now})
	r := d.m.Zap(now)
	d.flush(now)
	return r
}

// SetPredict turns prediction on or off (see Core.SetPredict).
func (d *Driver) SetPredict(on bool) {
	d.record(Call{Kind: CallPredict, On: on})
	d.m.SetPredict(on)
}

// SetReconcile turns reconciliation on or off (see Core.SetReconcile).
func (d *Driver) SetReconcile(on bool) {
	d.record(Call{Kind: CallReconcile, On: on})
	d.m.SetReconcile(on)
}

// SetInterpolate turns interpolation on or off.
func (d *Driver) SetInterpolate(on bool) {
	d.record(Call{Kind: CallInterpolate, On: on})
	d.m.SetInterpolate(on)
}

// Answer answers the round of the perception test being answered at time
// now (see Core.Answer); it goes on the link.
func (d *Driver) Answer(now time.Duration, laggy bool) bool {
	ok := d.m.Answer(now, laggy)
	d.flush(now)
	return ok
}

// View returns the core's view at time now, with the injected latency and
// jitter filled in.
func (d *Driver) View(now time.Duration) View {
	v := d.m.View(now)
	v.Latency, v.Jitter = d.link.RTT(), d.link.Jitter()
	return v
}

// Stats returns the core's running totals (the RTT list is a copy).
func (d *Driver) Stats() Stats {
	s := d.m.Stats()
	s.RTTs = append([]time.Duration(nil), s.RTTs...)
	return s
}
