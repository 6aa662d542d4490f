package replay

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"gridlag/grid"
	"gridlag/internal/link"
	"gridlag/lab/record"
	"gridlag/lab/scenario"
)

// Result is a recording played whole: its timeline (as `gridlag scenario
// -json` prints one), the messages that crossed its links, and the
// moments a screen seeks to.
type Result struct {
	scenario.Result
	// Kind is the recording's kind (record.KindScenario, ...).
	Kind string
	// Marks are the moments of note, in time order: zaps, corrections,
	// losses.
	Marks []Mark
	// Checked is how many of a game's States were checked against the
	// recording's views; Mismatch says the first that differed, "" if
	// none did.
	Checked  int
	Mismatch string
	// Resimulated says a game's run was simulated anew (a what-if of the
	// network or the server), not replayed through its recorded bytes.
	Resimulated bool
}

// Mark is a moment a screen can seek to.
type Mark struct {
	At   time.Duration
	Kind MarkKind
}

// MarkKind is what happened at a mark.
type MarkKind string

// The kinds of marks: a zap fired or judged, a correction of the
// prediction, a message lost.
const (
	MarkZap        MarkKind = "zap"
	MarkCorrection MarkKind = "correction"
	MarkLoss       MarkKind = "loss"
)

// Play plays rec whole, changed by c, and returns the result.
func Play(rec *record.Recording, c Changes) (*Result, error) {
	if err := checkWork(rec, c); err != nil {
		return nil, err
	}
	r, err := start(rec, c)
	if err != nil {
		return nil, err
	}
	return r.finish(rec.End), nil
}

// started is a run of a recording with what it needs to finish whole.
type started struct {
	run
	kind   string
	finish func(end time.Duration) *Result
}

// start builds the run of rec changed by c, at its start.
func start(rec *record.Recording, c Changes) (*started, error) {
	switch rec.Header.Kind {
	case record.KindScenario:
		cfg, err := scenarioConfig(rec)
		if err != nil {
			return nil, err
		}
		r, err := newScenarioRun(c.scenario(cfg))
		if err != nil {
			return nil, err
		}
		return &started{run: r, kind: rec.Header.Kind, finish: func(time.Duration) *Result {
			return withMarks(&Result{Result: *r.st.Finish(), Kind: record.KindScenario})
		}}, nil
	case record.KindLab:
		cfg, err := labConfig(rec)
		if err != nil {
			return nil, err
		}
		r, err := newLabRun(c.lab(cfg), rec, c)
		if err != nil {
			return nil, err
		}
		return &started{run: r, kind: rec.Header.Kind, finish: func(end time.Duration) *Result {
			r.runTo(end)
			r.tl.Stop()
			res := &Result{Kind: record.KindLab, Result: scenario.Result{Wires: r.tl.Wires, End: end,
				Lines: scenario.LinkLines(r.tl.Lines, r.clients(), end)}}
			for _, cl := range r.clients() {
				res.Players = append(res.Players, cl.Name())
			}
			return withMarks(res)
		}}, nil
	case record.KindGame:
		if !c.Client() {
			return resimulate(rec, c)
		}
		r := newGameRun(rec, c)
		return &started{run: r, kind: rec.Header.Kind, finish: func(end time.Duration) *Result {
			r.runTo(end)
			res := &Result{Kind: record.KindGame, Result: scenario.Result{Lines: r.lines, End: end, Players: []string{r.name}}}
			res.Checked, res.Mismatch = r.checks.result(rec.Stop == record.StopFull)
			if c.Any() {
				res.Checked, res.Mismatch = 0, "" // a changed run is not the recording's
			}
			withMarks(res)
			for _, t := range r.losses {
				res.Marks = append(res.Marks, Mark{t, MarkLoss})
			}
			sortMarks(res.Marks)
			return res
		}}, nil
	}
	return nil, fmt.Errorf("a recording of kind %q", rec.Header.Kind)
}

// withMarks finds the moments of note of res: a line of a zap (fired or
// judged) or of a correction, a message lost.
func withMarks(res *Result) *Result {
	for _, l := range res.Lines {
		at := time.Duration(l.T)
		switch {
		case l.Zap != nil || strings.Contains(l.Event, ": zap"):
			res.Marks = append(res.Marks, Mark{at, MarkZap})
		case strings.Contains(l.Event, "CORRECTION"):
			res.Marks = append(res.Marks, Mark{at, MarkCorrection})
		}
	}
	for _, w := range res.Wires {
		if w.Lost > 0 || w.Dropped {
			res.Marks = append(res.Marks, Mark{w.Sent, MarkLoss})
		}
	}
	sortMarks(res.Marks)
	return res
}

func sortMarks(marks []Mark) {
	slices.SortStableFunc(marks, func(a, b Mark) int { return cmp.Compare(a.At, b.At) })
}

// Difference is one moment where a changed run differs from the
// recording: what a player sees in each.
type Difference struct {
	At       time.Duration
	Player   string
	Original [2]int
	Now      [2]int
	Why      string
}

// String is the line a user reads: "t=250 ms: original (12,10), now
// (11,10): reconciliation off".
func (d Difference) String() string {
	s := fmt.Sprintf("t=%d ms: original (%d,%d), now (%d,%d)", d.At.Milliseconds(), d.Original[0], d.Original[1], d.Now[0], d.Now[1])
	if d.Player != "" && d.Player != "you" {
		s = fmt.Sprintf("t=%d ms: %s: original (%d,%d), now (%d,%d)", d.At.Milliseconds(), d.Player, d.Original[0], d.Original[1], d.Now[0], d.Now[1])
	}
	if d.Why != "" {
		s += ": " + d.Why
	}
	return s
}

// Compare marks the lines of changed where a player sees itself elsewhere
// than in orig at the same moment: on the player's last line of each
// moment (t_ms), Original says where orig had it then (its own last line
// at or before that time) and Differs is set. It returns a Difference
// for each, why being what changed.
func Compare(orig, changed []scenario.Line, why string) []Difference {
	var diffs []Difference
	for i := range changed {
		l := &changed[i]
		if l.Link != nil || l.Input != nil || i+1 < len(changed) && lastOf(changed, i) != i {
			continue
		}
		o, ok := at(orig, l.Player, l.TMS)
		if !ok || o.Client == l.Client {
			continue
		}
		l.Original, l.Differs = &scenario.Moment{Client: o.Client, Server: o.Server}, true
		diffs = append(diffs, Difference{At: time.Duration(l.T), Player: l.Player, Original: o.Client, Now: l.Client, Why: why})
	}
	return diffs
}

// lastOf returns the index of the last line of lines[i]'s player at its
// moment (t_ms), from i on; an input's life (Line.Input), said where it
// ends, is not a moment of its own.
func lastOf(lines []scenario.Line, i int) int {
	last := i
	for j := i + 1; j < len(lines) && lines[j].TMS == lines[i].TMS; j++ {
		if lines[j].Player == lines[i].Player && lines[j].Input == nil {
			last = j
		}
	}
	return last
}

// at returns player's last line at or before moment tms (t_ms): the
// state after that moment.
func at(lines []scenario.Line, player string, tms int64) (scenario.Line, bool) {
	var out scenario.Line
	found := false
	for _, l := range lines {
		if l.TMS > tms {
			break
		}
		if l.Player == player && l.Link == nil && l.Input == nil {
			out, found = l, true
		}
	}
	return out, found
}

// sortEvents orders events by time, keeping the order of those at one.
func sortEvents(events []record.Event) {
	slices.SortStableFunc(events, func(a, b record.Event) int { return cmp.Compare(a.At, b.At) })
}

// dirOf is the direction of a Press event.
func dirOf(e record.Event) grid.Dir { return grid.Dir(e.Arg) }

// linkPreset is the link preset called name.
func linkPreset(name string) (link.Preset, error) { return link.PresetNamed(name) }
