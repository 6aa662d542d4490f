package replay

import (
	"time"

	"gridlag/client"
	"gridlag/lab"
	"gridlag/lab/record"
	"gridlag/lab/scenario"
	"gridlag/lab/sim"
	"gridlag/tui"
)

// Pane is one player of a run at the run's time, as a screen draws it:
// its name, its view, and the messages on its link.
type Pane struct {
	Name    string
	View    client.View
	Flights []tui.Flight
	// Link says the pane has a simulated link whose messages it lists.
	Link bool
}

// run is one playing of a recording, as recorded or changed, brought
// forward a moment at a time: a scenario, a lab or a game's player.
type run interface {
	// now returns the run's time.
	now() time.Duration
	// runTo brings the run to time t (nothing if it is there already).
	runTo(t time.Duration)
	// next returns when the next thing happens; ok false for nothing.
	next() (time.Duration, bool)
	// panes appends the players' panes at the run's time to dst.
	panes(dst []Pane) []Pane
	// server returns the server's world, if the run has one.
	server() (client.WorldView, bool)
}

// simPanes appends the panes of clients of a simulated world.
func simPanes(dst []Pane, clients []*sim.Client) []Pane {
	for _, c := range clients {
		p := Pane{Name: c.Name(), View: c.View(), Link: true}
		for _, way := range []sim.Way{sim.Up, sim.Down} {
			for _, f := range c.InFlight(way, nil) {
				p.Flights = append(p.Flights, lab.ScreenFlight(f, way == sim.Up))
			}
		}
		dst = append(dst, p)
	}
	return dst
}

// scenarioRun is a scenario recording played.
type scenarioRun struct {
	st *scenario.Stepper
}

func newScenarioRun(cfg scenario.Config) (*scenarioRun, error) {
	st, err := scenario.Start(cfg)
	if err != nil {
		return nil, err
	}
	return &scenarioRun{st: st}, nil
}

func (r *scenarioRun) now() time.Duration           { return r.st.Now() }
func (r *scenarioRun) runTo(t time.Duration)        { r.st.AdvanceTo(max(t, r.st.Now())) }
func (r *scenarioRun) next() (time.Duration, bool)  { return r.st.Next() }
func (r *scenarioRun) panes(dst []Pane) []Pane      { return simPanes(dst, r.st.Clients()) }
func (r *scenarioRun) timeline() *scenario.Timeline { return r.st.Timeline() }
func (r *scenarioRun) clients() []*sim.Client       { return r.st.Clients() }
func (r *scenarioRun) server() (client.WorldView, bool) {
	return lab.Overview(r.st.World(), r.st.Timeline().Start()), true
}

// labRun is a lab recording played: the lab rebuilt from the header, the
// live actions made again at their times through the lab's own model.
type labRun struct {
	l      *lab.Lab
	model  tui.LabModel
	tl     *scenario.Timeline
	events record.Cursor // the recording's next action
	change Changes
}

// stillWall is the wall clock of a replayed lab: it never moves, the
// replay drives the lab with RunTo.
func stillWall() time.Time { return time.Time{} }

func newLabRun(cfg lab.Config, rec *record.Recording, change Changes) (*labRun, error) {
	l, err := lab.New(cfg, stillWall)
	if err != nil {
		return nil, err
	}
	ps := l.Players()
	r := &labRun{l: l, model: l.Model(), events: *rec.Cursor(), change: change}
	r.tl = scenario.NewTimeline(l.World(), []*sim.Client{ps[0].Client, ps[1].Client})
	return r, nil
}

func (r *labRun) now() time.Duration { return r.l.Now() }

func (r *labRun) runTo(t time.Duration) {
	for e, ok := r.events.Peek(); ok && e.At <= t; e, ok = r.events.Peek() {
		r.events.Next()
		r.apply(e)
	}
	if t >= r.l.Now() {
		r.l.RunTo(t) // what is due now too: every recorded action before it is made
	}
}

func (r *labRun) next() (time.Duration, bool) {
	at := r.l.Next()
	if e, ok := r.events.Peek(); ok {
		at = min(at, max(e.At, r.l.Now()))
	}
	return at, true
}

func (r *labRun) panes(dst []Pane) []Pane {
	ps := r.l.Players()
	return simPanes(dst, []*sim.Client{ps[0].Client, ps[1].Client})
}

func (r *labRun) server() (client.WorldView, bool) { return r.l.Overview(), true }
func (r *labRun) timeline() *scenario.Timeline     { return r.tl }
func (r *labRun) clients() []*sim.Client {
	ps := r.l.Players()
	return []*sim.Client{ps[0].Client, ps[1].Client}
}

// apply makes a recorded action of the lab again, unless the what-if
// sets what it changes.
func (r *labRun) apply(e record.Event) {
	c := r.change
	switch e.Kind {
	case record.Sync:
		r.l.RunTo(e.At)
		return
	case record.Step:
		r.l.Step()
		return
	case record.Rate:
		if c.Rate == nil {
			r.model.SetRate(int(e.Arg))
		}
		return
	case record.LagComp:
		if c.LagComp == nil {
			r.model.SetLagComp(e.Arg == 1)
		}
		return
	}
	if e.Who > 1 {
		return // the lab's clock: pause, resume, speed
	}
	p := r.model.Player(int(e.Who))
	p1 := e.Who == record.Player1
	switching := c.Predict != nil || c.Reconcile != nil
	switch e.Kind {
	case record.Press:
		p.Press(dirOf(e))
	case record.Zap:
		p.Zap()
	case record.Predict:
		if !switching {
			p.SetPredict(e.Arg == 1)
		}
	case record.Reconcile:
		if !switching {
			p.SetReconcile(e.Arg == 1)
		}
	case record.Interpolate:
		if c.Interpolate == nil {
			p.SetInterpolate(e.Arg == 1)
		}
	case record.Latency:
		if !p1 || c.Latency == nil {
			p.SetLatency(time.Duration(e.Arg))
		}
	case record.Jitter:
		if !p1 || c.Jitter == nil {
			p.SetJitter(time.Duration(e.Arg))
		}
	case record.Preset:
		if !p1 || !c.link() {
			p.NextPreset()
		}
	case record.Spike:
		p.Spike()
	}
}
