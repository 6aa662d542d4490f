package replay

import (
	"fmt"
	"iter"
	"time"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/internal/link"
	"gridlag/lab/record"
	"gridlag/lab/scenario"
	"gridlag/protocol"
)

// gameRun is a game recording played through the player's real client
// core: a new driver of the recorded options (and the what-if's
// switches) takes the recorded calls at their times (the bytes that came
// from the socket when they came, the keys, the steps), so its views are
// the player's, moment for moment. It writes the player's timeline as it
// goes, and its views after each State, to compare with the recording's.
type gameRun struct {
	d      *client.Driver
	name   string
	calls  calls
	t      time.Duration
	change Changes

	lines  []scenario.Line
	last   scenario.Line
	seen   bool
	checks *checker // the views after each State, as replayed, against the recording's
	losses []time.Duration
}

// timedCheck is a view's check with its time.
type timedCheck struct {
	at time.Duration
	record.CheckView
}

// gameOptions are the client options a game recording was played with,
// changed by c's switches.
func gameOptions(h *record.Game, c Changes) client.Options {
	predict, reconcile, interp := c.switches(h.Predict, h.Reconcile, h.Interpolate)
	tr, _ := recordedTrace(h.Trace) // checked as the recording is opened (start)
	return client.Options{Name: h.Name, Room: h.Room, Latency: h.Latency.D(), Jitter: h.Jitter.D(), Loss: h.Loss,
		Seed: h.Seed, PingInterval: h.Ping.D(), NoPredict: !predict, NoReconcile: !reconcile, NoInterpolate: !interp,
		LinkTrace: tr}
}

// calls walks the calls a game recording holds (every event but the
// checks of the player's view), decoding each as it comes: a replay holds
// its place in the recording, not the calls.
type calls struct{ c record.Cursor }

func callsOf(rec *record.Recording) calls { return calls{*rec.Cursor()} }

// peek returns the next call without moving on; ok false after the last.
func (cs *calls) peek() (client.Call, bool) {
	for {
		e, ok := cs.c.Peek()
		if !ok {
			return client.Call{}, false
		}
		if c, ok := e.Call(); ok {
			return c, true
		}
		cs.c.Next() // a check: a game's recording holds nothing else that is not a call
	}
}

// next returns the next call and moves on.
func (cs *calls) next() (client.Call, bool) {
	c, ok := cs.peek()
	if ok {
		cs.c.Next()
	}
	return c, ok
}

// all returns the calls from here on, leaving cs where it is.
func (cs calls) all() iter.Seq[client.Call] {
	return func(yield func(client.Call) bool) {
		for c, ok := cs.next(); ok && yield(c); c, ok = cs.next() {
		}
	}
}

func newGameRun(rec *record.Recording, c Changes) *gameRun {
	h := rec.Header.Game
	r := &gameRun{d: client.NewDriver(0, gameOptions(h, c)), name: h.Name, calls: callsOf(rec), change: c,
		checks: newChecker(rec)}
	if r.name == "" {
		r.name = "you"
	}
	r.d.Observe(r.noted)
	r.d.Journal(func(c client.Call) {
		if c.Kind == client.CallCheck {
			r.checks.replayed(timedCheck{c.At, record.CheckOf(*c.View)})
		}
	})
	return r
}

func (r *gameRun) now() time.Duration { return r.t }

func (r *gameRun) runTo(t time.Duration) {
	for c, ok := r.calls.peek(); ok && c.At <= t; c, ok = r.calls.peek() {
		r.calls.next()
		r.t = max(r.t, c.At)
		r.apply(c)
	}
	r.t = max(r.t, t)
}

func (r *gameRun) next() (time.Duration, bool) {
	for c := range r.calls.all() {
		if c.At > r.t {
			return c.At, true
		}
	}
	return 0, false
}

func (r *gameRun) panes(dst []Pane) []Pane {
	return append(dst, Pane{Name: r.name, View: r.d.View(r.t)})
}

func (r *gameRun) server() (client.WorldView, bool) { return client.WorldView{}, false }

// apply makes a recorded call on the driver, unless the what-if sets the
// switch it flips; a press and a zap are written down.
func (r *gameRun) apply(c client.Call) {
	switching := r.change.Predict != nil || r.change.Reconcile != nil
	switch c.Kind {
	case client.CallPredict, client.CallReconcile:
		if switching {
			return
		}
	case client.CallInterpolate:
		if r.change.Interpolate != nil {
			return
		}
	case client.CallPress:
		res := r.d.Press(c.At, c.Dir)
		r.pressed(c.At, fmt.Sprintf("press %v", c.Dir), res)
		r.lost(c.At)
		return
	case client.CallZap:
		res := r.d.Zap(c.At)
		r.pressed(c.At, "zap", res)
		r.lost(c.At)
		return
	}
	r.d.Apply(c)
	if c.Kind == client.CallDeliver || c.Kind == client.CallStep {
		r.lost(c.At)
	}
}

// lost notes a message the driver's injected link lost at t (sent then,
// to be retransmitted): a moment to seek to.
func (r *gameRun) lost(t time.Duration) {
	l := r.d.Link()
	for _, line := range []*link.Line[[]byte]{l.Up, l.Down} {
		for f := range line.InFlight {
			if f.Lost > 0 && f.Sent == t && (len(r.losses) == 0 || r.losses[len(r.losses)-1] != t) {
				r.losses = append(r.losses, t)
			}
		}
	}
}

// pressed writes down a press or a zap and what the client did with it.
func (r *gameRun) pressed(t time.Duration, what string, res client.PressResult) {
	v := r.d.View(t)
	s := r.name + ": " + what
	switch res {
	case client.Sent:
		s += fmt.Sprintf(", sends #%d", v.Pending[len(v.Pending)-1].Seq)
		if v.Predict && what != "zap" {
			s += fmt.Sprintf(", predicts %v", v.Predicted)
		}
	case client.Deferred:
		s += ", held by the speed limit"
	default:
		s += ", ignored"
	}
	r.line(t, s, true)
}

// noted writes down what a note of the driver tells.
func (r *gameRun) noted(n client.Note) {
	t := r.t
	v := r.d.View(t)
	switch n.Kind {
	case client.Arrived:
		switch m := n.Msg.(type) {
		case *protocol.State:
			s := fmt.Sprintf("%s: state arrives, ack #%d, server says %v", r.name, m.Ack, v.Server)
			if v.Reconcile && len(v.Pending) > 0 {
				s += fmt.Sprintf(", replays %d pending", len(v.Pending))
			}
			if c := n.Correction; c != nil {
				s += fmt.Sprintf("; CORRECTION %v -> %v (%s)", c.From, c.To, c.Reason)
			}
			r.line(t, s, n.Correction != nil)
		case *protocol.ZapResult:
			if v.LastZap != nil {
				r.line(t, r.name+": zap result arrives: "+v.LastZap.Line(), true)
			}
		case *protocol.Tagged:
			if v.LastTagged != nil {
				r.line(t, r.name+": "+v.LastTagged.Line()+"; frozen", true)
			}
		}
	case client.HeldSent:
		last := v.Pending[len(v.Pending)-1]
		r.line(t, fmt.Sprintf("%s: speed limit allows the held press: sends #%d %v", r.name, last.Seq, last.Dir), true)
	case client.Entered:
		if n.Phase == client.Closed {
			r.line(t, fmt.Sprintf("%s: connection closed: %v", r.name, n.Err), true)
		}
	}
}

// line writes down the player's moment at t, unless nothing it shows
// changed and always is false.
func (r *gameRun) line(t time.Duration, event string, always bool) {
	v := r.d.View(t)
	l := scenario.Line{TMS: int64(t / time.Millisecond), T: int64(t), Player: r.name, Event: event,
		Client: posPair(v.Predicted), Server: posPair(v.Server), Pending: []uint32{}, Ack: v.LastAck, Corr: v.Corrections}
	for _, p := range v.Pending {
		l.Pending = append(l.Pending, p.Seq)
	}
	if !always && r.seen && sameMoment(r.last, l) {
		return
	}
	r.last, r.seen = l, true
	r.lines = append(r.lines, l)
}

func posPair(p grid.Pos) [2]int { return [2]int{p.X, p.Y} }

// sameMoment reports whether two lines show the same: where the player
// sees itself and the server has it, what is pending, the last ack.
func sameMoment(a, b scenario.Line) bool {
	if a.Client != b.Client || a.Server != b.Server || a.Ack != b.Ack || len(a.Pending) != len(b.Pending) {
		return false
	}
	for i := range a.Pending {
		if a.Pending[i] != b.Pending[i] {
			return false
		}
	}
	return true
}

// checker compares the views replayed after each State with those the
// recording checked, one at a time as the replay makes them: it holds
// its place among the recording's checks, and the first difference.
type checker struct {
	want     record.Cursor // the recording's events, after the last check compared
	n        int           // the replayed checks
	matched  int           // the checks that matched, up to the first that did not
	first    time.Duration // the first replayed check's time
	mismatch string
}

func newChecker(rec *record.Recording) *checker { return &checker{want: *rec.Cursor()} }

// nextWanted returns the recording's next check.
func (c *checker) nextWanted() (timedCheck, bool) {
	for e, ok := c.want.Next(); ok; e, ok = c.want.Next() {
		if e.Kind == record.Check {
			v, err := record.ParseCheck(e)
			if err != nil {
				continue // none: the recording's reader checked every one
			}
			return timedCheck{e.At, v}, true
		}
	}
	return timedCheck{}, false
}

// replayed compares the replay's next check with the recording's.
func (c *checker) replayed(got timedCheck) {
	if c.n == 0 {
		c.first = got.at
	}
	c.n++
	if c.mismatch != "" || c.n > c.matched+1 {
		return // a difference is found, or the recording's checks ran out
	}
	want, ok := c.nextWanted()
	switch {
	case !ok:
	case got.at != want.at || got.CheckView != want.CheckView:
		c.mismatch = fmt.Sprintf("t=%v: recorded %v; replayed at t=%v %v", want.at, want.CheckView, got.at, got.CheckView)
	default:
		c.matched++
	}
}

// result says how many of the recording's checks matched the replay, and
// the first that did not, in words ("" if every one did). A recording cut
// by its size limit (cut) may end after the bytes of a State and before
// its check: States replayed past its last check are not held against
// it.
func (c *checker) result(cut bool) (n int, mismatch string) {
	if c.mismatch != "" {
		return c.matched, c.mismatch
	}
	rest := c.want // the recording's checks not compared yet
	missing, at := 0, time.Duration(0)
	for e := range rest.Rest() {
		if e.Kind == record.Check {
			if missing == 0 {
				at = e.At
			}
			missing++
		}
	}
	if missing > 0 {
		return c.matched, fmt.Sprintf("t=%v: the recording has a State the replay never got (%d recorded, %d replayed)", at, c.matched+missing, c.n)
	}
	if c.n > c.matched && !cut {
		return c.matched, fmt.Sprintf("the replay got %d States more than the recording", c.n-c.matched)
	}
	return c.matched, ""
}
