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
// link its own conditions back, those it had before the first.
func (p *Player) NextPreset() {
	presets := link.Presets()
	if p.preset < 0 {
		v := p.View()
		p.own = ownLink{rtt: v.Latency, jitter: v.Jitter, loss: p.Loss()}
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
}

// SetLatency sets the injected round trip; the link then has conditions
// of its own, not a preset's.
func (p *Player) SetLatency(rtt time.Duration) {
	p.preset = -1
	p.Client.SetLatency(rtt)
}

// SetJitter sets the injected jitter; the link then has conditions of its
// own, not a preset's.
func (p *Player) SetJitter(j time.Duration) {
	p.preset = -1
	p.Client.SetJitter(j)
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
