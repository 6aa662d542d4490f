package lab

import (
	"time"

	"gridlag/internal/link"
	"gridlag/internal/perception"
	"gridlag/internal/perception/answers"
	"gridlag/protocol"
	"gridlag/tui"
)

// The perception test for one student alone: how much lag can you feel?
// It is the class's test (internal/perception: the same set of round
// trips, shuffled with repeats and zero-lag controls, the same
// thresholds, curves and CSV) with Player 1 as the student. Each round
// the lab gives Player 1's link the round trip of the round, both ways,
// with no jitter nor loss, and Player 1 the prediction of the round;
// the student plays for Settings.Play, then answers laggy or fine
// (AnswerPerception) within Settings.Answer; an answer ends the round.
// The clock runs at 1x while the test lasts, whatever the lab's speed:
// lag is felt on the wall clock. Nothing of the lab tells the round
// trip while a round lasts: the screen draws Player 1's board alone
// (see tui's blind lab). At the end Player 1 gets its own link and
// toggles back, and the lab its speed; the answers go into a CSV file
// (Config.PerceptionDir), a file per lab, added to at each run.

// DefaultPerception is the lab's test when the flags name none: the
// class's default levels and timing, with prediction on and off
// interleaved in one shuffled run (both curves from the same minutes:
// tiredness, practice and attention weigh on both alike).
func DefaultPerception() perception.Settings {
	s := perception.DefaultSettings()
	s.Mode = perception.PredictBoth
	return s
}

// perceptionTest is the lab's test: the run in progress, if any, and the
// last run's results.
type perceptionTest struct {
	runs int // runs started
	// file is the CSV file of this lab's answers, "" before the first
	// run's end (or when none is kept).
	file string

	// The run in progress (active), or the last one.
	active   bool
	settings perception.Settings
	steps    []perception.Step
	round    int // from 1
	phase    protocol.TrialPhase
	ends     time.Duration // on the world's clock
	answer   protocol.Verdict
	measured int
	trials   []perception.Trial
	note     string // where the answers went
	closed   bool   // Esc closed the results
	refused  string // why this lab gives no test ("" when it does)
	own      savedLink
}

// savedLink is what Player 1 had before a run: its link, its toggles, and
// the lab's speed.
type savedLink struct {
	preset             int
	own                ownLink
	trace              *link.Trace
	traceStart         time.Duration
	rtt, jitter        time.Duration
	loss               float64
	predict, reconcile bool
	speed              Speed
	paused             bool
}

// StartPerception starts a run of the test with Player 1 as the student:
// the settings of Config.Perception (DefaultPerception when none), the
// clock running at 1x. A run in progress goes on.
func (l *Lab) StartPerception() {
	t := &l.test
	if t.active {
		return
	}
	if t.refused != "" {
		l.caption = "perception test not started: " + t.refused
		return
	}
	if r := l.lesson; r != nil && !r.lecture.Parts[r.part].Perception {
		l.caption = "perception test not started: a lesson's steps hold the clock (the free lab gives it, or a lecture's perception part)"
		return
	}
	s := l.cfg.Perception
	if len(s.Levels) == 0 {
		s = DefaultPerception()
	}
	if err := s.Check(); err != nil {
		l.caption = "perception test not started: " + err.Error()
		return
	}
	t.runs++
	p := l.players[0]
	v := p.View()
	t.own = savedLink{preset: p.preset, own: p.own, trace: p.trace, traceStart: p.traceStart,
		rtt: v.Latency, jitter: v.Jitter, loss: p.Loss(), predict: v.Predict, reconcile: v.Reconcile,
		speed: l.Speed(), paused: l.Paused()}
	seed := uint64(l.cfg.Seed)*1000003 + uint64(t.runs)
	if l.cfg.PerceptionSeed != 0 {
		seed = l.cfg.PerceptionSeed + uint64(t.runs)
	}
	t.active, t.settings, t.steps = true, s, perception.Schedule(s, seed)
	t.round, t.trials, t.note, t.closed = 0, nil, "", false
	p.unfollow()
	p.preset = -1
	l.SetSpeed(Full)
	l.caption = ""
	l.clock.Resume()
	l.beginRound()
}

// NoPerception makes StartPerception say why, not start: a recording of
// the lab holds no test.
func (l *Lab) NoPerception(why string) { l.test.refused = why }

// beginRound starts the next round at the world's time: Player 1's link
// gets the round's round trip, its client the round's prediction.
func (l *Lab) beginRound() {
	t := &l.test
	t.round++
	t.phase, t.ends = protocol.TrialPlay, l.world.Now()+t.settings.Play
	t.answer, t.measured = protocol.NoVerdict, -1
	st := t.steps[t.round-1]
	c := l.players[0].Client
	c.SetLatency(time.Duration(st.RTTMS) * time.Millisecond)
	c.SetJitter(0)
	c.SetLoss(0)
	c.SetPredict(st.Predict)
	if st.Predict {
		c.SetReconcile(true)
	}
}

// perceptionDue plays the ends of the test's phases due by t (world
// time): play turns to answer, answer (unanswered) to the next round.
func (l *Lab) perceptionDue(t time.Duration) {
	for l.test.active && l.test.ends <= t {
		l.advanceScripted(l.test.ends)
		if l.test.phase == protocol.TrialPlay {
			l.test.phase, l.test.ends = protocol.TrialAnswer, l.test.ends+l.test.settings.Answer
			continue
		}
		l.endRound()
	}
}

// AnswerPerception answers the round being answered: laggy or fine. It
// ends the round. Outside a round's answer phase it does nothing.
func (l *Lab) AnswerPerception(laggy bool) {
	t := &l.test
	if !t.active || t.phase != protocol.TrialAnswer {
		return
	}
	t.answer = protocol.Fine
	if laggy {
		t.answer = protocol.Laggy
	}
	// The lab pings from its start: the client has measured a round
	// trip by the time a round is answered.
	t.measured = int(l.players[0].View().RTT.Milliseconds())
	l.endRound()
}

// endRound records the round's answer and starts the next round, or ends
// the run after its last.
func (l *Lab) endRound() {
	t := &l.test
	st := t.steps[t.round-1]
	v := l.players[0].View()
	t.trials = append(t.trials, perception.Trial{Run: t.runs, Round: t.round, Player: int(v.Me), Name: l.players[0].Name(),
		Predict: st.Predict, RTTMS: st.RTTMS, Answer: perception.Answer(t.answer), MeasuredMS: t.measured})
	if t.round == len(t.steps) {
		l.endPerception()
		return
	}
	l.beginRound()
}

// StopPerception stops the run in progress: the answers so far are kept,
// as at its end.
func (l *Lab) StopPerception() {
	if l.test.active {
		l.endPerception()
	}
}

// endPerception ends the run: Player 1's link, toggles and the lab's
// speed come back, and the answers are saved.
func (l *Lab) endPerception() {
	t := &l.test
	t.active, t.phase = false, protocol.TrialOver
	p, o := l.players[0], t.own
	p.Client.SetLatency(o.rtt)
	p.Client.SetJitter(o.jitter)
	p.SetLoss(o.loss)
	p.preset, p.own = o.preset, o.own
	if o.trace != nil {
		p.follow(o.trace, o.traceStart)
	}
	p.Client.SetPredict(o.predict)
	p.Client.SetReconcile(o.reconcile)
	l.SetSpeed(o.speed)
	if o.paused {
		l.Pause()
	}
	t.note = l.saveAnswers()
	if r := l.lesson; r != nil && r.testing {
		l.perceptionPartDone()
	}
}

// saveAnswers adds the run's answers to the lab's CSV file and says
// where they went.
func (l *Lab) saveAnswers() string {
	t := &l.test
	if len(t.trials) == 0 {
		return "no round answered: nothing saved"
	}
	if l.cfg.PerceptionDir == "" {
		return "answers not saved (-perception-dir -)"
	}
	path, err := answers.Append(l.cfg.PerceptionDir, "lab", t.file, t.trials, l.wall())
	if err != nil {
		return "answers not saved: " + err.Error()
	}
	t.file = path
	return "answers saved: " + path
}

// ClosePerception closes the last run's results.
func (l *Lab) ClosePerception() {
	if !l.test.active {
		l.test.closed = true
	}
}

// PerceptionTrials returns the answers of the last run (or the run in
// progress so far).
func (l *Lab) PerceptionTrials() []perception.Trial { return l.test.trials }

// Perception says where the test is, for the screen: the round of the
// run in progress (never its round trip), or the last run's results
// until they are closed.
func (l *Lab) Perception() tui.LabPerception {
	t := &l.test
	switch {
	case t.active:
		return tui.LabPerception{Run: t.runs, Round: t.round, Rounds: len(t.steps), Phase: t.phase,
			Left: max(t.ends-l.world.Now(), 0), Answer: t.answer, Student: l.players[0].Name()}
	case t.phase == protocol.TrialOver && !t.closed:
		return tui.LabPerception{Run: t.runs, Rounds: len(t.steps), Round: len(t.trials), Phase: protocol.TrialOver,
			Trials: t.trials, Note: t.note, Student: l.players[0].Name()}
	}
	return tui.LabPerception{}
}
