package perception

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// Answer is a student's answer to a round.
type Answer uint8

// The answers.
const (
	NoAnswer Answer = 0 // the round ended before the student answered
	Fine     Answer = 1
	Laggy    Answer = 2
)

// String is the answer as the CSV writes it: "fine", "laggy", "none".
func (a Answer) String() string {
	switch a {
	case Fine:
		return "fine"
	case Laggy:
		return "laggy"
	}
	return "none"
}

// Trial is one round of one student: what was injected and what the
// student answered.
type Trial struct {
	Run, Round int    // the run in the room (from 1) and its round (from 1)
	Player     int    // the student's player ID
	Name       string // the student's name, as the server sanitised it
	Predict    bool   // prediction was on
	RTTMS      int    // the round trip injected, ms
	Answer     Answer
	// MeasuredMS is the round trip the student's own client last
	// reported in the round (its pings), ms; -1 if none came.
	MeasuredMS int
}

// Point is one tested round trip of a curve: how many trials were
// answered there, and how many of them "laggy".
type Point struct {
	RTTMS        int
	Trials       int
	LaggyAnswers int
}

// Share is the share of "laggy" answers at the point, 0 to 1 (0 with no
// trials).
func (p Point) Share() float64 {
	if p.Trials == 0 {
		return 0
	}
	return float64(p.LaggyAnswers) / float64(p.Trials)
}

// Curve is the share of "laggy" answers against the injected round trip,
// for one prediction: a Point for each round trip tested, rising.
type Curve struct {
	Predict bool
	Points  []Point
}

// Zero returns the curve's point at 0 ms, the zero-lag controls; ok is
// false if none was answered.
func (c Curve) Zero() (p Point, ok bool) {
	if len(c.Points) > 0 && c.Points[0].RTTMS == 0 && c.Points[0].Trials > 0 {
		return c.Points[0], true
	}
	return Point{}, false
}

// Kind says what a threshold is.
type Kind uint8

// The kinds of threshold.
const (
	// Found: the 50 % point lies within the tested round trips.
	Found Kind = iota + 1
	// Above: never "laggy" half the time: the threshold is above the
	// highest round trip tested.
	Above
	// Guessing: "laggy" at least half the time with no lag added: no
	// threshold.
	Guessing
	// Unknown: no trial answered.
	Unknown
)

// Fifty returns the 50 % point of the points of a curve, rising (see the
// package doc): the threshold in ms and its kind (for Above, ms is the
// highest round trip tested).
func Fifty(points []Point) (ms float64, kind Kind) {
	var below *Point
	for i := range points {
		p := &points[i]
		if p.Trials == 0 {
			continue
		}
		if p.Share() >= 0.5 {
			if below == nil {
				if p.RTTMS == 0 {
					return 0, Guessing
				}
				return float64(p.RTTMS), Found // the lowest answered level: felt from there on
			}
			f := (0.5 - below.Share()) / (p.Share() - below.Share())
			return float64(below.RTTMS) + f*float64(p.RTTMS-below.RTTMS), Found
		}
		below = p
	}
	if below == nil {
		return 0, Unknown
	}
	return float64(below.RTTMS), Above
}

// Threshold is one student's threshold for one prediction.
type Threshold struct {
	Player  int
	Name    string
	Predict bool
	MS      float64 // the 50 % point, ms (see Kind)
	Kind    Kind
	// Controls is how many zero-lag trials the student answered, and
	// FalseAlarms how many of them "laggy".
	Controls, FalseAlarms int
	Answered              int // trials answered in all
}

// Text writes the threshold for a screen: "125ms", ">400ms",
// "guessing", "-".
func (t Threshold) Text() string { return ThresholdText(t.MS, t.Kind) }

// ThresholdText writes a threshold of kind k at ms: "125ms", ">400ms",
// "guessing", "-".
func ThresholdText(ms float64, k Kind) string {
	switch k {
	case Found:
		return fmt.Sprintf("%dms", int(math.Round(ms)))
	case Above:
		return fmt.Sprintf(">%dms", int(math.Round(ms)))
	case Guessing:
		return "guessing"
	}
	return "-"
}

// Analysis is what a set of trials says: the class's curve for each
// prediction tested (on first), and each student's thresholds (by name,
// then ID, on first).
type Analysis struct {
	Curves     []Curve
	Thresholds []Threshold
	Runs       int // the highest run among the trials
}

// Curve returns the class's curve of prediction predict; ok is false if
// no trial had it.
func (a *Analysis) Curve(predict bool) (Curve, bool) {
	for _, c := range a.Curves {
		if c.Predict == predict {
			return c, true
		}
	}
	return Curve{}, false
}

// Levels returns the round trips the curves of a tested, rising, each
// once.
func (a *Analysis) Levels() []int {
	var levels []int
	for _, c := range a.Curves {
		for _, p := range c.Points {
			levels = append(levels, p.RTTMS)
		}
	}
	slices.Sort(levels)
	return slices.Compact(levels)
}

// Analyse makes the curves and the thresholds of trials.
func Analyse(trials []Trial) Analysis {
	var a Analysis
	type key struct {
		player  int
		predict bool
	}
	class := map[bool]map[int]*Point{}
	students := map[key]map[int]*Point{}
	names := map[int]string{}
	answered := map[key]int{}
	add := func(m map[int]*Point, t Trial) {
		p := m[t.RTTMS]
		if p == nil {
			p = &Point{RTTMS: t.RTTMS}
			m[t.RTTMS] = p
		}
		if t.Answer == NoAnswer {
			return
		}
		p.Trials++
		if t.Answer == Laggy {
			p.LaggyAnswers++
		}
	}
	for _, t := range trials {
		a.Runs = max(a.Runs, t.Run)
		k := key{t.Player, t.Predict}
		if class[t.Predict] == nil {
			class[t.Predict] = map[int]*Point{}
		}
		if students[k] == nil {
			students[k] = map[int]*Point{}
		}
		add(class[t.Predict], t)
		add(students[k], t)
		names[t.Player] = t.Name
		if t.Answer != NoAnswer {
			answered[k]++
		}
	}
	for _, predict := range []bool{true, false} {
		if m := class[predict]; m != nil {
			a.Curves = append(a.Curves, Curve{Predict: predict, Points: sorted(m)})
		}
	}
	for k, m := range students {
		points := sorted(m)
		th := Threshold{Player: k.player, Name: names[k.player], Predict: k.predict, Answered: answered[k]}
		th.MS, th.Kind = Fifty(points)
		if z := points[0]; z.RTTMS == 0 {
			th.Controls, th.FalseAlarms = z.Trials, z.LaggyAnswers
		}
		a.Thresholds = append(a.Thresholds, th)
	}
	slices.SortFunc(a.Thresholds, func(x, y Threshold) int {
		return cmp.Or(cmp.Compare(x.Name, y.Name), cmp.Compare(x.Player, y.Player), -boolCmp(x.Predict, y.Predict))
	})
	return a
}

// sorted returns the points of m by round trip.
func sorted(m map[int]*Point) []Point {
	points := make([]Point, 0, len(m))
	for _, p := range m {
		points = append(points, *p)
	}
	slices.SortFunc(points, func(a, b Point) int { return cmp.Compare(a.RTTMS, b.RTTMS) })
	return points
}

// boolCmp orders false before true.
func boolCmp(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// StepAround is the resolution of a test of levels at ms: the gap
// between the tested round trips on either side of it (the gap below the
// lowest or above the highest when ms is outside them), so that a
// threshold measured is right within one step.
func StepAround(levels []int, ms float64) int {
	if len(levels) < 2 {
		return 0
	}
	for i := 1; i < len(levels); i++ {
		if ms <= float64(levels[i]) {
			return levels[i] - levels[i-1]
		}
	}
	return levels[len(levels)-1] - levels[len(levels)-2]
}
