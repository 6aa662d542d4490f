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
			lines := r.tl.Close(end)
			res := &Result{Kind: record.KindLab, Result: scenario.Result{Wires: r.tl.Wires, End: end, Lines: lines, Points: r.tl.Points()}}
			for _, cl := range r.clients() {
				res.Players = append(res.Players, cl.Name())
			}
			return withMarks(res)
		}}, nil
	case record.KindGame:
		if _, err := recordedTrace(rec.Header.Game.Trace); err != nil {
			return nil, fmt.Errorf("the player's trace: %w", err)
		}
		if !c.Client() {
			return resimulate(rec, c)
		}
		r := newGameRun(rec, c)
		return &started{run: r, kind: rec.Header.Kind, finish: func(end time.Duration) *Result {
			r.runTo(end)
			res := &Result{Kind: record.KindGame, Result: scenario.Result{Lines: r.lines, End: end, Players: []string{r.name}}}
			res.Checked, res.Mismatch = r.checks.result(rec.Stop != record.StopDone)
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

// lastOf returns the index of the last line of lines[i]'s player at its
// moment (t_ms), from i on; an input's life (Line.Input), said where it
// ends, is not a moment of its own.
func lastOf(lines []scenario.Line, i int) int {
	last := i
	for j := i + 1; j < len(lines) && lines[j].TMS == lines[i].TMS; j++ {
		if lines[j].Player == lines[i].Player && lines[j].Input == nil && lines[j].Loss == nil {
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
		if l.Player == player && l.Link == nil && l.Input == nil && l.Loss == nil {
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
