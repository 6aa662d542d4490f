package tui_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
	"gridlag/client/bot"
	"gridlag/grid"
	"gridlag/internal/perception"
	"gridlag/lab/sim"
	"gridlag/protocol"
	"gridlag/server/world"
	"gridlag/tui"
)

// perceptionRig is a room of six bots of known thresholds, its teacher's
// screen, a projector (a spectator's screen) and the screen of one of
// the bots, each 80x24, on the virtual clock.
type perceptionRig struct {
	world                 *sim.World
	bots                  []*sim.Client
	observers             []*perception.Observer
	teacherTerm, projTerm simTerm
	studentTerm           simTerm
	teacher               *tui.TeachScreen
	projector             *tui.SpectateScreen
	student               *tui.UI
	teachWatch            *sim.Watcher
	rng                   *rand.Rand
}

// thresholdsMS are the bots' thresholds: each answers "laggy" when the
// round trip it measured, give or take 10 ms, exceeds its own.
var thresholdsMS = []int{60, 100, 150, 200, 250, 300}

func newPerceptionRig(t *testing.T) *perceptionRig {
	t.Helper()
	w := sim.New(world.Config{Rate: 20})
	w.PingEvery(time.Second)
	r := &perceptionRig{world: w, rng: rand.New(rand.NewPCG(3, 4))}
	for i, th := range thresholdsMS {
		r.bots = append(r.bots, w.Join(fmt.Sprintf("p%d", th), client.Options{Room: "lab", Seed: int64(i + 1)}))
		r.observers = append(r.observers, perception.NewObserver(time.Duration(th)*time.Millisecond, 10*time.Millisecond, uint64(i+1)))
	}
	r.teachWatch = w.Watch("hopper", client.Options{Room: "lab", Teach: true}, true)
	proj := w.Watch("wall", client.Options{Room: "lab"}, false)
	ts, ps, ss := newScreen(t, 80, 24), newScreen(t, 80, 24), newScreen(t, 80, 24)
	r.teacherTerm, r.projTerm, r.studentTerm = simTerm{t, ts}, simTerm{t, ps}, simTerm{t, ss}
	r.teacher = tui.NewTeachScreen(ts, r.teachWatch, tui.Options{Title: "gridlag — teaching lab"})
	r.projector = tui.NewSpectateScreen(ps, proj, tui.Options{Title: "gridlag — lab"})
	r.student = tui.New(ss, r.bots[2], tui.Options{Title: "gridlag — lab"})
	r.step(time.Second)
	return r
}

// step moves the clock by d and draws the three screens; the bots answer
// a round that asks them, and walk and zap while they play.
func (r *perceptionRig) step(d time.Duration) {
	r.play(d)
	r.teacher.Frame()
	r.projector.Frame()
	r.student.Frame()
}

// play moves the clock by d; the bots answer a round that asks them, and
// walk and zap while they play.
func (r *perceptionRig) play(d time.Duration) {
	r.world.Advance(d)
	for i, b := range r.bots {
		v := b.View()
		if laggy, ok := bot.Perceive(v, r.observers[i]); ok {
			b.Answer(laggy)
		} else if v.Perception.Blind() && v.Perception.Phase == protocol.TrialPlay {
			if r.rng.IntN(4) == 0 {
				b.Zap()
			} else {
				b.Press(grid.Dir(r.rng.IntN(4) + 1))
			}
		}
	}
}

// teacherKeys presses keys on the teacher's screen.
func (r *perceptionRig) teacherKeys(keys string) {
	for _, k := range keys {
		r.teacher.HandleKey(tcell.NewEventKey(tcell.KeyRune, k, tcell.ModNone))
		r.teacher.Frame()
	}
}

// revealing are what a screen must not show during a round: a round trip
// in milliseconds ("150ms"), the status line's positions and lag, the
// ledger.
var revealing = regexp.MustCompile(`[0-9]ms|rtt [0-9]|server \(|Pending inputs|lag [0-9]`)

// TestPerceptionBotsOnTheProjector is the case on the screens: a
// teacher starts a run with prediction on and off (v v e) in a room of
// six bots of known thresholds; while it runs no screen shows a round
// trip (the student's, the projector's, the teacher's; nor the view of
// itself of the student the projector follows), the student's says its
// round and takes its answer; when it is over the projector
// plots the class's curves and lists each bot's threshold, within one
// step of the levels of the bot's own, for both predictions; the
// student's screen shows its own answers until Esc.
func TestPerceptionBotsOnTheProjector(t *testing.T) {
	r := newPerceptionRig(t)
	r.teacherTerm.mustShow("Perception [start] pred [on]")
	r.teacherKeys("vv")
	r.teacherTerm.mustShow("pred [both]")
	r.teacherKeys("f") // the projector follows a student: its view of itself must hide the round trip too
	r.step(time.Second)
	r.projTerm.mustShow("Following", "rtt ")
	r.teacherKeys("e")
	s := perception.DefaultSettings()
	s.Mode = perception.PredictBoth
	end := r.world.Now() + time.Duration(s.Rounds())*(s.Play+s.Answer)
	sawPlay, sawAnswer := false, false
	for {
		if r.world.Now() > end {
			t.Fatalf("the run did not end:\n%s", r.teacherTerm.text())
		}
		r.play(250 * time.Millisecond)
		p := r.teachWatch.View().Perception
		if p != nil && p.Phase == protocol.TrialOver {
			break
		}
		v := r.bots[2].View().Perception
		if !v.Blind() || v.Left%time.Second >= 250*time.Millisecond {
			continue // the screens are looked at once a second of each round
		}
		r.teacher.Frame()
		r.projector.Frame()
		r.student.Frame()
		for name, term := range map[string]simTerm{"student": r.studentTerm, "projector": r.projTerm, "teacher": r.teacherTerm} {
			for i, row := range rows(term.screen) {
				if name == "teacher" && i > 0 && i < 13 {
					continue // the room's network, the teacher's controls: nobody's round trip in the run
				}
				if revealing.MatchString(row) {
					t.Fatalf("round %d: the %s's screen gives a round trip away (%q):\n%s", v.Round, name, revealing.FindString(row), term.text())
				}
			}
		}
		r.projTerm.mustShow(fmt.Sprintf("perception test: round %d/36", p.Round), "its view is hidden during the test")
		switch v.Phase {
		case protocol.TrialPlay:
			r.studentTerm.mustShow("Play: move and zap.", fmt.Sprintf("round %d of 36", v.Round), "y laggy  n fine")
			if !sawPlay {
				sawPlay = true
				t.Logf("the student plays, 80x24:\n%s", r.studentTerm.text())
			}
		case protocol.TrialAnswer:
			if v.Answer != protocol.NoVerdict {
				r.studentTerm.mustShow("You said: " + map[protocol.Verdict]string{protocol.Laggy: "laggy", protocol.Fine: "fine"}[v.Answer])
				if !sawAnswer {
					sawAnswer = true
					t.Logf("the student answered, 80x24:\n%s", r.studentTerm.text())
					t.Logf("the teacher meanwhile:\n%s", r.teacherTerm.text())
					t.Logf("the projector:\n%s", r.projTerm.text())
				}
			}
		}
	}
	r.step(time.Second) // the bots' last Trial is on its way
	t.Logf("the projector at the end:\n%s", r.projTerm.text())
	r.projTerm.mustShow("Perception test: who felt lag", "6 students", "Thresholds", "pred on", "pred off", "● pred on: 50% at", "○ pred off: 50% at")
	found := 0
	for _, row := range rows(r.projTerm.screen) {
		m := regexp.MustCompile(`\bp(\d+) +(>?\d+)ms(?: \d+/\d+)? +(>?\d+)ms`).FindStringSubmatch(row)
		if m == nil {
			continue
		}
		found++
		want, _ := strconv.Atoi(m[1])
		step := perception.StepAround(s.Levels, float64(want))
		for i, got := range m[2:] {
			ms, err := strconv.Atoi(got)
			if err != nil || math.Abs(float64(ms-want)) > float64(step) {
				t.Errorf("the projector plots p%d's threshold with prediction %s at %sms; want %dms within %dms:\n%s",
					want, []string{"on", "off"}[i], got, want, step, row)
			}
		}
	}
	if found != len(thresholdsMS) {
		t.Errorf("the projector lists %d bots' thresholds, want %d:\n%s", found, len(thresholdsMS), r.projTerm.text())
	}
	t.Logf("the student at the end:\n%s", r.studentTerm.text())
	r.studentTerm.mustShow("Perception test: your answers", "run 1: 36 rounds, 36 answered", "Esc back to the game")
	r.student.HandleKey(tcell.NewEventKey(tcell.KeyEscape, 0, tcell.ModNone))
	r.student.Frame()
	r.studentTerm.mustShow("Latency", "Netcode")
	r.studentTerm.mustNotShow("your answers")
	r.projector.HandleKey(tcell.NewEventKey(tcell.KeyRune, 'o', tcell.ModNone))
	r.projector.Frame()
	r.projTerm.mustNotShow("Thresholds")
	r.teacherTerm.mustShow("Thresholds")
	r.teacherKeys("o")
	if !strings.Contains(r.teacherTerm.text(), "Perception [start] pred [both] e v o") {
		t.Errorf("the teacher's row after the run:\n%s", r.teacherTerm.text())
	}
}
