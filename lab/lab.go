package lab

import (
	"fmt"
	"strings"
	"time"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/lab/sim"
	"gridlag/server/world"
)

// Lab is the model of `gridlag lab`: a server's hub and two players over
// simulated links, on a clock that follows the wall clock times a speed.
// Times it returns count from the lab's start, when both players are in.
// It is not safe for concurrent use: one goroutine (the screen's event
// loop) calls every method.
type Lab struct {
	cfg     Config // as it started: Restart plays its scripts again
	wall    func() time.Time
	world   *sim.World
	clock   *Clock
	origin  time.Duration // the world's time at the lab's start
	players [2]*Player

	test   perceptionTest // the perception test (perceive.go)
	lesson *lessonRun     // the lesson or lecture given, nil for none
	offer  *lessonRun     // the lecture NextPart starts in the free lab, nil for none
	log    *runLog        // in a lesson, what the step's run did so far

	pings     bool     // the strips show pings and pongs
	recording bool     // a step runs: the trace puts what happens in words
	said      []string // what the step did, in the caption's words
	caption   string   // what the last step did
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
	l := &Lab{cfg: cfg, wall: wall, world: sim.New(scfg), pings: !cfg.HidePings}
	for _, i := range []int{1, 0} {
		p, err := l.join(i, cfg)
		if err != nil {
			return nil, err
		}
		l.players[i] = p
	}
	l.origin = l.world.Now()
	for i, p := range l.players {
		if err := p.follow(cfg.Players[i].Trace, l.origin-cfg.Players[i].TraceAt); err != nil {
			return nil, fmt.Errorf("lab: Player %d: %w", i+1, err)
		}
		p.in0, p.out0 = p.Bytes()
	}
	l.world.Trace(l.record)
	l.world.PingEvery(PingInterval)
	l.clock = NewClock(wall, l.origin, cfg.Speed)
	if cfg.Paused {
		l.clock.Pause()
	}
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
	return &Player{Client: c, script: pc.Presses, preset: presetIndex(pc.Preset),
		own: ownLink{rtt: pc.Latency, jitter: pc.Jitter, loss: pc.Loss}}, nil
}

// Restart builds the lab again from t=0 and plays its scripted presses
// again: the same map, starting cells, scripts and seed (so the same
// jitter and losses), with each player's toggles and link (its preset,
// or its own latency, jitter and loss), the update rate, the lag
// compensation, the speed and the strips' pings as they are now; paused
// at t=0 if the lab started paused (Config.Paused), else running. The
// Players stay the same values, with new clients in them. In a lesson,
// the step shown starts again, as the lesson sets it.
func (l *Lab) Restart() error {
	if l.lesson != nil {
		l.startStep(l.lesson.step)
		return nil
	}
	cfg := l.cfg
	for i, p := range l.players {
		v, pc := p.View(), &cfg.Players[i]
		pc.Predict, pc.Reconcile, pc.Interpolate = v.Predict, v.Reconcile, v.Interpolate
		pc.Preset = p.Preset()
		pc.Latency, pc.Jitter, pc.Loss = v.Latency, v.Jitter, p.Loss()
		if pc.Preset != "" || p.Trace() != "" {
			pc.Latency, pc.Jitter, pc.Loss = p.own.rtt, p.own.jitter, p.own.loss
		}
		pc.Trace, pc.TraceAt = p.ownTrace(l.origin)
	}
	cfg.Rate, cfg.LagComp, cfg.Speed, cfg.HidePings = l.Rate(), l.LagComp(), l.Speed(), !l.pings
	return l.reset(cfg)
}

// reset builds the lab of cfg in place of this one, from t=0: the same
// Lab and Players, a new world in them.
func (l *Lab) reset(cfg Config) error {
	fresh, err := New(cfg, l.wall)
	if err != nil {
		return err
	}
	for i, p := range l.players {
		// What the screen's instruments set on the player's client
		// (smoothing, the server's stages asked for while the waterfall
		// is open) goes on in the fresh one.
		var ins client.Instruments
		p.Instruments(&ins)
		smooth := p.View().Smooth
		*p = *fresh.players[i]
		p.SetSmooth(smooth)
		p.SetTrace(ins.Tracing)
	}
	l.world, l.clock, l.origin = fresh.world, fresh.clock, fresh.origin
	l.test.active, l.test.phase = false, 0 // a run's link went with the old world
	l.world.Trace(l.record)
	l.pings, l.caption = fresh.pings, ""
	l.log = nil
	if l.lesson != nil {
		l.log = newRunLog(l)
	}
	return nil
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
	if l.clock.Paused() {
		return
	}
	t := l.clock.Now()
	if lim, ok := l.limit(); ok && t >= lim {
		l.advanceTo(lim)
		l.clock.Set(lim)
		l.reached()
		return
	}
	l.advanceTo(t)
}

// advanceTo brings the world to t (world time), playing the scripted
// presses at their moments, after what else is due then.
func (l *Lab) advanceTo(t time.Duration) {
	l.perceptionDue(t)
	l.advanceScripted(t)
}

// advanceScripted brings the world to t (world time), playing the
// scripted presses at their moments, after what else is due then.
func (l *Lab) advanceScripted(t time.Duration) {
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

// Step pauses the clock, then moves the virtual time to the next event
// that changes what the screen shows (see Next) and does it, and nothing
// due later, or to the moment before it when a board changes with time
// alone (an interpolated player steps to the next cell, a freeze runs
// out); Caption then says what happened. Things due at the same
// moment are one event; a scripted press due with other things comes
// after them, in a step of its own. An event that changes nothing shown
// (a timer with nothing to do; a ping while the strips hide them) is
// done on the way, not stopped at; a step stops after QuietLimit in any
// case, saying that nothing visible happened.
func (l *Lab) Step() {
	l.Pause()
	if l.lesson != nil && l.lesson.phase == ready {
		l.lesson.phase = running
	}
	lim, bounded := l.limit()
	if bounded && l.world.Now() >= lim {
		return // a lesson's moment: its key goes on
	}
	before := l.look()
	start := l.Now()
	l.said, l.recording = l.said[:0], true
	after := before
	for after.same(before) && l.Now()-start < QuietLimit {
		next := l.origin + l.Next()
		if bounded && next > lim {
			next = lim + 1 // the lesson's moment comes first
		}
		if at, ok := l.timeChange(next); ok {
			l.world.AdvanceTo(at) // nothing is due before
			l.clock.Set(at)
		} else if bounded && next > lim {
			l.world.AdvanceTo(lim)
			l.clock.Set(lim)
		} else {
			l.stepOnce()
			after = l.look()
			continue
		}
		after = l.look()
		break
	}
	l.recording = false
	parts := append(l.said, l.sends(before, after)...)
	parts = append(parts, l.redrawn(before, after)...)
	switch {
	case len(parts) > 0:
	case bounded && l.world.Now() >= lim:
		parts = []string{"the lesson's next moment"}
	default:
		parts = []string{fmt.Sprintf("nothing the screen shows changes for %.3fs", (l.Now() - start).Seconds())}
	}
	l.caption = strings.Join(parts, "; ")
	if bounded && l.world.Now() >= lim {
		l.reached()
	}
}

// stepOnce moves the virtual time to exactly the next event (see Next)
// and does it.
func (l *Lab) stepOnce() {
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

// Resume lets the clock run again from where it stopped; the last step's
// caption goes.
func (l *Lab) Resume() {
	if r := l.lesson; r != nil && r.phase != running {
		if r.phase == ready {
			l.Continue()
		}
		return // a lesson's moment waits for its key
	}
	l.caption = ""
	l.clock.Resume()
}

// Pings reports whether the strips show pings and pongs (and a step stops
// at them).
func (l *Lab) Pings() bool { return l.pings }

// SetPings shows or hides pings and pongs on the strips, in the steps and
// in their captions.
func (l *Lab) SetPings(on bool) { l.pings = on }

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
