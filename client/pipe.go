package client

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"time"

	"gridlag/internal/link"
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
	Outbox() Batch
	NextWake() (at time.Duration, ok bool)
	Close()
}

// pipe runs a machine over a link of encoded frames, on a clock its
// caller gives: the part of a Driver (and a SpectatorDriver) that is the
// same whatever the machine. See Driver.
type pipe[M machine] struct {
	m       M
	link    *link.Link[[]byte, []byte]
	seed    int64 // the link's seed, for the link of the next connection
	observe func(Note)
	journal func(Call)          // see Driver.Journal
	check   func(time.Duration) // reports the view after a State to the journal

	hangup  error                // why the transport's stream ended
	stream  []byte               // the start of a frame whose end has not come yet
	states  protocol.StateStream // the last State from the server, the base of a step
	in, out [][]byte             // scratch lists of chunks and frames, reused
	frame   []byte               // scratch encoding buffer
	notes   []Note               // scratch copy of the core's notes, reused

	// watch is the machine, if it keeps instruments of its link (a
	// player's Core): it is told what the link carries and holds back.
	// ups are the input numbers of the frames on the way up, in order (0
	// for a frame that is no input), from upHead; downs is a scratch list
	// of what the link held the chunks coming down.
	watch  linkWatcher
	ups    []uint32
	upHead int
	downs  []link.Flight[[]byte]

	bytesIn, bytesOut int64
	// steps is how many steps of the link's trace the watcher was told.
	steps int
}

// newPipe returns a pipe running m at time now; the link takes
// opts.Latency, opts.Jitter, opts.Loss and opts.Seed as they are.
func newPipe[M machine](now time.Duration, m M, opts Options) pipe[M] {
	p := pipe[M]{
		m:    m,
		link: link.New[[]byte, []byte](opts.Latency, opts.Jitter, opts.Seed),
		seed: opts.Seed,
	}
	p.link.SetLoss(opts.Loss)
	p.watch, _ = any(m).(linkWatcher)
	if p.watch != nil {
		p.watch.linkSet(opts.Latency)
	}
	if opts.LinkTrace != nil {
		p.link.Follow(opts.LinkTrace, now)
		p.follow(now)
	}
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

// Observe makes the driver hand f every note of its core (see Note), in
// order, as it empties the core's outbox during a call: a View taken in f
// shows what the note tells. nil stops it. An adapter that wakes a
// reader, or logs, does it there.
func (p *pipe[M]) Observe(f func(Note)) { p.observe = f }

// Phase returns where the core's connection is.
func (p *pipe[M]) Phase() Phase { return p.m.Phase() }

// Err returns why the core's connection closed, or nil.
func (p *pipe[M]) Err() error { return p.m.Err() }

// Deliver hands the driver bytes read from the transport at time now:
// whole frames or any part of the stream. They reach the core after the
// injected latency, in order.
func (p *pipe[M]) Deliver(now time.Duration, data []byte) {
	if len(data) == 0 {
		return
	}
	p.record(Call{Kind: CallDeliver, At: now, Data: data})
	p.bytesIn += int64(len(data))
	p.link.Down.Send(now, data)
	if p.watch != nil {
		p.watch.carried(now, len(data), 0)
	}
}

// Hangup tells the driver that the transport's stream ended at time now,
// for reason err (nil: the server closed the connection). The core learns
// it after every byte delivered before, with the same latency, as a drop
// (see Core.Dropped).
func (p *pipe[M]) Hangup(now time.Duration, err error) {
	if err == nil || errors.Is(err, io.EOF) {
		err = errors.New("client: the server closed the connection")
	}
	p.record(Call{Kind: CallHangup, At: now, Err: errText(err)})
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
	p.record(Call{Kind: CallStep, At: now})
	p.follow(now)
	if p.watch != nil {
		p.downs = due(p.link.Down, now, p.downs[:0])
	}
	p.in = p.link.Down.Receive(now, p.in[:0])
	for i, chunk := range p.in {
		if p.watch != nil && i < len(p.downs) {
			f := p.downs[i]
			p.watch.cameDown(now, f.At-f.Own, f.Lost, f.Held)
		}
		p.receive(now, chunk)
	}
	clear(p.downs)
	clear(p.in)
	p.m.Advance(now)
	p.flush(now)
}

// receive hands the core every whole frame the stream holds once chunk is
// added; nil is the end of the stream.
func (p *pipe[M]) receive(now time.Duration, chunk []byte) {
	if p.m.Phase() == Closed {
		return
	}
	if chunk == nil {
		p.m.Dropped(now, p.hangup)
		p.flush(now)
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
		p.m.Receive(now, m)
		p.flush(now)
	}
	p.flush(now)
	p.stream = append(p.stream[:0], buf...) // a partial frame waits for the rest
}

// flush empties the core's outbox: its messages, encoded, onto the way
// up, and its notes to the observer.
func (p *pipe[M]) flush(now time.Duration) {
	for {
		b := p.m.Outbox()
		if len(b.Messages) == 0 && len(b.Notes) == 0 {
			return
		}
		// The batch is the core's until its next call: keep the notes.
		p.notes = append(p.notes[:0], b.Notes...)
		p.recordNotes(now, p.notes)
		var err error
		for _, m := range b.Messages {
			f, e := p.encodeOne(m)
			if e != nil {
				err = cmp.Or(err, e)
				continue
			}
			p.link.Up.Send(now, f)
			if p.watch != nil {
				p.ups = append(p.ups, inputSeq(m))
			}
		}
		if err != nil {
			p.m.Disconnected(err) // noted in the next batch
		}
		if p.observe != nil {
			for _, n := range p.notes {
				p.observe(n)
			}
		}
		clear(p.notes)
	}
}

// encode encodes msgs into frames of their own; a message that does not
// encode is skipped, and the first such error returned.
func (p *pipe[M]) encode(msgs []protocol.Message) (frames [][]byte, err error) {
	for _, m := range msgs {
		f, e := p.encodeOne(m)
		if e != nil {
			err = cmp.Or(err, e)
			continue
		}
		frames = append(frames, f)
	}
	return frames, err
}

// encodeOne encodes m into a frame of its own.
func (p *pipe[M]) encodeOne(m protocol.Message) ([]byte, error) {
	var err error
	p.frame, err = protocol.Append(p.frame[:0], m)
	if err != nil {
		return nil, fmt.Errorf("client: %w", err)
	}
	return append([]byte(nil), p.frame...), nil
}

// inputSeq is the number of an input (a move or a zap), 0 for any other
// message.
func inputSeq(m protocol.Message) uint32 {
	switch m := m.(type) {
	case *protocol.Input:
		return m.Seq
	case *protocol.Zap:
		return m.Seq
	}
	return 0
}

// due appends to dst the messages on line due at now, oldest first, as
// Receive hands them over.
func due(line *link.Line[[]byte], now time.Duration, dst []link.Flight[[]byte]) []link.Flight[[]byte] {
	for f := range line.InFlight {
		if f.At > now {
			break
		}
		dst = append(dst, f)
	}
	return dst
}

// Outgoing returns the frames the link has due at time now, to be written
// to the transport in order, and counts them as sent. The list is reused
// by the next call.
func (p *pipe[M]) Outgoing(now time.Duration) [][]byte {
	clear(p.out)
	p.follow(now)
	if p.watch != nil {
		p.downs = due(p.link.Up, now, p.downs[:0])
	}
	p.out = p.link.Up.Receive(now, p.out[:0])
	for i, f := range p.out {
		p.bytesOut += int64(len(f))
		p.record(Call{Kind: CallSent, At: now, Data: f})
		if p.watch == nil {
			continue
		}
		var seq uint32
		if p.upHead < len(p.ups) {
			seq = p.ups[p.upHead]
			p.upHead++
		}
		if i < len(p.downs) {
			fl := p.downs[i]
			p.watch.leftLink(now, seq, fl.At-fl.Own, fl.Lost, fl.Held)
		}
		p.watch.carried(now, 0, len(f))
	}
	if p.watch != nil {
		clear(p.downs)
		if p.upHead == len(p.ups) {
			p.ups, p.upHead = p.ups[:0], 0
		}
	}
	return p.out
}

// Next returns when the driver next has something to do: a frame due
// either way, a step of the trace the link follows, or a core timer. ok
// is false when nothing is scheduled.
func (p *pipe[M]) Next() (at time.Duration, ok bool) {
	at, ok = p.link.Next()
	if c, cok := p.link.NextChange(); cok && (!ok || c < at) {
		at, ok = c, true
	}
	if w, wok := p.m.NextWake(); wok && (!ok || w < at) {
		at, ok = w, true
	}
	return at, ok
}

// FollowTrace makes the injected link follow tr from now, tr's time 0
// (see link.Link.Follow); nil stops it, the conditions staying as the
// trace left them. A reconnection keeps following it.
func (p *pipe[M]) FollowTrace(now time.Duration, tr *link.Trace) {
	p.FollowTraceFrom(now, tr, now)
}

// FollowTraceFrom is FollowTrace with tr's time 0 at start, which may be
// before now: the steps due by now apply at once, each as of its time.
func (p *pipe[M]) FollowTraceFrom(now time.Duration, tr *link.Trace, start time.Duration) {
	p.link.Follow(tr, start)
	p.steps = 0
	p.follow(now)
}

// follow brings the link's trace to now, and tells the watcher each
// step that came.
func (p *pipe[M]) follow(now time.Duration) {
	p.link.Sync(now)
	st := p.link.TraceState()
	if st.Applied == p.steps {
		return
	}
	p.steps = st.Applied
	if p.watch != nil {
		p.watch.linkChanged(now, st.Step.Name())
		p.watch.linkSet(p.link.RTT())
		p.flush(now)
	}
}

// Drop tells the driver that writing to the transport failed at time now
// for reason err: the connection is lost (see Core.Dropped).
func (p *pipe[M]) Drop(now time.Duration, err error) {
	p.record(Call{Kind: CallDrop, At: now, Err: errText(err)})
	p.m.Dropped(now, err)
	p.flush(now)
}

// Disconnect tells the driver that the transport failed at time now for
// reason err: the connection is over, unless the core knows a better
// reason already (see Core.Disconnected).
func (p *pipe[M]) Disconnect(now time.Duration, err error) {
	p.record(Call{Kind: CallDisconnect, At: now, Err: errText(err)})
	p.m.Disconnected(err)
	p.flush(now)
}

// fresh starts over on a new transport: what was in flight on the old one
// is forgotten. The injected latency, jitter and loss stay as they were.
func (p *pipe[M]) fresh() {
	p.seed++
	l := link.New[[]byte, []byte](p.link.RTT(), p.link.Jitter(), p.seed)
	l.SetLoss(p.link.Loss())
	if tr, start := p.link.Following(); tr != nil {
		st := p.link.TraceState()
		l.Follow(tr, start)
		l.Sync(st.At) // where the old link was: its steps told already
		p.steps = l.TraceState().Applied
	}
	p.link = l
	p.ups, p.upHead = p.ups[:0], 0
	p.stream, p.hangup = p.stream[:0], nil
	p.states = protocol.StateStream{}
}

// SetLatency sets the injected round trip for messages sent from now on.
func (p *pipe[M]) SetLatency(rtt time.Duration) {
	p.record(Call{Kind: CallLatency, D: rtt})
	p.link.Set(rtt, p.link.Jitter())
	if p.watch != nil {
		p.watch.linkSet(p.link.RTT())
	}
}

// SetJitter sets the injected jitter for messages sent from now on.
func (p *pipe[M]) SetJitter(j time.Duration) {
	p.record(Call{Kind: CallJitter, D: j})
	p.link.Set(p.link.RTT(), j)
}

// Bytes returns the bytes delivered from the transport and handed to it
// so far.
func (p *pipe[M]) Bytes() (in, out int64) { return p.bytesIn, p.bytesOut }

// Close closes the core and returns its Bye, encoded, to be written at
// once: a user who quits does not wait for the injected latency. It
// returns nothing if the core had closed already. The caller closed it,
// so the note of it goes to no observer.
func (p *pipe[M]) Close() [][]byte {
	if p.m.Phase() == Closed {
		return nil
	}
	p.record(Call{Kind: CallClose})
	p.m.Close()
	bye, _ := p.encode(p.m.Outbox().Messages)
	for _, f := range bye {
		p.bytesOut += int64(len(f))
		p.record(Call{Kind: CallSent, Data: f})
	}
	return bye
}
