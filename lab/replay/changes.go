package replay

import (
	"fmt"
	"strings"
	"time"

	"gridlag/internal/link"
	"gridlag/lab"
	"gridlag/lab/scenario"
	"gridlag/lab/sim"
)

// Changes are a what-if: the one thing (or few) a replay changes before
// it feeds the recording's inputs, at their times, through the changed
// setup. A nil field is as recorded. Latency, Jitter and Loss are
// Player 1's link (a scenario's rival shares Jitter and Loss, as `gridlag
// scenario` has it); the switches are every player's; Rate, LagComp and
// Unlag the server's; Link the transport. A live change the recording
// holds of something the what-if sets (a lab's key that toggled
// prediction, moved the latency or picked a preset) is not made: the
// what-if holds for the whole run.
type Changes struct {
	Predict, Reconcile, Interpolate *bool
	Latency, Jitter                 *time.Duration
	Loss                            *float64
	Rate                            *int
	LagComp                         *bool
	Unlag                           *time.Duration
	Link                            *sim.Transport
	// Trace is a network that changes over time for Player 1's link
	// (see link.Trace), from the run's start. A what-if of Player 1's
	// link (Latency, Jitter, Loss or Trace) replaces a trace the
	// recording's link followed.
	Trace *link.Trace
}

// Any reports whether c changes anything.
func (c Changes) Any() bool { return c != Changes{} }

// Client reports whether c changes only what a client decides alone
// (its switches): a game's recording replays such a change exactly,
// through the recorded messages. Anything else is re-simulated.
func (c Changes) Client() bool {
	return c.Latency == nil && c.Jitter == nil && c.Loss == nil && c.Rate == nil && c.LagComp == nil && c.Unlag == nil && c.Link == nil &&
		c.Trace == nil
}

// link reports whether c changes Player 1's link.
func (c Changes) link() bool {
	return c.Latency != nil || c.Jitter != nil || c.Loss != nil || c.Trace != nil
}

// String says what c changes, as a difference line ends: "reconciliation
// off", "latency 100ms, link datagram".
func (c Changes) String() string {
	var parts []string
	sw := func(name string, p *bool) {
		if p != nil {
			parts = append(parts, name+" "+onOffWord(*p))
		}
	}
	sw("prediction", c.Predict)
	sw("reconciliation", c.Reconcile)
	sw("interpolation", c.Interpolate)
	if c.Latency != nil {
		parts = append(parts, "latency "+c.Latency.String())
	}
	if c.Jitter != nil {
		parts = append(parts, "jitter "+c.Jitter.String())
	}
	if c.Loss != nil {
		parts = append(parts, fmt.Sprintf("loss %g%%", 100**c.Loss))
	}
	if c.Rate != nil {
		parts = append(parts, fmt.Sprintf("rate %d Hz", *c.Rate))
	}
	sw("lag compensation", c.LagComp)
	if c.Unlag != nil {
		parts = append(parts, "unlag "+c.Unlag.String())
	}
	if c.Link != nil {
		parts = append(parts, "link "+c.Link.String())
	}
	if c.Trace != nil {
		parts = append(parts, "trace "+c.Trace.Name)
	}
	return strings.Join(parts, ", ")
}

func onOffWord(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

// switches returns the client's switches after c: prediction off turns
// reconciliation off, reconciliation on turns prediction on, as the
// client has them.
func (c Changes) switches(predict, reconcile, interpolate bool) (bool, bool, bool) {
	if c.Predict != nil {
		predict = *c.Predict
		if !predict {
			reconcile = false
		}
	}
	if c.Reconcile != nil {
		reconcile = *c.Reconcile
		if reconcile {
			predict = true
		}
	}
	if c.Interpolate != nil {
		interpolate = *c.Interpolate
	}
	return predict, reconcile, interpolate
}

// scenario returns cfg changed by c.
func (c Changes) scenario(cfg scenario.Config) scenario.Config {
	var interp bool
	cfg.Predict, cfg.Reconcile, interp = c.switches(cfg.Predict, cfg.Reconcile, !cfg.NoInterpolate)
	cfg.NoInterpolate = !interp
	if c.link() {
		cfg.Player.Trace, cfg.Player.TraceAt = c.Trace, 0
	}
	if c.Latency != nil {
		cfg.Player.Latency = *c.Latency
	}
	second := cfg.Second
	if second != nil {
		s := *second
		second = &s
		cfg.Second = second
	}
	if c.Jitter != nil {
		cfg.Player.Jitter = *c.Jitter
		if second != nil {
			second.Jitter = *c.Jitter
		}
	}
	if c.Loss != nil {
		cfg.Player.Loss = *c.Loss
		if second != nil {
			second.Loss = *c.Loss
		}
	}
	c.server(&cfg.Rate, &cfg.LagComp, &cfg.Unlag, &cfg.Link)
	return cfg
}

// lab returns cfg changed by c.
func (c Changes) lab(cfg lab.Config) lab.Config {
	for i := range cfg.Players {
		p := &cfg.Players[i]
		p.Predict, p.Reconcile, p.Interpolate = c.switches(p.Predict, p.Reconcile, p.Interpolate)
	}
	p := &cfg.Players[0]
	if c.link() && p.Preset != "" {
		// The preset gave the link; what the what-if leaves is its.
		pr, _ := linkPreset(p.Preset)
		p.Latency, p.Jitter, p.Loss, p.Preset = pr.RTT(), pr.Jitter(), pr.Loss, ""
	}
	if c.link() {
		p.Trace, p.TraceAt = c.Trace, 0
	}
	if c.Latency != nil {
		p.Latency = *c.Latency
	}
	if c.Jitter != nil {
		p.Jitter = *c.Jitter
	}
	if c.Loss != nil {
		p.Loss = *c.Loss
	}
	c.server(&cfg.Rate, &cfg.LagComp, &cfg.Unlag, &cfg.Link)
	return cfg
}

// server changes the server's numbers and the transport.
func (c Changes) server(rate *int, lagcomp *bool, unlag *time.Duration, link *sim.Transport) {
	if c.Rate != nil {
		*rate = *c.Rate
	}
	if c.LagComp != nil {
		*lagcomp = *c.LagComp
	}
	if c.Unlag != nil {
		*unlag = *c.Unlag
	}
	if c.Link != nil {
		*link = *c.Link
	}
}
