package client

import (
	"errors"
	"fmt"
	"io"
	"time"

	"gridlag/grid"
	"gridlag/link"
	"gridlag/protocol"
)

// Driver runs a Core over a link of encoded frames, on a clock its caller
// gives: the wall clock for the TCP client, a virtual one in a simulator.
// Bytes from the transport go in with Deliver (and Hangup at the end of
// the stream); Step delivers what the link has due to the core, lets the
// core do what is due, and returns the frames due to be written. Both
// directions wait on the link's injected latency, and the Driver counts
// the bytes either way. A Driver is not safe for concurrent use.
type Driver struct {
	core    *Core
	link    *link.Link[[]byte, []byte]
	seed    int64 // the link's seed, for the link of the next connection
	changed chan struct{}
	observe func(Note)

	hangup  error    // why the transport's stream ended
	stream  []byte   // the start of a frame whose end has not come yet
	in, out [][]byte // scratch lists of chunks and frames, reused
	frame   []byte   // scratch encoding buffer

	bytesIn, bytesOut int64
	ended             bool // the core has closed and the observer was told
}

// NewDriver returns a driver whose core says Hello at time now. The link
// takes opts.Latency, opts.Jitter and opts.Seed as they are.
func NewDriver(now time.Duration, opts Options) *Driver {
	d := &Driver{
		core:    NewCore(now, opts),
		link:    link.New[[]byte, []byte](opts.Latency, opts.Jitter, opts.Seed),
		seed:    opts.Seed,
		changed: make(chan struct{}, 1),
	}
	d.flush(now)
	return d
}

// Core returns the driven core. Use it only between calls of the driver.
func (d *Driver) Core() *Core { return d.core }

// Link returns the injected link: frames to the server go up, bytes from
// it come down. A simulator or viewer uses it to list what is in flight and
// to set loss and stalls. Use it only between calls of the driver.
func (d *Driver) Link() *link.Link[[]byte, []byte] { return d.link }

// Observe makes the driver tell f what it does with the core during Step,
// as it happens; nil stops it.
func (d *Driver) Observe(f func(Note)) { d.observe = f }

// Changed receives a value (without blocking; capacity 1) whenever Step
// delivered something from the server: a message or the end of the stream.
func (d *Driver) Changed() <-chan struct{} { return d.changed }

// Deliver hands the driver bytes read from the transport at time now:
// whole frames or any part of the stream. They reach the core after the
// injected latency, in order.
func (d *Driver) Deliver(now time.Duration, data []byte) {
	if len(data) == 0 {
		return
	}
	d.bytesIn += int64(len(data))
	d.link.Down.Send(now, data)
}

// Hangup tells the driver that the transport's stream ended at time now,
// for reason err (nil: the server closed the connection). The core learns
// it after every byte delivered before, with the same latency, as a drop
// (see Core.Dropped).
func (d *Driver) Hangup(now time.Duration, err error) {
	if err == nil || errors.Is(err, io.EOF) {
		err = errors.New("client: the server closed the connection")
	}
	d.hangup = err
	d.link.Down.Send(now, nil)
}

// Step does everything due at time now (see Update) and returns the frames
// due to be written (see Outgoing), and when the next thing is due (see
// Next).
func (d *Driver) Step(now time.Duration) (frames [][]byte, next time.Duration, ok bool) {
	d.Update(now)
	frames = d.Outgoing(now)
	next, ok = d.Next()
	return frames, next, ok
}

// Update delivers to the core what the link has due at time now, then lets
// the core do what is due (a held press, a ping, the silence timeout), and
// puts what the core sends on the link.
func (d *Driver) Update(now time.Duration) {
	d.in = d.link.Down.Receive(now, d.in[:0])
	for _, chunk := range d.in {
		d.receive(now, chunk)
	}
	if len(d.in) > 0 {
		signal(d.changed)
	}
	clear(d.in)
	sent := d.core.Stats().InputsSent
	d.core.Advance(now)
	d.flush(now)
	if d.core.Stats().InputsSent > sent {
		d.note(Note{Kind: HeldSent})
	}
	d.checkEnded()
}

// receive hands the core every whole frame the stream holds once chunk is
// added; nil is the end of the stream.
func (d *Driver) receive(now time.Duration, chunk []byte) {
	if d.core.Phase() == Closed {
		return
	}
	if chunk == nil {
		d.core.Dropped(now, d.hangup)
		d.checkEnded()
		return
	}
	buf := append(d.stream, chunk...)
	for d.core.Phase() != Closed {
		m, n, err := protocol.Unmarshal(buf)
		if n == 0 {
			break // less than a whole frame: the rest is still on its way
		}
		buf = buf[n:]
		if err != nil {
			d.core.Disconnected(fmt.Errorf("client: from the server: %w", err))
			break
		}
		corrections := d.core.Stats().Corrections
		d.core.Receive(now, m)
		d.flush(now)
		d.note(Note{Kind: Arrived, Msg: m, Corrected: d.core.Stats().Corrections > corrections})
		d.checkEnded()
	}
	d.stream = append(d.stream[:0], buf...) // a partial frame waits for the rest
}

// checkEnded tells the observer, once, that the core has closed.
func (d *Driver) checkEnded() {
	if d.core.Phase() == Closed && !d.ended {
		d.ended = true
		d.note(Note{Kind: Ended})
	}
}

func (d *Driver) note(n Note) {
	if d.observe != nil {
		d.observe(n)
	}
}

// flush encodes the core's outbox onto the way up.
func (d *Driver) flush(now time.Duration) {
	for _, f := range d.encode() {
		d.link.Up.Send(now, f)
	}
}

// encode empties the core's outbox into frames of their own.
func (d *Driver) encode() [][]byte {
	var frames [][]byte
	for _, m := range d.core.Outbox() {
		var err error
		d.frame, err = protocol.Append(d.frame[:0], m)
		if err != nil {
			d.core.Disconnected(fmt.Errorf("client: %w", err))
			continue
		}
		frames = append(frames, append([]byte(nil), d.frame...))
	}
	return frames
}

// Outgoing returns the frames the link has due at time now, to be written
// to the transport in order, and counts them as sent. The list is reused
// by the next call.
func (d *Driver) Outgoing(now time.Duration) [][]byte {
	clear(d.out)
	d.out = d.link.Up.Receive(now, d.out[:0])
	for _, f := range d.out {
		d.bytesOut += int64(len(f))
	}
	return d.out
}

// Next returns when the driver next has something to do: a frame due
// either way or a core timer. ok is false when nothing is scheduled.
func (d *Driver) Next() (at time.Duration, ok bool) {
	at, ok = d.link.Next()
	if w, wok := d.core.NextWake(); wok && (!ok || w < at) {
		at, ok = w, true
	}
	return at, ok
}

// Drop tells the driver that writing to the transport failed at time now
// for reason err: the connection is lost (see Core.Dropped).
func (d *Driver) Drop(now time.Duration, err error) {
	d.core.Dropped(now, err)
	signal(d.changed)
}

// Reconnecting reports whether the connection dropped and the core waits
// for a new one: the caller dials again, then calls Reconnect.
func (d *Driver) Reconnecting() bool { return d.core.Phase() == Reconnecting }

// Reconnect starts over on a new transport at time now, after a drop:
// what was in flight on the old one is forgotten (the core sends its
// unacknowledged inputs again once the server says which), and the core
// says Resume. The injected latency and jitter stay as they were.
func (d *Driver) Reconnect(now time.Duration) {
	if !d.Reconnecting() {
		return
	}
	d.seed++
	d.link = link.New[[]byte, []byte](d.link.RTT(), d.link.Jitter(), d.seed)
	d.stream, d.hangup = d.stream[:0], nil
	d.core.Resume(now)
	d.flush(now)
}

// Closed reports whether the core has closed: the connection is over.
func (d *Driver) Closed() bool { return d.core.Phase() == Closed }

// Press handles a key press at time now (see Core.Press); what it sends
// goes on the link.
func (d *Driver) Press(now time.Duration, dir grid.Dir) PressResult {
	r := d.core.Press(now, dir)
	d.flush(now)
	return r
}

// SetPredict turns prediction on or off (see Core.SetPredict).
func (d *Driver) SetPredict(on bool) { d.core.SetPredict(on) }

// SetReconcile turns reconciliation on or off (see Core.SetReconcile).
func (d *Driver) SetReconcile(on bool) { d.core.SetReconcile(on) }

// SetInterpolate turns interpolation on or off.
func (d *Driver) SetInterpolate(on bool) { d.core.SetInterpolate(on) }

// SetLatency sets the injected round trip for messages sent from now on.
func (d *Driver) SetLatency(rtt time.Duration) { d.link.Set(rtt, d.link.Jitter()) }

// SetJitter sets the injected jitter for messages sent from now on.
func (d *Driver) SetJitter(j time.Duration) { d.link.Set(d.link.RTT(), j) }

// View returns the core's view at time now, with the injected latency and
// jitter filled in.
func (d *Driver) View(now time.Duration) View {
	v := d.core.View(now)
	v.Latency, v.Jitter = d.link.RTT(), d.link.Jitter()
	return v
}

// Stats returns the core's running totals (the RTT list is a copy).
func (d *Driver) Stats() Stats {
	s := d.core.Stats()
	s.RTTs = append([]time.Duration(nil), s.RTTs...)
	return s
}

// Bytes returns the bytes delivered from the transport and handed to it
// so far.
func (d *Driver) Bytes() (in, out int64) { return d.bytesIn, d.bytesOut }

// Close closes the core and returns its Bye, encoded, to be written at
// once: a player who quits does not wait for the injected latency. It
// returns nothing if the core had closed already.
func (d *Driver) Close() [][]byte {
	if d.core.Phase() == Closed {
		return nil
	}
	d.core.Close()
	d.ended = true
	bye := d.encode()
	for _, f := range bye {
		d.bytesOut += int64(len(f))
	}
	return bye
}

func signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}
