package client

import (
	"errors"
	"fmt"
	"io"
	"time"

	"gridlag/link"
	"gridlag/protocol"
)

// machine is a sans-I/O core a pipe runs: a player's Core or a
// Spectator.
type machine interface {
	Phase() Phase
	Err() error
	Disconnected(err error)
	// Dropped is Disconnected for a connection that broke rather than
	// ended: a player's Core may wait to resume (see Core.Dropped).
	Dropped(now time.Duration, err error)
	Receive(now time.Duration, m protocol.Message) error
	Advance(now time.Duration)
	Outbox() []protocol.Message
	NextWake() (at time.Duration, ok bool)
	Close()
	// tally returns the inputs sent and the corrections so far, for the
	// notes (a spectator has neither).
	tally() (inputsSent, corrections int)
}

// tally returns the inputs sent and the corrections so far.
func (c *Core) tally() (inputsSent, corrections int) { return c.stats.InputsSent, c.corrections }

// tally returns nothing: a spectator sends no input and predicts nothing.
func (s *Spectator) tally() (inputsSent, corrections int) { return 0, 0 }

// pipe runs a machine over a link of encoded frames, on a clock its
// caller gives: the part of a Driver (and a SpectatorDriver) that is the
// same whatever the machine. See Driver.
type pipe[M machine] struct {
	m       M
	link    *link.Link[[]byte, []byte]
	seed    int64 // the link's seed, for the link of the next connection
	changed chan struct{}
	observe func(Note)

	hangup  error                // why the transport's stream ended
	stream  []byte               // the start of a frame whose end has not come yet
	states  protocol.StateStream // the last State from the server, the base of a step
	in, out [][]byte             // scratch lists of chunks and frames, reused
	frame   []byte               // scratch encoding buffer

	bytesIn, bytesOut int64
	ended             bool // the machine has closed and the observer was told
}

// newPipe returns a pipe running m at time now; the link takes
// opts.Latency, opts.Jitter, opts.Loss and opts.Seed as they are.
func newPipe[M machine](now time.Duration, m M, opts Options) pipe[M] {
	p := pipe[M]{
		m:       m,
		link:    link.New[[]byte, []byte](opts.Latency, opts.Jitter, opts.Seed),
		seed:    opts.Seed,
		changed: make(chan struct{}, 1),
	}
	p.link.SetLoss(opts.Loss)
	p.flush(now)
	return p
}

// Link returns the injected link: frames to the server go up, bytes from
// it come down. A simulator or viewer uses it to list what is in flight and
// to set loss and stalls. Use it only between calls of the driver.
func (p *pipe[M]) Link() *link.Link[[]byte, []byte] { return p.link }

// States returns a copy of what the driver remembers of the stream from
// the server: the base of a State step. A simulator or viewer uses it to
// decode the frames still in flight on the way down, in order. Use it only
// between calls of the driver.
func (p *pipe[M]) States() protocol.StateStream { return p.states }

// Observe makes the driver tell f what it does with its core during Step,
// as it happens; nil stops it.
func (p *pipe[M]) Observe(f func(Note)) { p.observe = f }

// Changed receives a value (without blocking; capacity 1) whenever Step
// delivered something from the server: a message or the end of the stream.
func (p *pipe[M]) Changed() <-chan struct{} { return p.changed }

// Deliver hands the driver bytes read from the transport at time now:
// whole frames or any part of the stream. They reach the core after the
// injected latency, in order.
func (p *pipe[M]) Deliver(now time.Duration, data []byte) {
	if len(data) == 0 {
		return
	}
	p.bytesIn += int64(len(data))
	p.link.Down.Send(now, data)
}

// Hangup tells the driver that the transport's stream ended at time now,
// for reason err (nil: the server closed the connection). The core learns
// it after every byte delivered before, with the same latency, as a drop
// (see Core.Dropped).
func (p *pipe[M]) Hangup(now time.Duration, err error) {
	if err == nil || errors.Is(err, io.EOF) {
		err = errors.New("client: the server closed the connection")
	}
	p.hangup = err
	p.link.Down.Send(now, nil)
}

// Step does everything due at time now (see Update) and returns the frames
// due to be written (see Outgoing), and when the next thing is due (see
// Next).
func (p *pipe[M]) Step(now time.Duration) (frames [][]byte, next time.Duration, ok bool) {
	p.Update(now)
	frames = p.Outgoing(now)
	next, ok = p.Next()
	return frames, next, ok
}

// Update delivers to the core what the link has due at time now, then lets
// the core do what is due (a held press, a ping, the silence timeout), and
// puts what the core sends on the link.
func (p *pipe[M]) Update(now time.Duration) {
	p.in = p.link.Down.Receive(now, p.in[:0])
	for _, chunk := range p.in {
		p.receive(now, chunk)
	}
	if len(p.in) > 0 {
		signal(p.changed)
	}
	clear(p.in)
	sent, _ := p.m.tally()
	p.m.Advance(now)
	p.flush(now)
	if after, _ := p.m.tally(); after > sent {
		p.note(Note{Kind: HeldSent})
	}
	p.checkEnded()
}

// receive hands the core every whole frame the stream holds once chunk is
// added; nil is the end of the stream.
func (p *pipe[M]) receive(now time.Duration, chunk []byte) {
	if p.m.Phase() == Closed {
		return
	}
	if chunk == nil {
		p.m.Dropped(now, p.hangup)
		p.checkEnded()
		return
	}
	buf := append(p.stream, chunk...)
	for p.m.Phase() != Closed {
		m, n, err := p.states.Unmarshal(buf)
		if n == 0 {
			break // less than a whole frame: the rest is still on its way
		}
		buf = buf[n:]
		if err != nil {
			p.m.Disconnected(fmt.Errorf("client: from the server: %w", err))
			break
		}
		_, corrections := p.m.tally()
		p.m.Receive(now, m)
		p.flush(now)
		_, after := p.m.tally()
		p.note(Note{Kind: Arrived, Msg: m, Corrected: after > corrections})
		p.checkEnded()
	}
	p.stream = append(p.stream[:0], buf...) // a partial frame waits for the rest
}

// checkEnded tells the observer, once, that the core has closed.
func (p *pipe[M]) checkEnded() {
	if p.m.Phase() == Closed && !p.ended {
		p.ended = true
		p.note(Note{Kind: Ended})
	}
}

func (p *pipe[M]) note(n Note) {
	if p.observe != nil {
		p.observe(n)
	}
}

// flush encodes the core's outbox onto the way up.
func (p *pipe[M]) flush(now time.Duration) {
	for _, f := range p.encode() {
		p.link.Up.Send(now, f)
	}
}

// encode empties the core's outbox into frames of their own.
func (p *pipe[M]) encode() [][]byte {
	var frames [][]byte
	for _, m := range p.m.Outbox() {
		var err error
		p.frame, err = protocol.Append(p.frame[:0], m)
		if err != nil {
			p.m.Disconnected(fmt.Errorf("client: %w", err))
			continue
		}
		frames = append(frames, append([]byte(nil), p.frame...))
	}
	return frames
}

// Outgoing returns the frames the link has due at time now, to be written
// to the transport in order, and counts them as sent. The list is reused
// by the next call.
func (p *pipe[M]) Outgoing(now time.Duration) [][]byte {
	clear(p.out)
	p.out = p.link.Up.Receive(now, p.out[:0])
	for _, f := range p.out {
		p.bytesOut += int64(len(f))
	}
	return p.out
}

// Next returns when the driver next has something to do: a frame due
// either way or a core timer. ok is false when nothing is scheduled.
func (p *pipe[M]) Next() (at time.Duration, ok bool) {
	at, ok = p.link.Next()
	if w, wok := p.m.NextWake(); wok && (!ok || w < at) {
		at, ok = w, true
	}
	return at, ok
}

// Drop tells the driver that writing to the transport failed at time now
// for reason err: the connection is lost (see Core.Dropped).
func (p *pipe[M]) Drop(now time.Duration, err error) {
	p.m.Dropped(now, err)
	signal(p.changed)
}

// Reconnecting reports whether the connection dropped and the core waits
// for a new one: the caller dials again, then calls Reconnect.
func (p *pipe[M]) Reconnecting() bool { return p.m.Phase() == Reconnecting }

// fresh starts over on a new transport: what was in flight on the old one
// is forgotten. The injected latency, jitter and loss stay as they were.
func (p *pipe[M]) fresh() {
	p.seed++
	l := link.New[[]byte, []byte](p.link.RTT(), p.link.Jitter(), p.seed)
	l.SetLoss(p.link.Loss())
	p.link = l
	p.stream, p.hangup = p.stream[:0], nil
	p.states = protocol.StateStream{}
}

// Closed reports whether the core has closed: the connection is over.
func (p *pipe[M]) Closed() bool { return p.m.Phase() == Closed }

// SetLatency sets the injected round trip for messages sent from now on.
func (p *pipe[M]) SetLatency(rtt time.Duration) { p.link.Set(rtt, p.link.Jitter()) }

// SetJitter sets the injected jitter for messages sent from now on.
func (p *pipe[M]) SetJitter(j time.Duration) { p.link.Set(p.link.RTT(), j) }

// Bytes returns the bytes delivered from the transport and handed to it
// so far.
func (p *pipe[M]) Bytes() (in, out int64) { return p.bytesIn, p.bytesOut }

// Close closes the core and returns its Bye, encoded, to be written at
// once: a user who quits does not wait for the injected latency. It
// returns nothing if the core had closed already.
func (p *pipe[M]) Close() [][]byte {
	if p.m.Phase() == Closed {
		return nil
	}
	p.m.Close()
	p.ended = true
	bye := p.encode()
	for _, f := range bye {
		p.bytesOut += int64(len(f))
	}
	return bye
}

// disconnect records that the transport failed, for reason err, unless
// the core knows a better reason already.
func (p *pipe[M]) disconnect(err error) { p.m.Disconnected(err) }

// err returns why the core closed, or nil.
func (p *pipe[M]) err() error { return p.m.Err() }

// notify signals Changed, e.g. when the connection is over.
func (p *pipe[M]) notify() { signal(p.changed) }

func signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}
