package client

import (
	"slices"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
)

// A room with a teacher (protocol version 5): the server says what the
// teacher set (protocol.Conditions) to every player and spectator; a
// player's switches the teacher holds stay as the teacher holds them (a
// press of the switch changes nothing, and View.Teaching says why), and
// it reports what only it knows (protocol.Report) when that changes, at
// most every ReportEvery, while the room has a teacher. A teacher (a
// Spectator of Options.Teach) sets the Conditions (Teach) and is told
// the students' reports (WorldView.Reports).

// ReportEvery is the shortest time between two Reports of a player.
const ReportEvery = 500 * time.Millisecond

// Teaching is what the teachers of a room set, as the server said it: a
// View or WorldView has it while the room has a teacher.
type Teaching struct {
	Teachers int // how many teachers the room has
	// Latency is the round trip the server adds to every student's
	// connection, half each way; Jitter the most it adds at random to a
	// message, either way; Loss the probability (0 to 1) that a message
	// either way is lost and sent again, as TCP does.
	Latency, Jitter time.Duration
	Loss            float64
	// Predict, Reconcile and Interpolate say how the teacher holds the
	// students' switches.
	Predict, Reconcile, Interpolate protocol.Hold
	Rate                            int // the room's update rate (0: one State per input)
	LagComp                         bool
	// Trace names the trace the room's network follows (protocol
	// version 6: a network that changes over time), "" for none; Step
	// is its step in force, as the server says it. While one plays,
	// Latency, Jitter and Loss are what its step sets.
	Trace, Step string
}

// teachingOf returns the Teaching a Conditions carries, nil if the room
// has no teacher.
func teachingOf(c *protocol.Conditions) *Teaching {
	if c == nil || c.Teachers == 0 {
		return nil
	}
	return &Teaching{
		Teachers: int(c.Teachers),
		Latency:  time.Duration(c.LatencyMS) * time.Millisecond,
		Jitter:   time.Duration(c.JitterMS) * time.Millisecond,
		Loss:     float64(c.LossBP) / protocol.MaxLossBP,
		Predict:  c.Predict, Reconcile: c.Reconcile, Interpolate: c.Interpolate,
		Rate: int(c.Rate), LagComp: c.LagComp, Trace: c.Trace, Step: c.Step,
	}
}

// Conditions returns t as a teacher sends it: the round trip and jitter
// in whole milliseconds, the loss in basis points.
func (t Teaching) Conditions() protocol.Conditions {
	return protocol.Conditions{
		LatencyMS: uint16(min(max(t.Latency.Round(time.Millisecond).Milliseconds(), 0), 65535)),
		JitterMS:  uint16(min(max(t.Jitter.Round(time.Millisecond).Milliseconds(), 0), 65535)),
		LossBP:    uint16(min(max(t.Loss, 0), 1)*protocol.MaxLossBP + 0.5),
		Predict:   t.Predict, Reconcile: t.Reconcile, Interpolate: t.Interpolate,
		Rate: uint16(min(max(t.Rate, 0), 65535)), LagComp: t.LagComp, Trace: t.Trace,
	}
}

// Network reports whether the teacher set a network: a latency, a jitter,
// a loss or a trace.
func (t *Teaching) Network() bool {
	return t != nil && (t.Latency > 0 || t.Jitter > 0 || t.Loss > 0 || t.Trace != "")
}

// Report is one student's last report to the server, as a teacher is
// told it: the inputs it has not seen acknowledged, the corrections
// reconciliation made, and the round trip it measured.
type Report struct {
	ID          grid.PlayerID
	Pending     int
	Corrections int
	RTT         time.Duration
	HasRTT      bool // it had measured a round trip
}

// switches are a player's netcode switches, as the player set them.
type switches struct {
	predict, reconcile, interpolate bool
	// reconcileWas is what reconciliation goes back to when prediction,
	// which turned it off, comes back on.
	reconcileWas bool
}

// classState is a player's side of a room with a teacher.
type classState struct {
	cond     protocol.Conditions // the server's last word; Teachers 0: no teacher
	sent     protocol.Report     // the last Report sent
	sentAt   time.Duration       // when
	reported bool                // a Report went since the room has a teacher
	stepAt   time.Duration       // when the room's trace took its last step
	// Following (follow.go): whom the room follows (0: nobody), and,
	// while it is this player, the last Sight sent, when, and whether
	// one went since it is followed.
	follow  grid.PlayerID
	sight   protocol.Sight
	sightAt time.Duration
	sighted bool
}

// teach takes the room's Conditions at now: the switches the teacher
// holds, and a Ping at once when the network changed, so that the round
// trip shown follows it within one.
func (c *Core) teach(now time.Duration, m *protocol.Conditions) {
	old := c.class.cond
	c.class.cond = *m
	if m.Teachers == 0 {
		c.class.reported = false
	}
	if old.LatencyMS != m.LatencyMS || old.JitterMS != m.JitterMS || old.LossBP != m.LossBP {
		c.nextPing = now
	}
	if m.Trace != "" && (m.Trace != old.Trace || m.Step != old.Step) {
		// The room's trace took a step: the net graph marks it, as it
		// marks the steps of the client's own link's trace.
		c.class.stepAt = now
		c.linkChanged(now, m.Step)
	}
	c.rate = int(m.Rate)
	c.apply()
}

// roomTrace returns the trace the room's network follows, as the server
// says it, for the net graph; the zero NetTrace for none.
func (c *Core) roomTrace() NetTrace {
	m := &c.class.cond
	if m.Teachers == 0 || m.Trace == "" {
		return NetTrace{}
	}
	return NetTrace{Name: m.Trace, Title: "the room's network, as the teacher set it", Step: m.Step, At: c.class.stepAt, Room: true}
}

// holding reports how the teacher holds a switch (HoldNone without a
// teacher), or a round of the perception test does while it is played
// or answered.
func (c *Core) holding(h func(*protocol.Conditions) protocol.Hold) protocol.Hold {
	if c.perc.inRound() {
		held := c.perc.holds()
		return h(&held)
	}
	if c.class.cond.Teachers == 0 {
		return protocol.HoldNone
	}
	return h(&c.class.cond)
}

func predictHold(c *protocol.Conditions) protocol.Hold     { return c.Predict }
func reconcileHold(c *protocol.Conditions) protocol.Hold   { return c.Reconcile }
func interpolateHold(c *protocol.Conditions) protocol.Hold { return c.Interpolate }

// apply sets the switches in force: the player's own, but those the
// teacher holds. Reconciliation needs prediction: held on, it turns
// prediction on (unless that is held off); prediction off turns it off.
// The picture is rebuilt (a switch is not a correction).
func (c *Core) apply() {
	p, r, i := c.own.predict, c.own.reconcile, c.own.interpolate
	hold := func(v *bool, h protocol.Hold) {
		switch h {
		case protocol.HoldOn:
			*v = true
		case protocol.HoldOff:
			*v = false
		}
	}
	ph, rh := c.holding(predictHold), c.holding(reconcileHold)
	hold(&p, ph)
	hold(&r, rh)
	hold(&i, c.holding(interpolateHold))
	if r && !p {
		if rh == protocol.HoldOn && ph != protocol.HoldOff {
			p = true
		} else {
			r = false
		}
	}
	c.predict, c.reconcile, c.interpolate = p, r, i
	c.refresh()
}

// report is what the player would report now.
func (c *Core) report() protocol.Report {
	return protocol.Report{
		Pending:     uint16(min(len(c.pending), 65535)),
		Corrections: uint32(c.corrections),
		RTTMS:       protocol.RTTFromMS(c.rtt.Round(time.Millisecond).Milliseconds(), c.rtt > 0),
	}
}

// reportDue returns when the next Report is due: the room has a teacher,
// the player plays, and what it would report differs from the last; ok
// is false otherwise.
func (c *Core) reportDue() (at time.Duration, ok bool) {
	if c.class.cond.Teachers == 0 || c.phase != Playing {
		return 0, false
	}
	if !c.class.reported {
		return c.class.sentAt, true // at once
	}
	if c.report() == c.class.sent {
		return 0, false
	}
	return c.class.sentAt + ReportEvery, true
}

// sendReport sends a Report if one is due at now.
func (c *Core) sendReport(now time.Duration) {
	if at, ok := c.reportDue(); !ok || at > now {
		return
	}
	r := c.report()
	c.send(&r)
	c.class.sent, c.class.sentAt, c.class.reported = r, now, true
}

// reportsOf returns the reports a teacher has, by player ID.
func reportsOf(byID map[grid.PlayerID]Report) []Report {
	if len(byID) == 0 {
		return nil
	}
	rs := make([]Report, 0, len(byID))
	for _, r := range byID {
		rs = append(rs, r)
	}
	slices.SortFunc(rs, func(a, b Report) int { return int(a.ID) - int(b.ID) })
	return rs
}

// reportOf is a Student's report as a teacher's view has it.
func reportOf(s protocol.Student) Report {
	r := Report{ID: s.ID, Pending: int(s.Pending), Corrections: int(s.Corrections)}
	if s.RTTMS != protocol.NoRTT {
		r.RTT, r.HasRTT = time.Duration(s.RTTMS)*time.Millisecond, true
	}
	return r
}
