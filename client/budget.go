package client

import (
	"fmt"
	"math"
	"time"

	"gridlag/internal/link"
)

// The latency budget (issue 22): where the delay goes between a player
// pressing a key and another player seeing it on their screen, part by
// part, each part naming the knob that changes it; and how much of it
// prediction hides from the player for its own avatar.

// The parts of a budget, in the order the delay runs through them.
const (
	PartLimit  = iota // the client's speed limit held the press back
	PartUp            // one way to the server: half the round trip, jitter, retransmissions
	PartTick          // the input waits for the server's next update tick
	PartSend          // from the tick to the State leaving the server
	PartDown          // one way back to the player who sees it
	PartInterp        // that player draws others this far in the past
	NumParts
)

// BudgetPart is one part of a latency budget.
type BudgetPart struct {
	Name string        // what it is: "one-way up"
	Knob string        // what changes it: "latency 250 ms ÷ 2, jitter 0-20 ms ÷ 2"
	D    time.Duration // how long it takes
	// Hidden: prediction hides this part from the player for its own
	// avatar (it moves at once, the server's word follows).
	Hidden bool
}

// Budget splits the delay from a key press to another player seeing it
// into its parts.
type Budget struct {
	Parts [NumParts]BudgetPart
	// Total is the parts together: from the press to the other player
	// seeing it.
	Total time.Duration
	// Own is how long the player waits for the server's word on its own
	// move: the speed limit's wait, then up, tick, State and back down to
	// itself. Hidden is what prediction hides of it (all but the speed
	// limit's wait, with prediction on; nothing with it off, when the
	// avatar waits for the server's word).
	Own, Hidden time.Duration
	Predict     bool
}

// BudgetSide is one player's side of a budget: its link's knobs and what
// its client measured.
type BudgetSide struct {
	Latency, Jitter time.Duration // the injected round trip and jitter per message
	Loss            float64       // the injected loss, either way
	// RealRTT is the round trip the network adds to the injected one: the
	// Pings' round trip less what was injected (all of it without a link
	// conditioner, the whole round trip to a server far away).
	RealRTT time.Duration
	// LimitWait is how long the speed limit held the player's recent
	// presses back, on average.
	LimitWait   time.Duration
	Interpolate bool
	InterpDelay time.Duration
	Predict     bool
	// Rate and MoveTime are the server's update rate and speed limit.
	Rate     int
	MoveTime time.Duration
}

// oneWay is the expected one-way trip of the side's link, each way: half
// the injected round trip, half the jitter (it draws 0 to Jitter), the
// expected wait for a retransmission, and half the real round trip.
func (s BudgetSide) oneWay(up bool) time.Duration {
	half := s.Latency / 2
	if up {
		half = s.Latency - s.Latency/2 // the odd nanosecond goes up, as on the link
	}
	return half + s.Jitter/2 + s.lossWait() + s.RealRTT/2
}

// lossWait is the expected wait for retransmissions of one message: lost
// k times with probability p^k(1−p), it waits (2^k−1) RTO; together
// p/(1−2p) RTO (link's rule, its tries uncapped), p taken below 0.45.
func (s BudgetSide) lossWait() time.Duration {
	p := min(max(s.Loss, 0), 0.45)
	if p == 0 {
		return 0
	}
	rto := max(link.MinRTO, s.Latency+4*s.Jitter)
	return time.Duration(math.Round(float64(rto) * p / (1 - 2*p)))
}

// linkKnob names what sets one way of a side's link.
func (s BudgetSide) linkKnob(who string) string {
	k := fmt.Sprintf("%slatency %d ms ÷ 2", who, s.Latency.Milliseconds())
	if s.Jitter > 0 {
		k += fmt.Sprintf(", jitter %d ms ÷ 2", s.Jitter.Milliseconds())
	}
	if s.Loss > 0 {
		k += fmt.Sprintf(", loss %.3g%%", 100*s.Loss)
	}
	if s.RealRTT >= time.Millisecond {
		k += fmt.Sprintf(", network %d ms ÷ 2", s.RealRTT.Milliseconds())
	}
	return k
}

// NewBudget returns the budget from a press of mover to viewer seeing it,
// as the knobs have it now: mover's speed-limit wait and way up, the
// server's tick (half an update interval on average) and its State, the
// viewer's way down and interpolation delay. mover and viewer are the
// same side for "a player with a link like mine". The parts are what to
// expect on average; a press's own parts are in its InputLife.
func NewBudget(mover, viewer BudgetSide, who string) Budget {
	var b Budget
	b.Parts[PartLimit] = BudgetPart{Name: "speed-limit wait", D: mover.LimitWait,
		Knob: fmt.Sprintf("move time %d ms: presses quicker wait", mover.MoveTime.Milliseconds())}
	b.Parts[PartUp] = BudgetPart{Name: "one-way up", D: mover.oneWay(true), Hidden: true, Knob: mover.linkKnob("")}
	tick := BudgetPart{Name: "waiting for the tick", Hidden: true, Knob: "update rate 0: the server answers at once"}
	if mover.Rate > 0 {
		tick.D = time.Second / time.Duration(mover.Rate) / 2
		tick.Knob = fmt.Sprintf("update rate %d Hz: half an update on average", mover.Rate)
	}
	b.Parts[PartTick] = tick
	b.Parts[PartSend] = BudgetPart{Name: "tick to State sent", Hidden: true, Knob: "the server: its State leaves at the tick"}
	b.Parts[PartDown] = BudgetPart{Name: "one-way back", D: viewer.oneWay(false), Knob: viewer.linkKnob(who)}
	interp := BudgetPart{Name: "interpolation delay", Knob: who + "interpolation off: others drawn as they arrive"}
	if viewer.Interpolate {
		interp.D = viewer.InterpDelay
		interp.Knob = who + "interpolation (an update, + jitter)"
	}
	b.Parts[PartInterp] = interp
	b.finish(mover.oneWay(false), mover.Predict)
	return b
}

// finish adds up the parts, and the own avatar's wait with ownDown, the
// mover's own way back.
func (b *Budget) finish(ownDown time.Duration, predict bool) {
	b.Total = 0
	for _, p := range b.Parts {
		b.Total += p.D
	}
	b.Predict = predict
	b.Own = b.Parts[PartLimit].D + b.Parts[PartUp].D + b.Parts[PartTick].D + b.Parts[PartSend].D + ownDown
	b.Hidden = 0
	if predict {
		b.Hidden = b.Own - b.Parts[PartLimit].D
	}
}

// MeasuredBudget is the budget of lives that happened: the mean of their
// speed-limit waits, ways up (from release to arrival, what the link held
// included) and waits for the tick (from arrival to the State that
// acknowledged them), the viewer's mean way down (down) and its
// interpolation delay (interp, 0 off). Only moves count (a zap's effect
// reaches others as the server's word, not drawn in the past), and only
// those the server staged (Traced); ok is false if none is left.
func MeasuredBudget(lives []InputLife, down, interp time.Duration, predict bool, who string) (b Budget, ok bool) {
	var limit, up, tick, own time.Duration
	n := 0
	for _, l := range lives {
		if !l.Traced || l.Zap {
			continue
		}
		n++
		limit += l.LimitWait()
		up += l.Arrived - l.Released
		tick += l.AckSent - l.Arrived
		own += l.Acked - l.AckSent
	}
	if n == 0 {
		return b, false
	}
	mean := func(d time.Duration) time.Duration { return d / time.Duration(n) }
	b.Parts[PartLimit] = BudgetPart{Name: "speed-limit wait", D: mean(limit), Knob: "the presses, against the move time"}
	b.Parts[PartUp] = BudgetPart{Name: "one-way up", D: mean(up), Hidden: true, Knob: "latency ÷ 2, jitter, loss"}
	b.Parts[PartTick] = BudgetPart{Name: "waiting for the tick", D: mean(tick), Hidden: true, Knob: "update rate"}
	b.Parts[PartSend] = BudgetPart{Name: "tick to State sent", Hidden: true, Knob: "the server: its State leaves at the tick"}
	b.Parts[PartDown] = BudgetPart{Name: "one-way back", D: down, Knob: who + "latency ÷ 2, jitter, loss"}
	b.Parts[PartInterp] = BudgetPart{Name: "interpolation delay", D: interp, Knob: who + "interpolation delay"}
	b.finish(mean(own), predict)
	return b, true
}
