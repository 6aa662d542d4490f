package lab

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gridlag/internal/perception"
	"gridlag/protocol"
)

// student answers the lab's test as a model of a human: an observer of
// one threshold with prediction on and another with it off, judging the
// round trip of the round (read from the lab's schedule: the model feels
// exactly what the link has), played out on the virtual clock.
type student struct {
	on, off *perception.Observer
}

// take plays the run in progress to its end: each round, the play time
// on the clock, then the answer. It returns the round trips the link had
// during each round, as Player 1's client saw them.
func (s student) take(t *testing.T, l *Lab, w *wall) []time.Duration {
	t.Helper()
	var seen []time.Duration
	for guard := 0; l.test.active; guard++ {
		if guard > protocol.MaxPerceivedTrials {
			t.Fatal("the run does not end")
		}
		p := l.Perception()
		if p.Phase != protocol.TrialPlay {
			t.Fatalf("round %d starts in phase %v", p.Round, p.Phase)
		}
		w.pass(p.Left)
		l.Sync()
		p = l.Perception()
		if p.Phase != protocol.TrialAnswer {
			t.Fatalf("round %d: after the play time, phase %v", p.Round, p.Phase)
		}
		st := l.test.steps[p.Round-1]
		v := l.players[0].View()
		seen = append(seen, v.Latency)
		if v.Predict != st.Predict || v.Jitter != 0 || l.players[0].Loss() != 0 {
			t.Fatalf("round %d: prediction %v jitter %v loss %v; want %v, none, none", p.Round, v.Predict, v.Jitter, l.players[0].Loss(), st.Predict)
		}
		o := s.on
		if !st.Predict {
			o = s.off
		}
		l.AnswerPerception(o.Judge(time.Duration(st.RTTMS)*time.Millisecond) == perception.Laggy)
	}
	return seen
}

// TestLabPerceptionRecoversTheStudent: a scripted student of known
// thresholds, 120 ms with prediction on and 60 ms with it off, takes the
// lab's test (both predictions interleaved): each round's link has the
// round's round trip and prediction and nothing else; the thresholds
// measured are the student's within one step; the CSV has every answer;
// Player 1's link, toggles and the lab's speed come back.
func TestLabPerceptionRecoversTheStudent(t *testing.T) {
	cfg := Default()
	cfg.Speed = Tenth
	cfg.Perception = DefaultPerception()
	cfg.Perception.Repeats = 3
	cfg.PerceptionDir = t.TempDir()
	l, w := newLab(t, cfg)
	l.StartPerception()
	if l.Speed() != Full {
		t.Errorf("speed %v during the test, want 1x", l.Speed())
	}
	s := student{perception.NewObserver(120*ms, 0, 1), perception.NewObserver(60*ms, 0, 2)}
	seen := s.take(t, l, w)
	trials := l.PerceptionTrials()
	if len(trials) != cfg.Perception.Rounds() || len(seen) != len(trials) {
		t.Fatalf("%d trials, %d rounds seen; want %d", len(trials), len(seen), cfg.Perception.Rounds())
	}
	for i, tr := range trials {
		if seen[i] != time.Duration(tr.RTTMS)*ms || tr.Round != i+1 || tr.Answer == perception.NoAnswer {
			t.Fatalf("round %d: the link had %v, the trial says %d ms, answer %v", i+1, seen[i], tr.RTTMS, tr.Answer)
		}
	}
	a := perception.Analyse(trials)
	for _, th := range a.Thresholds {
		want := map[bool]float64{true: 120, false: 60}[th.Predict]
		if step := perception.StepAround(cfg.Perception.Levels, want); th.Kind != perception.Found || math.Abs(th.MS-want) > float64(step) {
			t.Errorf("prediction %v: threshold %s, want %vms within %dms", th.Predict, th.Text(), want, step)
		}
	}
	if len(a.Curves) != 2 {
		t.Fatalf("%d curves, want prediction on and off", len(a.Curves))
	}
	// Back as before.
	v := l.players[0].View()
	if v.Latency != 250*ms || !v.Predict || !v.Reconcile || l.Speed() != Tenth {
		t.Errorf("after the test: latency %v, prediction %v, reconciliation %v, speed %v; want 250ms, on, on, 1/10", v.Latency, v.Predict, v.Reconcile, l.Speed())
	}
	// The CSV is the answers, in the room's format.
	p := l.Perception()
	path, ok := strings.CutPrefix(p.Note, "answers saved: ")
	if !ok || filepath.Dir(path) != cfg.PerceptionDir {
		t.Fatalf("note %q", p.Note)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	perception.WriteCSV(&want, trials)
	if string(got) != want.String() {
		t.Errorf("the CSV:\n%s\nwant:\n%s", got, want.String())
	}
	// A second run adds its rows to the same file.
	l.StartPerception()
	s.take(t, l, w)
	got, _ = os.ReadFile(path)
	if n := strings.Count(string(got), "\n"); n != 1+2*len(trials) || strings.Count(string(got), "run,round") != 1 {
		t.Errorf("after two runs the file has %d lines, want %d and one header", n, 1+2*len(trials))
	}
	if l.Perception().Run != 2 || !strings.HasPrefix(lastLine(got), "2,") {
		t.Errorf("second run numbered %d, its last row %q", l.Perception().Run, lastLine(got))
	}
}

func lastLine(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return lines[len(lines)-1]
}

// TestLabPerceptionUnansweredAndStopped: a round not answered runs out
// its answer time and counts nowhere; p stops a run, keeping what was
// answered; Restart in a run ends it with the old world.
func TestLabPerceptionUnansweredAndStopped(t *testing.T) {
	cfg := Default()
	cfg.Perception = DefaultPerception()
	l, w := newLab(t, cfg)
	l.StartPerception()
	set := cfg.Perception
	w.pass(set.Play + set.Answer)
	l.Sync()
	if p := l.Perception(); p.Round != 2 || p.Phase != protocol.TrialPlay {
		t.Fatalf("after a round's play and answer time: round %d phase %v, want round 2 play", p.Round, p.Phase)
	}
	w.pass(set.Play)
	l.Sync()
	l.AnswerPerception(true)
	l.StopPerception()
	trials := l.PerceptionTrials()
	if len(trials) != 2 || trials[0].Answer != perception.NoAnswer || trials[1].Answer != perception.Laggy {
		t.Fatalf("trials %+v", trials)
	}
	if p := l.Perception(); p.Phase != protocol.TrialOver || p.Note != "answers not saved (-perception-dir -)" {
		t.Errorf("after stop: %+v", p)
	}
	l.ClosePerception()
	if p := l.Perception(); p.Phase != 0 {
		t.Errorf("closed results still show: %+v", p)
	}
	l.StartPerception()
	if err := l.Restart(); err != nil || l.Perception().Phase != 0 {
		t.Errorf("restart during a run: %v, %+v", err, l.Perception())
	}
	l.NoPerception("a recording holds the lab alone")
	l.StartPerception()
	if l.Perception().Phase != 0 || !strings.Contains(l.Caption(), "a recording holds the lab alone") {
		t.Errorf("a recorded lab started a test: %+v, caption %q", l.Perception(), l.Caption())
	}
}

// TestLecturePerceptionPart: a lecture's perception part, taken by a
// scripted student: the continue key starts the test; at its end the
// part's words are the student's results, every number the run's own.
func TestLecturePerceptionPart(t *testing.T) {
	lec, err := ParseLecture("l.lec", "", strings.NewReader("title T\npart 1\npart perception How much lag can you feel?\n"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := Default()
	cfg.Perception = DefaultPerception()
	w := &wall{t: time.Date(2026, 11, 23, 20, 0, 0, 0, time.UTC)}
	l, err := NewLecture(lec, cfg, w.now)
	if err != nil {
		t.Fatal(err)
	}
	l.StartPerception() // in Part I: not there
	if l.Perception().Phase != 0 {
		t.Fatal("p started the test in a lesson's step")
	}
	l.NextPart()
	out, _ := l.Lesson()
	if out.Next != "start the test" || !strings.Contains(strings.Join(out.Say, " "), "play blind") {
		t.Fatalf("the part says %+v", out)
	}
	l.Continue()
	if p := l.Perception(); p.Phase != protocol.TrialPlay {
		t.Fatalf("the continue key did not start the test: %+v", p)
	}
	s := student{perception.NewObserver(180*ms, 0, 3), perception.NewObserver(90*ms, 0, 4)}
	s.take(t, l, w)
	trials := l.PerceptionTrials()
	a := perception.Analyse(trials)
	out, _ = l.Lesson()
	said := strings.Join(out.Say, "\n")
	want := []string{fmt.Sprintf("You answered %d of %d rounds (0ms to 400ms, shuffled)", len(trials), len(trials))}
	var ths [2]float64
	for _, c := range a.Curves {
		ms, kind := perception.Fifty(c.Points)
		if kind != perception.Found {
			t.Fatalf("prediction %v: %v", c.Predict, kind)
		}
		z, _ := c.Zero()
		word := map[bool]string{true: "on", false: "off"}[c.Predict]
		want = append(want, fmt.Sprintf("Prediction %s: %dms", word, int(math.Round(ms))),
			fmt.Sprintf("laggy %d of %d times at 0ms", z.LaggyAnswers, z.Trials))
		ths[curveSlot(c.Predict)] = ms
	}
	want = append(want, fmt.Sprintf("Prediction raised your threshold by %dms", int(math.Round(ths[0]-ths[1]))), "answers not saved")
	for _, s := range want {
		if !strings.Contains(said, s) {
			t.Errorf("the part's words do not say %q:\n%s", s, said)
		}
	}
	if out.Next != "end the lecture" {
		t.Errorf("after the test the continue key does %q", out.Next)
	}
	// Every number in the words is one of the run's.
	nums := map[string]bool{"50": true} // the 50 % point
	for _, n := range []int{len(trials), int(math.Round(ths[0])), int(math.Round(ths[1])), int(math.Round(ths[0] - ths[1]))} {
		nums[fmt.Sprint(n)] = true
	}
	for _, c := range a.Curves {
		z, _ := c.Zero()
		nums[fmt.Sprint(z.LaggyAnswers)], nums[fmt.Sprint(z.Trials)] = true, true
		for _, p := range c.Points {
			nums[fmt.Sprint(p.RTTMS)] = true
		}
	}
	for _, n := range numbersIn(said) {
		if !nums[n] {
			t.Errorf("the words say %s, which is none of the run's numbers:\n%s", n, said)
		}
	}
}

// numbersIn returns the whole numbers in s.
func numbersIn(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r < '0' || r > '9' })
}
