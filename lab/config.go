package lab

import (
	"errors"
	"fmt"
	"time"

	"gridlag/grid"
	"gridlag/internal/link"
	"gridlag/internal/perception"
	"gridlag/lab/scenario"
	"gridlag/lab/sim"
	"gridlag/server/world"
)

// PlayerConfig is one player of the lab, as the flags give it (-latency,
// -jitter, -loss, -preset, -presses for Player 1; the same ending in 2 for
// Player 2; -predict, -reconcile, -interpolate).
type PlayerConfig struct {
	// Start is the player's cell at the start.
	Start grid.Pos
	// Latency is the injected round trip, half each way; Jitter adds 0 to
	// Jitter per message; Loss is the probability that a message is lost
	// and retransmitted, as TCP does.
	Latency, Jitter time.Duration
	Loss            float64
	// Preset names a link condition (good, average, poor; see
	// link.Presets); when set, it gives the latency, jitter and loss.
	Preset string
	// Trace, if not nil, is a network that changes over time (see
	// link.Trace): the player's link follows it from the lab's start,
	// its time 0, instead of Latency, Jitter and Loss (and Preset).
	// TraceAt is the trace's time at the lab's start (0: it starts with
	// the lab).
	Trace   *link.Trace
	TraceAt time.Duration
	// Presses are played by themselves at their times from the start.
	Presses []scenario.Press
	// Predict, Reconcile and Interpolate are the client's toggles at the
	// start. Reconcile without Predict is off, as the client has it.
	Predict, Reconcile, Interpolate bool
}

// Config is a whole lab, as `gridlag lab`'s flags give it.
type Config struct {
	// Players are Player 1 and Player 2.
	Players [2]PlayerConfig
	// Rate is the server's update rate in Hz; 0 = a State right after each
	// processed input.
	Rate int
	// MoveTime is the speed limit; 0 = world.DefaultMoveTime.
	MoveTime time.Duration
	// Map is the map; nil = the embedded one.
	Map *grid.Map
	// Speed is the clock's speed at the start.
	Speed Speed
	// Seed drives the jitter and the loss: Player 1's link takes Seed,
	// Player 2's Seed+1.
	Seed int64
	// LagComp and Unlag are the server's lag compensation at the start
	// (-lagcomp, -unlag; see world.Config); Lab.SetLagComp switches it
	// live. Protect is its spawn protection (-protect; 0 in the lab, whose
	// players meet at once).
	LagComp bool
	Unlag   time.Duration
	Protect time.Duration
	// Link is how the players' messages travel: TCP, or a datagram link
	// (a replay's what-if; see sim.Datagram).
	Link sim.Transport
	// HidePings hides pings and pongs from the strips, the steps and
	// their captions at the start (Lab.SetPings shows them again).
	HidePings bool
	// Paused starts the lab's clock paused at t=0.
	Paused bool
	// Perception is the design of the perception test
	// (Lab.StartPerception); no levels: DefaultPerception.
	// PerceptionDir is where its answers go as CSV, "" for nowhere;
	// PerceptionSeed, if not 0, seeds its rounds' order.
	Perception     perception.Settings
	PerceptionDir  string
	PerceptionSeed uint64
}

// Default returns the lab of the issue and the articles: Player 1 at
// (10,10) with a 250 ms round trip, Player 2 at (14,10) with 150 ms, the
// server updating 3 times a second, every toggle on, full speed, seed 1,
// lag compensation on within world.DefaultUnlag.
func Default() Config {
	p := PlayerConfig{Predict: true, Reconcile: true, Interpolate: true}
	p1, p2 := p, p
	p1.Start, p1.Latency = grid.DefaultSpawn, 250*time.Millisecond
	p2.Start, p2.Latency = grid.Pos{X: 14, Y: 10}, 150*time.Millisecond
	return Config{Players: [2]PlayerConfig{p1, p2}, Rate: 3, Seed: 1, LagComp: true, Unlag: world.DefaultUnlag}
}

// serverConfig returns the server's game numbers for the lab, checked.
// Player 2 joins first (see New), so its start is the spawn and Player 1's
// the next.
func (c Config) serverConfig() (world.Config, error) {
	m := c.Map
	if m == nil {
		m = grid.DefaultMap()
	}
	a, b := c.Players[0].Start, c.Players[1].Start
	if a == b {
		return world.Config{}, errors.New("lab: the two players cannot start on the same cell")
	}
	for i, s := range []grid.Pos{a, b} {
		if m.Wall(s) {
			return world.Config{}, fmt.Errorf("lab: Player %d's start %v is a wall or off the map", i+1, s)
		}
	}
	cfg := world.Config{Map: m, Spawn: b, Spawns: []grid.Pos{a}, MoveTime: c.MoveTime, Rate: c.Rate, LagComp: c.LagComp, Unlag: c.Unlag, Protect: c.Protect}
	return cfg, cfg.Validate()
}

// link returns the player's round trip, jitter and loss: the preset's if
// one is named.
func (p PlayerConfig) link() (rtt, jitter time.Duration, loss float64, err error) {
	if p.Preset != "" && p.Trace != nil {
		return 0, 0, 0, fmt.Errorf("a preset (%s) and a trace (%s): the link follows one or the other", p.Preset, p.Trace.Name)
	}
	if p.Preset == "" {
		if p.Latency < 0 || p.Jitter < 0 || p.Loss < 0 || p.Loss > 1 {
			return 0, 0, 0, fmt.Errorf("latency %v, jitter %v, loss %v: want latency and jitter not negative, loss from 0 to 1", p.Latency, p.Jitter, p.Loss)
		}
		return p.Latency, p.Jitter, p.Loss, nil
	}
	pr, err := link.PresetNamed(p.Preset)
	return pr.RTT(), pr.Jitter(), pr.Loss, err
}
