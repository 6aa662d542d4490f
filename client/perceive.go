package client

import (
	"time"

	"gridlag/grid"
	"gridlag/internal/perception"
	"gridlag/protocol"
)

// A room's perception test (protocol version 6): a player in a run is
// told each round and its phase (protocol.Trial), never the round trip
// the server injects; while a round is played or answered, the
// prediction is held as the round says (reconciliation with it,
// interpolation on), whatever the player or the room's teacher set, and
// the player answers with Answer. When the run is over, the Trial carries
// the player's own rounds. A teacher starts and stops runs (Perceive) and,
// as every spectator, is told the run and its answers (WorldView's
// Perception).

// Perceiving is where a player is in its room's perception test, as a
// View has it (nil before its first run).
type Perceiving struct {
	Run           int // the run, from 1
	Round, Rounds int // the round (from 1) of how many; 0 when Over or Out
	Phase         protocol.TrialPhase
	Left          time.Duration // what is left of the phase (Play, Answer)
	Predict       bool          // prediction is held on in this round
	// Answer is what the player answered this round, NoVerdict before.
	Answer protocol.Verdict
	// Results are, when Over, the player's rounds of the run: the round
	// trip injected, the prediction and its answer.
	Results []protocol.TrialResult
}

// Blind reports whether a round is played or answered: the screen then
// shows nothing that says the round trip (no latency, no ledger, no
// ghost).
func (p *Perceiving) Blind() bool {
	return p != nil && (p.Phase == protocol.TrialPlay || p.Phase == protocol.TrialAnswer)
}

// Trials returns, when Over, the player's rounds as trials of the
// analysis (run and round numbered, no name).
func (p *Perceiving) Trials() []perception.Trial {
	var trials []perception.Trial
	for i, r := range p.Results {
		trials = append(trials, perception.Trial{Run: p.Run, Round: i + 1, Predict: r.Predict, RTTMS: int(r.RTTMS),
			Answer: perception.Answer(r.Answer), MeasuredMS: -1})
	}
	return trials
}

// trialState is a player's side of its room's perception test.
type trialState struct {
	last   protocol.Trial   // the server's last word; Run 0: none yet
	at     time.Duration    // when it came: its LeftMS counts from then
	answer protocol.Verdict // the answer sent to this round
}

// inRound reports whether a round is played or answered.
func (t *trialState) inRound() bool {
	return t.last.Phase == protocol.TrialPlay || t.last.Phase == protocol.TrialAnswer
}

// holds are the switches a round holds: prediction as it says,
// reconciliation with it, interpolation on.
func (t *trialState) holds() protocol.Conditions {
	h := protocol.HoldOff
	if t.last.Predict {
		h = protocol.HoldOn
	}
	return protocol.Conditions{Teachers: 1, Predict: h, Reconcile: h, Interpolate: protocol.HoldOn}
}

// trial takes the server's word on the test at now: a new round pings at
// once (the round trip the player measures follows within one), and the
// switches follow what the round holds.
func (c *Core) trial(now time.Duration, m *protocol.Trial) {
	old := c.perc.last
	if m.Run != old.Run || m.Round != old.Round {
		c.perc.answer = protocol.NoVerdict
		if m.Phase == protocol.TrialPlay {
			c.nextPing = now
		}
	}
	c.perc.last, c.perc.at = *m, now
	c.apply()
}

// Answer answers the round being answered at now, laggy or fine; it
// reports whether it went (only in a round's answer phase). An answer
// may be changed until the round ends.
func (c *Core) Answer(now time.Duration, laggy bool) bool {
	if c.phase != Playing || c.perc.last.Phase != protocol.TrialAnswer {
		return false
	}
	v := protocol.Fine
	if laggy {
		v = protocol.Laggy
	}
	c.perc.answer = v
	c.send(&protocol.Answer{Run: c.perc.last.Run, Round: c.perc.last.Round, Verdict: v})
	return true
}

// perceiving returns the player's place in the test at now, nil before
// its first run.
func (c *Core) perceiving(now time.Duration) *Perceiving {
	t := &c.perc.last
	if t.Run == 0 {
		return nil
	}
	p := &Perceiving{Run: int(t.Run), Round: int(t.Round), Rounds: int(t.Rounds), Phase: t.Phase, Predict: t.Predict,
		Answer: c.perc.answer, Results: t.Results}
	if c.perc.inRound() {
		p.Left = max(time.Duration(t.LeftMS)*time.Millisecond-(now-c.perc.at), 0)
	}
	return p
}

// ClassPerception is a room's perception test as its teachers and
// spectators are told it.
type ClassPerception struct {
	// Run is the run in progress or the last; Round of Rounds is its
	// round while one is in progress (Phase Play or Answer), Over after
	// it; Left is what is left of the phase.
	Run, Round, Rounds int
	Phase              protocol.TrialPhase
	Left               time.Duration
	Mode               perception.Mode // the run's prediction
	Students           int             // in the run
	// Waiting are the students who have not answered the round yet, by
	// ID (in the answer phase).
	Waiting []grid.PlayerID
	// Note is the server's last word on the test (where the answers
	// were saved, why a run did not start).
	Note string
	// Trials are every answer of the room's runs so far, each with its
	// student's name.
	Trials []perception.Trial
}

// Running reports whether a run is in progress.
func (p *ClassPerception) Running() bool {
	return p != nil && (p.Phase == protocol.TrialPlay || p.Phase == protocol.TrialAnswer)
}

// classPerception is a spectator's side of its room's test.
type classPerception struct {
	last   protocol.Perception // the server's last word; its Trials are in trials
	at     time.Duration       // when it came
	trials []perception.Trial
}

// take takes a Perception at now: Trials when it carries any (else those
// of before stay).
func (cp *classPerception) take(now time.Duration, m *protocol.Perception) {
	cp.last, cp.at = *m, now
	cp.last.Trials, cp.last.Names = nil, nil
	if len(m.Trials) == 0 {
		return
	}
	names := make(map[grid.PlayerID]string, len(m.Names))
	for _, p := range m.Names {
		names[p.ID] = protocol.SanitizeName(p.Name)
	}
	cp.trials = make([]perception.Trial, len(m.Trials))
	for i, t := range m.Trials {
		measured := -1
		if t.MeasuredMS != protocol.NoRTT {
			measured = int(t.MeasuredMS)
		}
		cp.trials[i] = perception.Trial{Run: int(t.Run), Round: int(t.Round), Player: int(t.ID), Name: names[t.ID],
			Predict: t.Predict, RTTMS: int(t.RTTMS), Answer: perception.Answer(t.Answer), MeasuredMS: measured}
	}
}

// view returns the test at now, nil before the server said anything of
// it.
func (cp *classPerception) view(now time.Duration) *ClassPerception {
	m := &cp.last
	if m.Run == 0 && m.Note == "" {
		return nil
	}
	p := &ClassPerception{Run: int(m.Run), Round: int(m.Round), Rounds: int(m.Rounds), Phase: m.Phase,
		Mode: perception.Mode(m.Predict), Students: int(m.Students), Note: m.Note, Trials: cp.trials}
	if len(m.Waiting) > 0 {
		p.Waiting = append([]grid.PlayerID(nil), m.Waiting...)
	}
	if p.Running() {
		p.Left = max(time.Duration(m.LeftMS)*time.Millisecond-(now-cp.at), 0)
	}
	return p
}

// PerceiveOf is the Perceive that starts a run of settings s (nil: that
// stops the run in progress).
func PerceiveOf(s *perception.Settings) *protocol.Perceive {
	if s == nil {
		return &protocol.Perceive{Action: protocol.PerceiveStop}
	}
	p := &protocol.Perceive{Action: protocol.PerceiveStart, Predict: uint8(s.Mode),
		Repeats: uint8(min(max(s.Repeats, 0), 255)), Controls: uint8(min(max(s.Controls, 0), 255)),
		PlayMS: uint16(min(max(s.Play.Milliseconds(), 0), 65535)), AnswerMS: uint16(min(max(s.Answer.Milliseconds(), 0), 65535))}
	for _, l := range s.Levels[:min(len(s.Levels), protocol.MaxPerceiveLevels)] {
		p.LevelsMS = append(p.LevelsMS, uint16(min(max(l, 0), 65535)))
	}
	return p
}

// Perceive starts a run of the room's perception test with settings set,
// or stops the one in progress (nil), as a teacher does; the server
// refuses it (and closes) from a spectator that is not a teacher, and
// says why it does not start a run in the Perception's Note. Settings
// that fail their Check are not sent: the error says why.
func (s *Spectator) Perceive(set *perception.Settings) error {
	if set != nil {
		if err := set.Check(); err != nil {
			return err
		}
	}
	if s.phase == Watching {
		s.send(PerceiveOf(set))
	}
	return nil
}
