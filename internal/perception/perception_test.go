package perception

import (
	"bytes"
	"encoding/csv"
	"math"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestScheduleHasEveryTrialOnce: a student's run has each level Repeats
// times and the controls at 0 ms, for each prediction tested, in an order
// of its own: another seed, another order, the same trials.
func TestScheduleHasEveryTrialOnce(t *testing.T) {
	s := DefaultSettings()
	s.Mode = PredictBoth
	a, b := Schedule(s, 1), Schedule(s, 2)
	if len(a) != s.Rounds() || s.Rounds() != 36 {
		t.Fatalf("%d rounds, settings say %d, want 36 ((8 levels x 2 + 2 controls) x 2 predictions)", len(a), s.Rounds())
	}
	count := func(steps []Step) map[Step]int {
		m := map[Step]int{}
		for _, st := range steps {
			m[st]++
		}
		return m
	}
	ca, cb := count(a), count(b)
	for _, p := range []bool{true, false} {
		for _, l := range s.Levels {
			want := s.Repeats
			if l == 0 {
				want += s.Controls
			}
			if got := ca[Step{l, p}]; got != want {
				t.Errorf("%d ms, prediction %v: %d trials, want %d", l, p, got, want)
			}
		}
	}
	if len(ca) != len(cb) || slices.Equal(a, b) {
		t.Errorf("two students' schedules: %v and %v; want the same trials in other orders", a, b)
	}
	if !slices.Equal(a, Schedule(s, 1)) {
		t.Error("the same seed gave another order")
	}
}

// TestFiftyInterpolates is the threshold method on hand-made curves.
func TestFiftyInterpolates(t *testing.T) {
	pts := func(shares ...[2]int) []Point {
		var p []Point
		for i, s := range shares {
			p = append(p, Point{RTTMS: i * 100, Trials: s[0], LaggyAnswers: s[1]})
		}
		return p
	}
	for _, c := range []struct {
		name   string
		points []Point
		ms     float64
		kind   Kind
	}{
		{"a step between 100 and 200", pts([2]int{4, 0}, [2]int{2, 0}, [2]int{2, 2}), 150, Found},
		{"a quarter then three quarters", pts([2]int{4, 0}, [2]int{4, 1}, [2]int{4, 3}), 150, Found},
		{"half at 100", pts([2]int{4, 0}, [2]int{2, 1}, [2]int{2, 2}), 100, Found},
		{"never", pts([2]int{4, 0}, [2]int{2, 0}, [2]int{2, 0}), 200, Above},
		{"false alarms", pts([2]int{4, 2}, [2]int{2, 2}), 0, Guessing},
		{"unanswered level skipped", pts([2]int{4, 0}, [2]int{0, 0}, [2]int{2, 2}), 100, Found},
		{"nothing answered", pts([2]int{0, 0}), 0, Unknown},
	} {
		ms, kind := Fifty(c.points)
		if math.Abs(ms-c.ms) > 1e-9 || kind != c.kind {
			t.Errorf("%s: %v %v, want %v %v", c.name, ms, kind, c.ms, c.kind)
		}
	}
}

// TestObserversThresholdsAreRecovered: observers of known thresholds,
// with a little noise, take the default run; each threshold measured is
// within one step of the levels of the observer's own.
func TestObserversThresholdsAreRecovered(t *testing.T) {
	s := DefaultSettings()
	var trials []Trial
	for i, th := range []int{60, 100, 150, 200, 250, 300} {
		o := NewObserver(time.Duration(th)*time.Millisecond, 10*time.Millisecond, uint64(i+1))
		for r, st := range Schedule(s, uint64(i+1)) {
			trials = append(trials, Trial{Run: 1, Round: r + 1, Player: i + 1, Name: string(rune('a' + i)), Predict: st.Predict, RTTMS: st.RTTMS,
				Answer: o.Judge(time.Duration(st.RTTMS) * time.Millisecond), MeasuredMS: st.RTTMS})
		}
	}
	a := Analyse(trials)
	if len(a.Thresholds) != 6 || len(a.Curves) != 1 || !a.Curves[0].Predict {
		t.Fatalf("%d thresholds, %d curves; want 6 and one, prediction on", len(a.Thresholds), len(a.Curves))
	}
	for i, th := range a.Thresholds {
		want := []float64{60, 100, 150, 200, 250, 300}[i]
		step := StepAround(s.Levels, want)
		if th.Kind != Found || math.Abs(th.MS-want) > float64(step) || th.Controls != 4 || th.FalseAlarms != 0 {
			t.Errorf("%s: %s (%v), %d false alarms of %d controls; want %vms within %dms, none of 4", th.Name, th.Text(), th.Kind, th.FalseAlarms, th.Controls, want, step)
		}
	}
	c := a.Curves[0]
	if z, ok := c.Zero(); !ok || z.Trials != 24 || z.LaggyAnswers != 0 {
		t.Errorf("zero-lag point %+v %v, want 24 trials, no laggy", z, ok)
	}
	if last := c.Points[len(c.Points)-1]; last.RTTMS != 400 || last.Share() != 1 {
		t.Errorf("at 400 ms %+v, want every answer laggy", last)
	}
}

// TestCSVHasARowPerTrial: the CSV's header, a row per trial, an empty
// measured round trip when none came, and a name a spreadsheet would run
// kept as text.
func TestCSVHasARowPerTrial(t *testing.T) {
	trials := []Trial{
		{Run: 1, Round: 1, Player: 3, Name: "ada", Predict: true, RTTMS: 150, Answer: Laggy, MeasuredMS: 152},
		{Run: 1, Round: 2, Player: 4, Name: "=cmd, \"x\"", Predict: false, RTTMS: 0, Answer: NoAnswer, MeasuredMS: -1},
	}
	var b bytes.Buffer
	if err := WriteCSV(&b, trials); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		CSVHeader,
		{"1", "1", "3", "ada", "on", "150", "laggy", "152"},
		{"1", "2", "4", "'=cmd, \"x\"", "off", "0", "none", ""},
	}
	if !slices.EqualFunc(rows, want, slices.Equal) {
		t.Errorf("CSV rows %q, want %q", rows, want)
	}
}

// TestSettingsRoundTripAndRefuse: ParseSettings reads what String writes,
// and says what is wrong with bad settings.
func TestSettingsRoundTripAndRefuse(t *testing.T) {
	s := DefaultSettings()
	s.Levels, s.Mode, s.Play = []int{0, 80, 160}, PredictBoth, 3500*time.Millisecond
	got, err := ParseSettings(s.String())
	if err != nil || got.String() != s.String() {
		t.Fatalf("ParseSettings(%q) = %v, %v", s.String(), got, err)
	}
	for text, want := range map[string]string{
		"levels=0,100,50": "rise",
		"levels=0,2000":   "2000 ms",
		"repeats=0":       "repeats",
		"predict=maybe":   "on, off or both",
		"play=1s":         "play time",
		"answer=2.05s":    "tenths",
		"speed=2":         "unknown setting",
		"levels":          "key=value",
		"repeats=10 levels=0,10,20,30,40,50,60,70,80,90,100,110": "rounds",
	} {
		if _, err := ParseSettings(text); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseSettings(%q) = %v, want an error saying %q", text, err, want)
		}
	}
}

// TestSettingsAreAFlag: -perception's value: Set takes the words on top
// of the defaults, and a bad value leaves the settings as they were.
func TestSettingsAreAFlag(t *testing.T) {
	s := DefaultSettings()
	if err := s.Set("levels=0,200 repeats=1 controls=0 play=3s"); err != nil {
		t.Fatal(err)
	}
	if s.Rounds() != 2 || s.Play != 3*time.Second || s.Answer != defaultAns {
		t.Fatalf("got %v", s)
	}
	if err := s.Set("levels=300,100"); err == nil || s.Rounds() != 2 {
		t.Fatalf("falling levels: err %v, settings now %v", err, s)
	}
}
