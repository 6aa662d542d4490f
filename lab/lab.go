package lab

import (
	"fmt"
	"time"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/server/world"
	"gridlag/sim"
)

// Lab is the model of `gridlag lab`: a server's hub and two players over
// simulated links, on a clock that follows the wall clock times a speed.
// Times it returns count from the lab's start, when both players are in.
// It is not safe for concurrent use: one goroutine (the screen's event
// loop) calls every method.
type Lab struct {
	world   *sim.World
	clock   *Clock
	origin  time.Duration // the world's time at the lab's start
	players [2]*Player
}

// New builds the lab of cfg and joins both players, on a clock that
// follows wall. Player 2 joins first, so that nothing of its arrival is
// still on its way to Player 1 when the lab starts: Player 1's timeline
// starts as `gridlag scenario`'s does. From the start on, the server
// pings the players every PingInterval, as the TCP server does, so that
// the Server board shows their round trips.
func New(cfg Config, wall func() time.Time) (*Lab, error) {
	scfg, err := cfg.serverConfig()
	if err != nil {
		return nil, err
	}
	l := &Lab{world: sim.New(scfg)}
	for _, i := range []int{1, 0} {
		p, err := l.join(i, cfg)
		if err != nil {
			return nil, err
		}
		l.players[i] = p
	}
	l.origin = l.world.Now()
	l.world.PingEvery(PingInterval)
	l.clock = NewClock(wall, l.origin, cfg.Speed)
	return l, nil
}

// join connects player i (0 for Player 1) as cfg gives it.
func (l *Lab) join(i int, cfg Config) (*Player, error) {
	pc := cfg.Players[i]
	name := fmt.Sprintf("Player %d", i+1)
	rtt, jitter, loss, err := pc.link()
	if err != nil {
		return nil, fmt.Errorf("lab: %s: %w", name, err)
	}
	c := l.world.JoinOver(name, client.Options{
		Color:     color(i),
		NoPredict: !pc.Predict, NoReconcile: !pc.Reconcile, NoInterpolate: !pc.Interpolate,
		Latency: rtt, Jitter: jitter, Seed: cfg.Seed + int64(i),
	}, cfg.Link)
	if v := c.View(); v.Err != nil || !v.HasState {
		return nil, fmt.Errorf("lab: %s could not join: %v", name, v.Err)
	}
	c.SetLoss(loss) // from the start on: the join itself is not held up
	return &Player{Client: c, script: pc.Presses, preset: presetIndex(pc.Preset)}, nil
}

// Players returns Player 1 and Player 2.
func (l *Lab) Players() [2]*Player { return l.players }

// Map returns the map the server plays on.
func (l *Lab) Map() *grid.Map { return l.world.Server().Config().Map }

// Now returns the virtual time since the lab's start.
func (l *Lab) Now() time.Duration { return l.world.Now() - l.origin }

// Sync brings the lab up to the clock's time, playing everything due on
// the way in time order: messages, ticks, timers and scripted presses. The
// screen calls it every frame. While paused it does nothing: what is due
// at the paused moment waits for Step or Resume.
func (l *Lab) Sync() {
	if !l.clock.Paused() {
		l.advanceTo(l.clock.Now())
	}
}

// advanceTo brings the world to t (world time), playing the scripted
// presses at their moments, after what else is due then.
func (l *Lab) advanceTo(t time.Duration) {
	for {
		at, ok := l.nextPress()
		if !ok || l.origin+at > t {
			break
		}
		l.world.AdvanceTo(l.origin + at)
		l.play(at)
	}
	l.world.AdvanceTo(t)
}

// RunTo brings the lab to time t since its start, as Sync does when its
// clock says t, whatever the clock says: a replay drives a lab with it.
func (l *Lab) RunTo(t time.Duration) { l.advanceTo(l.origin + t) }

// World returns the lab's simulated world, to read it (a replay writes
// its timeline from it).
func (l *Lab) World() *sim.World { return l.world }

// nextPress returns when the next scripted press of either player is due,
// since the start.
func (l *Lab) nextPress() (time.Duration, bool) {
	var best time.Duration
	found := false
	for _, p := range l.players {
		if at, ok := p.nextPress(); ok && (!found || at < best) {
			best, found = at, true
		}
	}
	return best, found
}

// play presses the scripted presses due at t, Player 1's first.
func (l *Lab) play(t time.Duration) {
	for _, p := range l.players {
		p.play(t)
	}
}

// Next returns when the next event is due, since the start: a message
// arriving at either end, a server tick or ping, a client's timer (a held
// press, a ping) or a scripted press. There is always one: the server
// pings every PingInterval.
func (l *Lab) Next() time.Duration {
	wt, _ := l.world.Next()
	if pt, ok := l.nextPress(); ok && l.origin+pt < wt {
		return pt
	}
	return wt - l.origin
}

// Step pauses the clock, then moves the virtual time to exactly the next
// event (see Next) and does it, and nothing due later. Things due at the
// same moment are one event; a scripted press due with other things comes
// after them, in a step of its own.
func (l *Lab) Step() {
	l.Pause()
	wt, _ := l.world.Next()
	if pt, ok := l.nextPress(); ok && l.origin+pt < wt {
		l.world.AdvanceTo(l.origin + pt)
		l.play(pt)
	} else {
		l.world.Step()
	}
	l.clock.Set(l.world.Now())
}

// Pause stops the clock at the lab's time, the moment the screen shows
// (the last Sync or Step): nothing moves, and views (ledger ages
// included) stay as they are, until Resume or Step.
func (l *Lab) Pause() {
	l.clock.Pause()
	l.clock.Set(l.world.Now())
}

// Resume lets the clock run again from where it stopped.
func (l *Lab) Resume() { l.clock.Resume() }

// Paused reports whether the clock is paused.
func (l *Lab) Paused() bool { return l.clock.Paused() }

// Speed returns the clock's speed.
func (l *Lab) Speed() Speed { return l.clock.Speed() }

// SetSpeed changes the clock's speed from now on.
func (l *Lab) SetSpeed(s Speed) { l.clock.SetSpeed(s) }

// Rate returns the server's update rate in Hz (0 = a State after each
// processed input).
func (l *Lab) Rate() int { return l.world.Rate() }

// SetRate changes the server's update rate live; hz is kept within 0 to
// world.MaxRate.
func (l *Lab) SetRate(hz int) { l.world.SetRate(min(max(hz, 0), world.MaxRate)) }

// Tick returns the server's update tick: how many times it has sent every
// player a State.
func (l *Lab) Tick() uint64 { return l.world.Server().Stats().Ticks }
