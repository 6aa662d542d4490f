package lab

import (
	"time"

	"gridlag/internal/link"
	"gridlag/lab/scenario"
	"gridlag/lab/sim"
)

// SpikeLength is how long the lag spike key stalls a player's link.
const SpikeLength = time.Second

// Player is one of the lab's two players: a client on its own simulated
// link (the embedded sim.Client, a client.Session: press, toggles, latency,
// View, and the link's conditions and messages in flight), the presses
// its script still has to play, and the link preset it has.
type Player struct {
	*sim.Client
	script []scenario.Press // still to play, in time order
	preset int              // index in link.Presets(); -1 for none
	own    ownLink          // the link's own conditions, while a preset is on
	// trace is the trace the link follows, from traceStart on the
	// world's clock (its time 0); nil for none.
	trace      *link.Trace
	traceStart time.Duration
	// in0 and out0 are the game's bytes the player's client had
	// received and sent at t=0, the join behind it.
	in0, out0 int64
}

// GameBytes returns the game's bytes (its frames, as the wire format
// writes them) the player's client sent and received since t=0.
func (p *Player) GameBytes() (up, down int64) {
	in, out := p.Bytes()
	return out - p.out0, in - p.in0
}

// nextPress returns the time of the player's next scripted press since
// the lab's start.
func (p *Player) nextPress() (time.Duration, bool) {
	if len(p.script) == 0 {
		return 0, false
	}
	return p.script[0].At, true
}

// play presses every scripted press due at t (since the lab's start).
func (p *Player) play(t time.Duration) {
	for len(p.script) > 0 && p.script[0].At == t {
		p.script[0].On(p)
		p.script = p.script[1:]
	}
}
