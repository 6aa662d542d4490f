package replay

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"gridlag/client"
	"gridlag/lab"
	"gridlag/lab/record"
	"gridlag/lab/sim"
	"gridlag/tui"
)

// Model is a recording on the replay's screen (a tui.ReplayModel): the
// run changed by the what-if, shown, and the recording's own run beside
// it for the ghosts, both brought to the time of a clock that follows
// the wall clock at a speed, pauses, steps and seeks (a seek back plays
// both again from the start, on the virtual clock, at once). It is used
// from the screen's loop only.
type Model struct {
	rec    *record.Recording
	title  string
	change Changes
	clock  *lab.Clock

	orig, cur       *started
	origRes, curRes *Result
	diffs           []Difference
	t               time.Duration
	note            string
}

// NewModel returns the replay of rec changed by c, paused at its start,
// on a clock that follows wall at speed.
func NewModel(rec *record.Recording, title string, c Changes, wall func() time.Time, speed lab.Speed) (*Model, error) {
	m := &Model{rec: rec, title: title, change: c, clock: lab.NewClock(wall, 0, speed)}
	m.clock.Pause()
	res, err := Play(rec, Changes{})
	if err != nil {
		return nil, err
	}
	m.origRes = res
	if err := m.rebuild(); err != nil {
		return nil, err
	}
	return m, nil
}

// rebuild plays the changed run whole (for its differences and marks)
// and starts both runs again, at the start.
func (m *Model) rebuild() error {
	m.curRes = m.origRes
	m.diffs = nil
	if m.change.Any() {
		res, err := Play(m.rec, m.change)
		if err != nil {
			return err
		}
		m.curRes = res
		m.diffs = Compare(&m.origRes.Result, &res.Result, m.change.String())
	}
	return m.restart()
}

// restart starts both runs again at time 0.
func (m *Model) restart() error {
	orig, err := start(m.rec, Changes{})
	if err != nil {
		return err
	}
	m.orig, m.cur = orig, orig
	if m.change.Any() {
		if m.cur, err = start(m.rec, m.change); err != nil {
			return err
		}
	}
	m.t = 0
	m.bring(0)
	return nil
}

// bring brings both runs to time t.
func (m *Model) bring(t time.Duration) {
	m.t = t
	m.cur.runTo(t)
	if m.orig != m.cur {
		m.orig.runTo(t)
	}
}

// End returns the recording's end: its end mark's time, or a scenario's
// end if that is later (a scenario runs on after its last press until
// every answer has come).
func (m *Model) End() time.Duration { return max(m.rec.End, m.origRes.End) }

// Now returns the replay's time.
func (m *Model) Now() time.Duration { return m.t }

// Sync brings the replay to its clock's time; at the end it pauses.
func (m *Model) Sync() {
	if m.clock.Paused() {
		return
	}
	t := m.clock.Now()
	if t >= m.End() {
		t = m.End()
		m.clock.Set(t)
		m.clock.Pause()
	}
	if t > m.t {
		m.bring(t)
	}
}

// Paused reports whether the clock stands still.
func (m *Model) Paused() bool { return m.clock.Paused() }

// Pause stops the clock at the replay's time.
func (m *Model) Pause() {
	m.clock.Pause()
	m.clock.Set(m.t)
}

// Resume lets the clock run; at the end, from the start again.
func (m *Model) Resume() {
	if m.t >= m.End() {
		m.Seek(0)
	}
	m.clock.Set(m.t)
	m.clock.Resume()
}

// Step pauses, then goes to the next moment something happens.
func (m *Model) Step() {
	m.Pause()
	next, ok := m.cur.next()
	if !ok || next > m.End() {
		next = m.End()
	}
	m.bring(max(next, m.t))
	m.clock.Set(m.t)
}

// Speed names the clock's speed.
func (m *Model) Speed() string { return m.clock.Speed().String() }

// SlowDown goes to the next slower speed, and to 1x after the slowest.
func (m *Model) SlowDown() { m.clock.SetSpeed(m.clock.Speed().Next()) }

// Seek goes to time t (within the recording): on, or back by playing
// again from the start.
func (m *Model) Seek(t time.Duration) {
	t = min(max(t, 0), m.End())
	if t < m.cur.now() || t < m.orig.now() {
		if err := m.restart(); err != nil {
			m.note = err.Error()
			return
		}
	}
	m.bring(t)
	m.clock.Set(t)
}

// SeekNext pauses at the next moment after now of kind ("zap",
// "correction", "loss") in the run shown, if there is one.
func (m *Model) SeekNext(kind string) bool {
	for _, mk := range m.curRes.Marks {
		if string(mk.Kind) == kind && mk.At > m.t {
			m.Pause()
			m.Seek(mk.At)
			return true
		}
	}
	return false
}

// Title names the recording.
func (m *Model) Title() string { return m.title }

// WhatIf says what the replay changes.
func (m *Model) WhatIf() string { return m.change.String() }

// Note is a line about the replay: how a game's views compared with the
// recording's, or that it was simulated anew.
func (m *Model) Note() string {
	note := m.note1()
	if m.rec.Stop == record.StopCut && m.note == "" {
		return strings.TrimSuffix(m.rec.Cut()+"; "+note, "; ")
	}
	return note
}

// note1 is Note but for a recording cut short.
func (m *Model) note1() string {
	res := m.curRes
	switch {
	case m.note != "":
		return m.note
	case res.Resimulated:
		return "simulated anew: the others walk where the recording saw them"
	case res.Kind == record.KindGame && !m.change.Any() && res.Mismatch == "":
		return fmt.Sprintf("replayed through the client core: %d States, every view as recorded", res.Checked)
	case res.Kind == record.KindGame && !m.change.Any():
		return "a view differs from the recording: " + res.Mismatch
	}
	if m.rec.Stop == record.StopFull {
		return "the recording stopped at its size limit here"
	}
	return ""
}

// recorded returns the switches as the recording has them: the client's
// (Player 1's in a lab), the server's lag compensation, the transport.
func (m *Model) recorded() (predict, reconcile, interp, lagcomp, datagram bool) {
	h := m.rec.Header
	switch {
	case h.Scenario != nil:
		s := h.Scenario
		return s.Predict, s.Reconcile, s.Interpolate, s.LagComp, s.Link == "datagram"
	case h.Lab != nil:
		p := h.Lab.Players[0]
		return p.Predict, p.Reconcile && p.Predict, p.Interpolate, h.Lab.LagComp, false
	}
	g := h.Game
	return g.Predict, g.Reconcile && g.Predict, g.Interpolate, true, false
}

// Switches are the what-if's switches as the run shown has them.
func (m *Model) Switches() []tui.ReplaySwitch {
	p0, r0, i0, l0, d0 := m.recorded()
	p, r, i := m.change.switches(p0, r0, i0)
	l, d := l0, d0
	if m.change.LagComp != nil {
		l = *m.change.LagComp
	}
	if m.change.Link != nil {
		d = *m.change.Link == sim.Datagram
	}
	return []tui.ReplaySwitch{
		{Name: "predict", On: p, Changed: p != p0}, {Name: "reconcile", On: r, Changed: r != r0},
		{Name: "interpolate", On: i, Changed: i != i0}, {Name: "lagcomp", On: l, Changed: l != l0},
		{Name: "datagram", On: d, Changed: d != d0},
	}
}

// Toggle flips the what-if's switch called name, plays the changed run
// again and brings it to the replay's time. A switch back to the
// recording's setting is no change.
func (m *Model) Toggle(name string) {
	p0, r0, i0, l0, d0 := m.recorded()
	var cur tui.ReplaySwitch
	for _, sw := range m.Switches() {
		if sw.Name == name {
			cur = sw
		}
	}
	on := !cur.On
	set := func(p **bool, recorded bool) {
		*p = &on
		if on == recorded {
			*p = nil
		}
	}
	switch name {
	case "predict":
		set(&m.change.Predict, p0)
		if !on && m.change.Reconcile != nil && *m.change.Reconcile {
			m.change.Reconcile = nil
		}
	case "reconcile":
		set(&m.change.Reconcile, r0)
		if on && m.change.Predict != nil && !*m.change.Predict {
			m.change.Predict = nil
		}
	case "interpolate":
		set(&m.change.Interpolate, i0)
	case "lagcomp":
		set(&m.change.LagComp, l0)
	case "datagram":
		m.change.Link = nil
		if on != d0 {
			t := sim.TCP
			if on {
				t = sim.Datagram
			}
			m.change.Link = &t
		}
	default:
		return
	}
	t := m.t
	if err := m.rebuild(); err != nil {
		m.note = "what-if refused: " + err.Error()
		return
	}
	m.note = ""
	m.bring(t)
	m.clock.Set(t)
}

// Panes returns the players at the replay's time, each with the
// recording's avatar as its ghost where the changed run has it
// elsewhere.
func (m *Model) Panes() []tui.ReplayPane {
	cur := m.cur.panes(nil)
	var orig []Pane
	if m.orig != m.cur {
		orig = m.orig.panes(nil)
	}
	out := make([]tui.ReplayPane, len(cur))
	for i, p := range cur {
		out[i] = tui.ReplayPane{Name: p.Name, View: p.View, Flights: p.Flights, Link: p.Link}
		if i < len(orig) && orig[i].View.HasState && orig[i].View.Predicted != p.View.Predicted {
			g := orig[i].View.Predicted
			out[i].Ghost = &g
		}
	}
	return out
}

// Server returns the server's world, when the run has one.
func (m *Model) Server() (client.WorldView, bool) { return m.cur.server() }

// Differences returns the lines of the differences up to now, a zap's
// verdict last among those of one moment: the screen shows the last,
// and a zap that hit or missed is what the moment is about.
func (m *Model) Differences() []string {
	n := 0
	for n < len(m.diffs) && m.diffs[n].At <= m.t {
		n++
	}
	diffs := slices.Clone(m.diffs[:n])
	slices.SortStableFunc(diffs, func(a, b Difference) int {
		return cmp.Or(cmp.Compare(a.At, b.At), cmp.Compare(boolRank(a.Kind == DiffZap), boolRank(b.Kind == DiffZap)))
	})
	out := make([]string, len(diffs))
	for i, d := range diffs {
		out[i] = d.String()
	}
	return out
}

// boolRank orders false before true.
func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

var _ tui.ReplayModel = (*Model)(nil)
