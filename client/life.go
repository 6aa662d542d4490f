package client

import (
	"time"

	"gridlag/grid"
	"gridlag/protocol"
)

// The life of an input (issue 22): every move and zap is followed from the
// key press to the reconciliation its acknowledgement brings, the
// client's stages measured here, the server's told by the server
// (protocol.Stages) when the client asked for them (SetTrace), all on the
// client's clock.

// MaxLives is how many finished lives a Core keeps for its instruments.
const MaxLives = 32

// InputLife is one input's whole life, on the client's clock: the key
// press, when it left, when it reached the server and was applied (or
// refused), when the State acknowledging it was made and when it came
// back, and the reconciliation it brought.
type InputLife struct {
	Seq uint32
	Dir grid.Dir // the move; None for a zap
	Zap bool

	// Pressed is the key press. Released is when the client's speed limit
	// let it go (Pressed unless the press was held back). Sent is when it
	// left for the server: Released, plus what the link held it back
	// (HeldUp: a lost segment retransmitted, head-of-line blocking, a lag
	// spike, a dropped connection until the resumed one sent it again).
	Pressed, Released, Sent time.Duration
	HeldUp                  time.Duration

	// The server's stages, known only when the server was asked for them
	// (Traced; see Core.SetTrace): when the input arrived, when the server
	// applied or refused it, and when it made the State that acknowledged
	// it (AckSent, the tick Tick), mapped to the client's clock; what the
	// server did with it (Outcome).
	Traced                    bool
	Arrived, Applied, AckSent time.Duration
	Tick                      uint32
	Outcome                   protocol.StageOutcome

	// Acked is when the State acknowledging it arrived: its life ends
	// there. Of the trip down, HeldDown is what the link held that State
	// back.
	Acked    time.Duration
	HeldDown time.Duration

	// Replayed is how many inputs reconciliation replayed on top of the
	// server's word in that State (0 with reconciliation off). Corrected
	// says that reconciliation moved the avatar away from where prediction
	// had it, by Cells cells (the correction is told on the input that
	// caused it when the server said so, else on the last one the State
	// acknowledged).
	Replayed  int
	Corrected bool
	Cells     int

	// Rewind is how far back the server judged a zap (lag compensation);
	// Judged says its ZapResult came.
	Rewind time.Duration
	Judged bool
}

// LimitWait is how long the client's speed limit held the press back.
func (l InputLife) LimitWait() time.Duration { return l.Released - l.Pressed }

// Trip is the whole life, from the press to the acknowledgement.
func (l InputLife) Trip() time.Duration { return l.Acked - l.Pressed }

// Refused reports whether the server refused the input (it is Traced and
// its outcome did not apply it).
func (l InputLife) Refused() bool { return l.Traced && !l.Outcome.Applied() }

// serverClock maps the server's times onto the client's clock. The
// server's clock is the client's plus an unknown offset θ; each input the
// server stages gives a sample of the way up (its arrival on the server's
// clock less when it left on the client's: one-way up + θ) and each State
// one of the way down (its arrival here less its time there: one-way down
// − θ). The quickest of each is the closest to the bare link, and with
// as quick a link each way θ is half their difference, as NTP reckons it.
// A simulator whose server runs on the client's own clock says so
// (Options.SharedClock) and needs no estimate.
type serverClock struct {
	shared         bool
	up, down       time.Duration // the quickest samples so far
	hasUp, hasDown bool
}

func (k *serverClock) sawUp(d time.Duration) {
	if !k.hasUp || d < k.up {
		k.up, k.hasUp = d, true
	}
}

func (k *serverClock) sawDown(d time.Duration) {
	if !k.hasDown || d < k.down {
		k.down, k.hasDown = d, true
	}
}

// local maps server time t to the client's clock; ok is false while there
// are not samples both ways yet.
func (k *serverClock) local(t time.Duration) (time.Duration, bool) {
	switch {
	case k.shared:
		return t, true
	case !k.hasUp || !k.hasDown:
		return 0, false
	}
	return t - (k.up-k.down)/2, true
}

// stagesIn takes the server's stages of the inputs the next State
// acknowledges (they come just before it).
func (c *Core) stagesIn(m *protocol.Stages) {
	c.staged = append(c.staged[:0], m.Inputs...)
}

// stageOf returns the server's stage of input seq, told by the Stages
// before State s, and that stage's arrival on the server's clock.
func (c *Core) stageOf(seq uint32, s *protocol.State) (protocol.InputStage, time.Duration, bool) {
	for _, st := range c.staged {
		if st.Seq == seq {
			return st, time.Duration(s.TimeNS) - time.Duration(st.BeforeUS)*time.Microsecond, true
		}
	}
	return protocol.InputStage{}, 0, false
}

// lives turns the inputs State s acknowledges (acked, the pending inputs
// it drops), arriving at now, into their lives, appended to dst: the
// client's stages, and the server's when it told them. The caller marks
// the correction, if any, and keeps them.
func (c *Core) lives(dst []InputLife, now time.Duration, s *protocol.State, acked []pendingInput, replayed int) []InputLife {
	// The stages are samples of the clock, before they are read with it
	// (the State was one already).
	for _, p := range acked {
		if _, arrived, ok := c.stageOf(p.seq, s); ok {
			c.clock.sawUp(arrived - (p.sent + p.heldUp))
		}
	}
	ackSent, known := c.clock.local(time.Duration(s.TimeNS))
	for _, p := range acked {
		l := InputLife{
			Seq: p.seq, Dir: p.dir, Zap: p.dir == grid.None,
			Pressed: p.pressed, Released: p.sent, Sent: p.sent + p.heldUp, HeldUp: p.heldUp,
			Acked: now, HeldDown: c.downHeld, Replayed: replayed, Tick: s.Tick,
			Rewind: p.rewind, Judged: p.judged,
		}
		if st, arrived, ok := c.stageOf(p.seq, s); ok && known {
			arrivedHere, _ := c.clock.local(arrived)
			l.Traced, l.Outcome = true, st.Outcome
			l.Arrived = arrivedHere
			l.Applied = arrivedHere + time.Duration(st.ApplyUS)*time.Microsecond
			l.AckSent = ackSent
		}
		dst = append(dst, l)
	}
	c.staged = c.staged[:0]
	return dst
}

// keepLives keeps finished lives for the instruments (the latest
// MaxLives) and notes each (Lived), in order.
func (c *Core) keepLives(lives []InputLife) {
	for i := range lives {
		if len(c.lived) == MaxLives {
			c.lived = append(c.lived[:0], c.lived[1:]...)
		}
		c.lived = append(c.lived, lives[i])
		l := lives[i]
		c.note(Note{Kind: Lived, Life: &l})
	}
}

// SetTrace asks the server for its stages of every input from now on
// (protocol.Trace), or stops asking: an interface asks while it draws
// the waterfall, and the client pays nothing for them otherwise. The
// request goes at once when the connection is up, and again on every
// connection after (a resumed one).
func (c *Core) SetTrace(on bool) {
	if on == c.trace {
		return
	}
	c.trace = on
	if c.phase.connected() {
		c.send(&protocol.Trace{On: on})
	}
}

// Tracing reports whether the client asks the server for its inputs'
// stages.
func (c *Core) Tracing() bool { return c.trace }

// linkWatcher is a machine that keeps instruments of its link: the pipe
// that runs it tells it what its link carried and what it held back.
type linkWatcher interface {
	// carried: in bytes came from the transport and out bytes went to it.
	carried(now time.Duration, in, out int)
	// leftLink: a frame to the server left the injected link at now, held
	// back held beyond its delay; lost is how many times it was lost, and
	// behind says it waited behind another. seq is its input's number (0
	// if it is not an input).
	leftLink(now time.Duration, seq uint32, held time.Duration, lost int, behind bool)
	// cameDown: bytes from the server leave the injected link at now, to
	// be read, held back held beyond its delay (lost, behind: as above).
	cameDown(now time.Duration, held time.Duration, lost int, behind bool)
	// linkChanged: the trace the link follows took a step, called step,
	// by now.
	linkChanged(now time.Duration, step string)
	// linkSet: the link injects a round trip of rtt from now on.
	linkSet(rtt time.Duration)
}

func (c *Core) carried(now time.Duration, in, out int) {
	c.graph.roll(now, c)
	c.graph.cur.BytesIn += in
	c.graph.cur.BytesOut += out
	c.graph.bytesIn += int64(in)
	c.graph.bytesOut += int64(out)
}

func (c *Core) leftLink(now time.Duration, seq uint32, held time.Duration, lost int, behind bool) {
	c.graph.roll(now, c)
	c.graph.held(lost, behind)
	if seq == 0 {
		return
	}
	for i := range c.pending {
		if c.pending[i].seq == seq {
			c.pending[i].heldUp += max(held, 0) // after a drop, beside what the drop held it
			return
		}
	}
}

func (c *Core) cameDown(now time.Duration, held time.Duration, lost int, behind bool) {
	c.graph.roll(now, c)
	c.graph.held(lost, behind)
	c.downHeld = max(held, 0)
}

func (c *Core) linkChanged(now time.Duration, step string) {
	c.graph.roll(now, c)
	c.graph.changed(step)
	c.note(Note{Kind: LinkChanged, Step: step})
}

var _ linkWatcher = (*Core)(nil)
