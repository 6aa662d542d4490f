package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"gridlag/client"
	"gridlag/client/bot"
	"gridlag/grid"
	"gridlag/internal/perception"
	"gridlag/protocol"
	"gridlag/server/world"
)

// perceptionBots are the thresholds of the bots of the tests: each
// answers "laggy" when the round trip it measured, give or take 10 ms of
// noise, exceeds its own.
var perceptionBots = []time.Duration{60 * ms, 100 * ms, 150 * ms, 200 * ms, 250 * ms, 300 * ms}

// runPerception runs a perception test of settings s in a room of the
// bots and a teacher, on the virtual clock, until its first run is over:
// the bots walk and zap while they play, and answer as their thresholds
// say; each plays every round with the prediction the round holds.
func runPerception(t *testing.T, s perception.Settings) (*World, []*Client, *Watcher) {
	t.Helper()
	w := New(world.Config{Rate: 20})
	w.PingEvery(time.Second)
	var bots []*Client
	var observers []*perception.Observer
	for i, th := range perceptionBots {
		bots = append(bots, w.Join(fmt.Sprintf("p%d", th.Milliseconds()), client.Options{Room: "lab", Seed: int64(i + 1)}))
		observers = append(observers, perception.NewObserver(th, 10*ms, uint64(i+1)))
	}
	teacher := w.Watch("hopper", client.Options{Room: "lab", Teach: true}, true)
	w.Advance(time.Second)
	if err := teacher.Perceive(&s); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	end := w.Now() + time.Duration(s.Rounds())*(s.Play+s.Answer+time.Second)
	for w.Now() < end {
		if p := teacher.View().Perception; p != nil && p.Run == 1 && p.Phase == protocol.TrialOver {
			w.Advance(time.Second) // the bots' last Trial is on its way
			return w, bots, teacher
		}
		w.Advance(100 * ms)
		for i, b := range bots {
			v := b.View()
			if v.Perception.Blind() && v.Predict != v.Perception.Predict {
				t.Fatalf("%s plays round %d with prediction %v, its round holds %v", b.Name(), v.Perception.Round, v.Predict, v.Perception.Predict)
			}
			if laggy, ok := bot.Perceive(v, observers[i]); ok {
				b.Answer(laggy)
				continue
			}
			if v.Perception != nil && v.Perception.Phase == protocol.TrialPlay {
				switch rng.IntN(4) {
				case 0:
					b.Zap()
				default:
					b.Press(grid.Dir(rng.IntN(4) + 1))
				}
			}
		}
	}
	t.Fatalf("the run did not end within %v: %+v", end, teacher.View().Perception)
	return nil, nil, nil
}

// TestPerceptionBotsThresholds is the case on the virtual clock:
// six bots of known thresholds (60 to 300 ms) take a run of the default
// round trips, with prediction on and off; the thresholds the answers
// give are the bots' within one step of the levels, for both curves, no
// bot says "laggy" at 0 ms, and every bot said "laggy" at 400 ms. The
// round trip each bot's client measured when it answered is the one the
// server injected. Each bot is told its own rounds at the end, as the
// teacher has them.
func TestPerceptionBotsThresholds(t *testing.T) {
	s := perception.DefaultSettings()
	s.Mode = perception.PredictBoth
	_, bots, teacher := runPerception(t, s)
	p := teacher.View().Perception
	if len(p.Trials) != len(bots)*s.Rounds() {
		t.Fatalf("the teacher has %d answers, want %d (6 bots x %d rounds)", len(p.Trials), len(bots)*s.Rounds(), s.Rounds())
	}
	for _, tr := range p.Trials {
		if tr.Answer == perception.NoAnswer {
			t.Errorf("%s did not answer round %d", tr.Name, tr.Round)
		}
		if tr.RTTMS == 0 && tr.MeasuredMS == -1 {
			continue // a round trip of 0 on the virtual clock: the client reports none
		}
		if tr.MeasuredMS < tr.RTTMS || tr.MeasuredMS > tr.RTTMS+60 {
			t.Errorf("%s round %d: measured %d ms, injected %d ms", tr.Name, tr.Round, tr.MeasuredMS, tr.RTTMS)
		}
	}
	a := perception.Analyse(p.Trials)
	if len(a.Thresholds) != 2*len(bots) || len(a.Curves) != 2 {
		t.Fatalf("%d thresholds and %d curves, want 12 and 2", len(a.Thresholds), len(a.Curves))
	}
	for _, th := range a.Thresholds {
		var want time.Duration
		fmt.Sscanf(th.Name, "p%d", &want)
		step := perception.StepAround(s.Levels, float64(want))
		if th.Kind != perception.Found || math.Abs(th.MS-float64(want)) > float64(step) || th.FalseAlarms != 0 {
			t.Errorf("%s, prediction %v: threshold %s, %d false alarms; want %dms within %dms, none",
				th.Name, th.Predict, th.Text(), th.FalseAlarms, want, step)
		}
	}
	for _, c := range a.Curves {
		if z, ok := c.Zero(); !ok || z.LaggyAnswers != 0 || z.Trials != 6*(s.Repeats+s.Controls) {
			t.Errorf("prediction %v: at 0 ms %+v, want %d answers, none laggy", c.Predict, z, 6*(s.Repeats+s.Controls))
		}
		if top := c.Points[len(c.Points)-1]; top.Share() != 1 {
			t.Errorf("prediction %v: at %d ms %d of %d laggy, want all", c.Predict, top.RTTMS, top.LaggyAnswers, top.Trials)
		}
	}
	for _, b := range bots {
		v := b.View().Perception
		if v == nil || v.Phase != protocol.TrialOver || len(v.Results) != s.Rounds() {
			t.Fatalf("%s at the end: %+v, want the run over with its %d rounds", b.Name(), v, s.Rounds())
		}
		for i, r := range v.Results {
			var tr perception.Trial
			for _, x := range p.Trials {
				if x.Name == b.Name() && x.Round == i+1 {
					tr = x
				}
			}
			if int(r.RTTMS) != tr.RTTMS || r.Predict != tr.Predict || perception.Answer(r.Answer) != tr.Answer {
				t.Errorf("%s round %d: its screen has %+v, the teacher %+v", b.Name(), i+1, r, tr)
			}
		}
	}
}
