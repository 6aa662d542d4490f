package replay

import (
	"slices"
	"strings"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/lab/scenario"
	"gridlag/server/world"
)

// partFour is Part IV's case (issue 32): the rival steps down at once on
// a 150 ms round trip; you, on 200 ms, zap at 150 ms where you still see
// it; lag compensation as lagcomp says. The rival then presses LEFT at
// 500 ms, when the hit has it frozen.
func partFour(lagcomp bool) scenario.Config {
	cfg := scenario.Default()
	cfg.Player.Latency = 200 * time.Millisecond
	cfg.Player.Presses = []scenario.Press{{At: 150 * time.Millisecond, Zap: true}}
	cfg.Second = &scenario.Player{Start: grid.Pos{X: 12, Y: 10}, Latency: 150 * time.Millisecond,
		Presses: []scenario.Press{{At: 0, Dir: grid.Down}, {At: 500 * time.Millisecond, Dir: grid.Left}}}
	cfg.LagComp, cfg.Unlag = lagcomp, world.DefaultUnlag
	return cfg
}

// zapOf returns the judgement of the first zap in r's lines, and when.
func zapOf(t *testing.T, r *Result) (*scenario.ZapLine, time.Duration) {
	t.Helper()
	for _, l := range r.Lines {
		if l.Zap != nil {
			return l.Zap, time.Duration(l.T)
		}
	}
	t.Fatalf("no zap judged:\n%v", r.Lines)
	return nil, 0
}

// kinds lists the kinds of diffs, in order.
func kinds(diffs []Difference) []DiffKind {
	var out []DiffKind
	for _, d := range diffs {
		out = append(out, d.Kind)
	}
	return out
}

// TestWhatIfChangesTheVerdict: a what-if that changes how the server
// judged a zap says so, with the numbers of the two runs, and counts the
// tag (the freeze) and the point that went with it: hit -> miss (the
// recording with lag compensation, replayed without), miss -> hit (the
// other way), a freeze that changes what the rival's later press does,
// and the score.
func TestWhatIfChangesTheVerdict(t *testing.T) {
	on, off := true, false
	for _, c := range []struct {
		name     string
		recorded bool
		change   Changes
		want     []string
		kinds    []DiffKind
	}{
		{"hit->miss", true, Changes{LagComp: &off}, []string{
			"t=250 ms: the zap at 250 ms misses (was: hit, rewound 317 ms): rival had left the line; lag compensation off",
			"t=250 ms: your score ends at 0 points (was: 1); lag compensation off",
			"t=325 ms: rival is not tagged nor frozen (was: tagged by you at 325 ms, frozen); lag compensation off",
		}, []DiffKind{DiffZap, DiffScore, DiffTag, DiffPosition, DiffPosition, DiffPosition}},
		{"miss->hit", false, Changes{LagComp: &on}, []string{
			"t=250 ms: the zap at 250 ms hits rival, rewound 317 ms (was: miss, rival had left the line); lag compensation on",
			"t=250 ms: your score ends at 1 point (was: 0); lag compensation on",
			"t=325 ms: rival is tagged by you at 325 ms, frozen (was: not tagged); lag compensation on",
		}, []DiffKind{DiffZap, DiffScore, DiffTag, DiffPosition, DiffPosition, DiffPosition}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec := recordScenario(t, partFour(c.recorded))
			orig, err := Play(rec, Changes{})
			if err != nil {
				t.Fatal(err)
			}
			changed, err := Play(rec, c.change)
			if err != nil {
				t.Fatal(err)
			}
			diffs := Compare(&orig.Result, &changed.Result, c.change.String())
			var got []string
			for _, d := range diffs {
				got = append(got, d.String())
			}
			if !slices.Equal(kinds(diffs), c.kinds) || !slices.Equal(got[:3], c.want) {
				t.Fatalf("differences:\n%s\nwant first\n%s\nof kinds %v", strings.Join(got, "\n"), strings.Join(c.want, "\n"), c.kinds)
			}
			// The numbers are the runs': the verdicts' times and rewinds,
			// the points the server counted.
			oz, oat := zapOf(t, orig)
			nz, nat := zapOf(t, changed)
			hit, miss := oz, nz
			if !c.recorded {
				hit, miss = nz, oz
			}
			if !hit.Hit || miss.Hit || oat != nat || !strings.Contains(got[0], "at "+msText(nat)) ||
				!strings.Contains(got[0], "rewound "+msText(time.Duration(hit.RewindMS)*time.Millisecond)) || !strings.Contains(got[0], miss.Why) {
				t.Errorf("%q does not say the runs' verdicts: %+v at %v, %+v at %v", got[0], oz, oat, nz, nat)
			}
			if orig.Points["you"]+changed.Points["you"] != 1 || orig.Points["rival"] != 0 || changed.Points["rival"] != 0 {
				t.Errorf("points: recorded %v, changed %v", orig.Points, changed.Points)
			}
			// The freeze: the rival's LEFT at 500 ms moves it in the run
			// where it is free, and not where it is frozen (each of its
			// moments after says so).
			pos := diffs[3]
			if pos.Player != "rival" || pos.At != 500*time.Millisecond || pos.Original == pos.Now {
				t.Errorf("the freeze's consequence: %v", pos)
			}
			// The JSON marks the zap's line: differs, and the recording's
			// verdict beside it.
			for _, l := range changed.Lines {
				if l.Zap != nil && (!l.Differs || l.OriginalZap == nil || l.OriginalZap.Hit == l.Zap.Hit) {
					t.Errorf("the zap's line is not marked: %+v", l)
				}
			}
			if s := Count(diffs); s != "6 differences: 1 zap verdict, 1 score, 1 tag and freeze, 3 positions" {
				t.Errorf("counted %q", s)
			}
		})
	}
}

// TestWhatIfVerdictOnScreen: the replay's screen shows the changed
// verdict at its moment, ahead of the other differences of that moment
// (the screen shows the last).
func TestWhatIfVerdictOnScreen(t *testing.T) {
	off := false
	m, err := NewModel(recordScenario(t, partFour(true)), "p4", Changes{LagComp: &off}, (&wall{}).now, 0)
	if err != nil {
		t.Fatal(err)
	}
	m.Seek(300 * time.Millisecond)
	d := m.Differences()
	if len(d) != 2 || !strings.HasPrefix(d[1], "t=250 ms: the zap at 250 ms misses (was: hit, rewound 317 ms)") {
		t.Fatalf("the screen's differences at 300 ms: %q", d)
	}
	m.Seek(0)
	if !m.SeekNext("zap") || m.Now() != 150*time.Millisecond {
		t.Fatalf("the next zap: at %v", m.Now())
	}
}

// TestNoDifferenceIsNoDifference: a what-if that changes nothing the
// server decides nor anything a player sees has no difference: the
// recording replayed with lag compensation on, as it was.
func TestNoDifferenceIsNoDifference(t *testing.T) {
	on := true
	rec := recordScenario(t, partFour(true))
	orig, _ := Play(rec, Changes{})
	same, err := Play(rec, Changes{LagComp: &on})
	if err != nil {
		t.Fatal(err)
	}
	if d := Compare(&orig.Result, &same.Result, "lag compensation on"); len(d) != 0 {
		t.Fatalf("differences: %v", d)
	}
}
