package lab

import (
	"time"

	"gridlag/internal/link"
)

// ownLink is a player's link conditions of its own, kept while a preset
// is applied.
type ownLink struct {
	rtt, jitter time.Duration
	loss        float64
	// trace is the trace the link followed, from start on the world's
	// clock; nil for none.
	trace *link.Trace
	start time.Duration
}

// Preset names the link preset the player's link has (see NextPreset),
// "" when it has its own conditions.
func (p *Player) Preset() string {
	if p.preset < 0 {
		return ""
	}
	return link.Presets()[p.preset].Name
}

// NextPreset applies the next named link condition of link.Presets (good,
// average, poor) to the player's link, and after the last one gives the
// link its own conditions back, those it had before the first: the
// trace it followed, if it did (from where the trace is by then, as if
// it had played on), else its own latency, jitter and loss.
func (p *Player) NextPreset() {
	presets := link.Presets()
	if p.preset < 0 {
		v := p.View()
		p.own = ownLink{rtt: v.Latency, jitter: v.Jitter, loss: p.Loss(), trace: p.trace, start: p.traceStart}
		p.unfollow()
	}
	p.preset++
	if p.preset < len(presets) {
		p.ApplyPreset(presets[p.preset])
		return
	}
	p.preset = -1
	p.Client.SetLatency(p.own.rtt)
	p.Client.SetJitter(p.own.jitter)
	p.SetLoss(p.own.loss)
	if p.own.trace != nil {
		p.follow(p.own.trace, p.own.start)
	}
}

// SetLatency sets the injected round trip; the link then has conditions
// of its own, not a preset's nor a trace's.
func (p *Player) SetLatency(rtt time.Duration) {
	p.preset = -1
	p.unfollow()
	p.Client.SetLatency(rtt)
}

// SetJitter sets the injected jitter; the link then has conditions of its
// own, not a preset's nor a trace's.
func (p *Player) SetJitter(j time.Duration) {
	p.preset = -1
	p.unfollow()
	p.Client.SetJitter(j)
}

// Trace names the trace the player's link follows (see
// PlayerConfig.Trace), "" when it follows none: none was given, or a
// preset, the latency or the jitter took the link over.
func (p *Player) Trace() string {
	if p.trace == nil {
		return ""
	}
	return p.trace.Name
}

// ownTrace is the trace of the player's own link: the one it follows,
// or the one a preset put aside; nil for none. at is the trace's time
// at the lab's start, origin on the world's clock, for a restart.
func (p *Player) ownTrace(origin time.Duration) (tr *link.Trace, at time.Duration) {
	tr, start := p.trace, p.traceStart
	if p.preset >= 0 {
		tr, start = p.own.trace, p.own.start
	}
	if tr == nil {
		return nil, 0
	}
	return tr, origin - start
}

// follow makes the player's link follow tr, whose time 0 is start on
// the world's clock; nil follows none.
func (p *Player) follow(tr *link.Trace, start time.Duration) error {
	if tr == nil {
		return nil
	}
	if err := p.Client.FollowTraceFrom(tr, start); err != nil {
		return err
	}
	p.trace, p.traceStart = tr, start
	return nil
}

// unfollow stops the trace, if the link follows one: its conditions stay
// as the trace left them.
func (p *Player) unfollow() {
	if p.trace != nil {
		p.Client.FollowTraceFrom(nil, 0)
		p.trace = nil
	}
}

// Spike puts a lag spike of SpikeLength on the player's link.
func (p *Player) Spike() { p.Stall(SpikeLength) }

// presetIndex returns the index of the preset called name in
// link.Presets(), -1 for none.
func presetIndex(name string) int {
	for i, p := range link.Presets() {
		if p.Name == name {
			return i
		}
	}
	return -1
}
