package client

import (
	"time"
)

// Instruments is what a client measures of its netcode for an interface
// to draw (issue 22): the last inputs' lives (the waterfall), the net
// graph, the corrections by cause and the latency budget. An interface
// takes it with Instrumented.Instruments while it draws one of them, and
// not otherwise: a Core records it all the time, for a few additions a
// message.
type Instruments struct {
	Now time.Duration // the client's clock when it was taken
	// Lives are the last inputs whose lives ended, oldest first, at most
	// MaxLives.
	Lives []InputLife
	// Tracing says the client asks the server for its stages (SetTrace):
	// the lives from then on are Traced.
	Tracing bool
	Graph   NetGraph
	// Causes counts the corrections by cause.
	Causes [NumCauses]int
	// DownTrip is the States' one-way trip from the server, on average
	// (0 before the client's clock is mapped to the server's: see
	// InputLife).
	DownTrip time.Duration
	// Side is this client's side of a latency budget, and Budget the
	// budget from its press to a player with the same link seeing it.
	Side   BudgetSide
	Budget Budget
	// Trace is the trace the link follows, if any: the net graph names
	// it and its steps.
	Trace NetTrace
}

// NetTrace is the trace a client's network follows (see link.Trace), as
// the net graph shows it.
type NetTrace struct {
	// Name and Title are the trace's; Name is "" when none is followed.
	Name, Title string
	// Step is the name of the step in force (its label, or what it
	// sets), At when it came on the client's clock, and StepAt its time
	// in the trace; Step is "" before the first.
	Step   string
	At     time.Duration
	StepAt time.Duration
	// Next is when the next step comes, if NextOK.
	Next   time.Duration
	NextOK bool
	// Length is the trace's length and Repeat whether it starts again
	// after it; Cycle is the run under way, 0 the first.
	Length time.Duration
	Repeat bool
	Cycle  int64
	// Room says the trace is the room's, which its teacher set and the
	// server applies (protocol version 6): the client knows its name and
	// step in force alone (StepAt, Next, Length are 0).
	Room bool
}

// Instrumented is a Session that keeps Instruments (the TCP client and a
// simulated one do). Its methods are safe for concurrent use.
type Instrumented interface {
	// Instruments fills dst as of now, reusing its slices.
	Instruments(dst *Instruments)
	// SetTrace asks the server for its stages of the inputs from now on,
	// or stops (see Core.SetTrace).
	SetTrace(on bool)
	// SetSmooth turns smoothing of corrections on or off (see
	// Core.SetSmooth).
	SetSmooth(on bool)
}

// recentLives is how many lives the speed-limit wait of a budget is the
// mean of.
const recentLives = 8

// interpDelay and pendingNow are the gauges the net graph reads.
func (c *Core) interpDelay() time.Duration {
	if !c.interpolate {
		return 0
	}
	return c.interp.delay
}

func (c *Core) pendingNow() int { return len(c.pending) }

// instruments fills dst with the core's instruments as of now; the
// Driver adds its link's side.
func (c *Core) instruments(now time.Duration, dst *Instruments) {
	dst.Now = now
	dst.Lives = append(dst.Lives[:0], c.lived...)
	dst.Tracing = c.trace
	c.graph.fill(now, c, &dst.Graph)
	dst.Causes = c.causes
	dst.DownTrip = c.downTrip
	s := BudgetSide{Interpolate: c.interpolate, InterpDelay: c.interp.delay, Predict: c.predict, Rate: c.rate, MoveTime: c.moveTime}
	recent := c.lived[max(len(c.lived)-recentLives, 0):]
	for _, l := range recent {
		s.LimitWait += l.LimitWait()
	}
	if len(recent) > 0 {
		s.LimitWait /= time.Duration(len(recent))
	}
	dst.Side = s
}

// Instruments fills dst with the client's instruments as of now: its
// core's, with the injected link's knobs and the round trip the network
// adds to them in the budget.
func (d *Driver) Instruments(now time.Duration, dst *Instruments) {
	d.m.instruments(now, dst)
	s := &dst.Side
	s.Latency, s.Jitter, s.Loss = d.link.RTT(), d.link.Jitter(), d.link.Loss()
	if rtt := d.m.rtt; rtt > 0 {
		// What the Pings measured beyond what was injected: the real
		// network's round trip (a remote server's, all of it).
		s.RealRTT = max(rtt-s.Latency-s.Jitter-2*s.lossWait(), 0)
	}
	dst.Budget = NewBudget(*s, *s, "")
	dst.Trace = d.m.roomTrace()
	if st := d.link.TraceState(); st.Trace != nil {
		dst.Trace = NetTrace{Name: st.Trace.Name, Title: st.Trace.Title, Step: st.Step.Name(), At: st.At, StepAt: st.Step.At,
			Next: st.Next, NextOK: st.NextOK, Length: st.Trace.Length, Repeat: st.Trace.Repeat, Cycle: st.Cycle}
		if st.Applied == 0 {
			dst.Trace.Step = ""
		}
	}
}

// SetTrace asks the server at time now for its stages of the inputs (see
// Core.SetTrace); the request goes on the link.
func (d *Driver) SetTrace(now time.Duration, on bool) {
	d.m.SetTrace(on)
	d.flush(now)
}

// SetSmooth turns smoothing of corrections on or off (see Core.SetSmooth).
func (d *Driver) SetSmooth(on bool) { d.m.SetSmooth(on) }
