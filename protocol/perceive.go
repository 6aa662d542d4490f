package protocol

import (
	"encoding/binary"
	"fmt"

	"gridlag/grid"
)

// Version 6 lets a room's teacher run a blind perception test: how much
// lag can a student feel? The teacher starts a run (Perceive); each round
// the server gives each student of version 6 in the room a hidden round
// trip on its connection, both ways, and tells the student the round and
// its phase, but not the round trip (Trial); the student plays, then
// answers "laggy" or "fine" (Answer); at the end each student is told its
// own round trips and answers (Trial's Results), and the room's teachers
// and spectators, told the run's progress all along, get every answer
// (Perception). A client of version 5 or before is not in the test, and
// is sent none of these.

// PerceiveSince is the first version that knows Perceive, Trial, Answer
// and Perception.
const PerceiveSince uint16 = 6

// PerceiveAction is what a Perceive asks.
type PerceiveAction uint8

// The actions.
const (
	PerceiveStart PerceiveAction = 1 // start a run of the test with the Perceive's settings
	PerceiveStop  PerceiveAction = 2 // stop the run in progress (the answers so far are kept)
)

// MaxPerceiveLevels is the most round trips one Perceive tests.
const MaxPerceiveLevels = 16

// Perceive is a teacher's: start a run of the perception test in its
// room, or stop the one in progress. Its settings (those of a Start; a
// Stop's are zero) are checked by the server, which says why it refuses
// them in a Perception's Note.
type Perceive struct {
	Action PerceiveAction
	// Predict is the prediction the run tests: 1 on, 2 off, 3 both (each
	// trial one or the other). Repeats is how many trials each round trip
	// has, for each prediction; Controls how many more at 0 ms.
	Predict  uint8
	Repeats  uint8
	Controls uint8
	// PlayMS is how long each round is played before the answer, and
	// AnswerMS how long the students have to answer at most, in ms.
	PlayMS, AnswerMS uint16
	// LevelsMS are the round trips tested, in ms, rising: at most
	// MaxPerceiveLevels.
	LevelsMS []uint16
}

// TrialPhase is where a round, or a student in the test, is.
type TrialPhase uint8

// The phases.
const (
	TrialPlay   TrialPhase = 1 // play: move and zap, feel the round trip
	TrialAnswer TrialPhase = 2 // answer: laggy or fine
	// TrialOver: the run ended (all its rounds, or the teacher stopped
	// it, or the class ended); a Trial then carries the student's
	// Results.
	TrialOver TrialPhase = 3
	// TrialOut: a run is in progress that the student is not in (it came
	// after the run began): it plays with the room's network until the
	// run ends.
	TrialOut TrialPhase = 4
)

// String names the phase.
func (p TrialPhase) String() string {
	switch p {
	case TrialPlay:
		return "play"
	case TrialAnswer:
		return "answer"
	case TrialOver:
		return "over"
	case TrialOut:
		return "out"
	}
	return fmt.Sprintf("TrialPhase(%d)", uint8(p))
}

// Verdict is a student's answer to a round: laggy or fine (NoVerdict in a
// result: the round ended before it answered).
type Verdict uint8

// The verdicts.
const (
	NoVerdict Verdict = 0
	Fine      Verdict = 1
	Laggy     Verdict = 2
)

// Trial tells a student of version 6 in a room's perception test where
// the run is: at the start of each phase of each round, when it comes
// (or comes back) during a run, and when the run is over. While a round
// is played, the student's prediction is held as Predict says, whatever
// the room's Conditions hold. The round trip injected is never in it
// before the run is over.
type Trial struct {
	Run           uint16 // the run in the room, from 1
	Round, Rounds uint16 // the round (from 1) of how many; Round 0 when Over or Out
	Phase         TrialPhase
	LeftMS        uint16 // what is left of the phase, in ms (Play, Answer)
	Predict       bool   // prediction is on in this round (Play, Answer)
	// Results are, when Over, the student's rounds of the run in order:
	// the round trip injected, the prediction and its answer.
	Results []TrialResult
}

// TrialResult is one round of a student's run, told when it is over.
type TrialResult struct {
	RTTMS   uint16
	Predict bool
	Answer  Verdict
}

// trialResultLen is the size of one TrialResult on the wire: the round
// trip, then a byte of flags (bit 0 prediction, bits 1-2 the answer).
const trialResultLen = 2 + 1

// MaxTrialResults is the most results one Trial carries.
const MaxTrialResults = 255

// Answer is a student's answer to a round of the perception test: Run
// and Round say which (an answer to another round than the one being
// answered is ignored), Verdict is Fine or Laggy. A student may change
// its answer until the round ends.
type Answer struct {
	Run, Round uint16
	Verdict    Verdict
}

// PerceivedTrial is one round of one student, as a Perception tells the
// room's teachers and spectators.
type PerceivedTrial struct {
	Run, Round uint16
	ID         grid.PlayerID
	Predict    bool
	Answer     Verdict
	RTTMS      uint16 // injected
	MeasuredMS uint16 // the round trip the student's client reported last in the round; NoRTT if none
}

// perceivedTrialLen is the size of one PerceivedTrial on the wire.
const perceivedTrialLen = 2 + 2 + 2 + 1 + 2 + 2

// MaxPerceivedTrials is the most trials one Perception carries, and
// MaxPerceptionStudents the most students it names (Waiting, Names): a
// frame holds them all with names of the longest.
const (
	MaxPerceivedTrials    = 3072
	MaxPerceptionStudents = 256
)

// playerInfoMinLen is the smallest PlayerInfo on the wire: its ID, its
// colour and an empty name's length.
const playerInfoMinLen = 2 + 1 + 1

// Perception tells a room's teachers and spectators of version 6 where
// its perception test is: when they come, when a run starts, at each
// phase of each round and each answer, and when a run ends, with every
// answer of the room's runs so far (Trials, and the students' Names).
type Perception struct {
	// Run is the run in progress, or the last (0: none yet); Round of
	// Rounds is its round (0 when none is in progress); Phase is Play or
	// Answer while a run is in progress, Over after it, and 0 before the
	// first; LeftMS what is left of the phase.
	Run           uint16
	Round, Rounds uint16
	Phase         TrialPhase
	LeftMS        uint16
	Predict       uint8  // the run's prediction: 1 on, 2 off, 3 both (0: no run yet)
	Students      uint16 // the students in the run
	// Waiting are the students in the run who have not answered this
	// round yet (in the answer phase), by ID.
	Waiting []grid.PlayerID
	// Note is the server's word on the test: where its answers were
	// saved, why it refused a Perceive. "" if none.
	Note string
	// Trials are the answers of the room's runs, in the order of runs
	// and rounds, and Names the names of their students (Trials name
	// them by ID): both empty but in the Perception that follows a run's
	// end, and the first one a client is sent.
	Trials []PerceivedTrial
	Names  []PlayerInfo
}

// Type implements Message.
func (*Perceive) Type() Type { return TypePerceive }

// Type implements Message.
func (*Trial) Type() Type { return TypeTrial }

// Type implements Message.
func (*Answer) Type() Type { return TypeAnswer }

// Type implements Message.
func (*Perception) Type() Type { return TypePerception }

func (m *Perceive) appendPayload(b []byte) ([]byte, error) {
	if err := m.check(); err != nil {
		return b, err
	}
	b = append(b, byte(m.Action), m.Predict, m.Repeats, m.Controls)
	b = binary.BigEndian.AppendUint16(b, m.PlayMS)
	b = binary.BigEndian.AppendUint16(b, m.AnswerMS)
	b = append(b, byte(len(m.LevelsMS)))
	for _, l := range m.LevelsMS {
		b = binary.BigEndian.AppendUint16(b, l)
	}
	return b, nil
}

func (m *Perceive) decodePayload(r *reader) error {
	m.Action = PerceiveAction(r.u8())
	m.Predict, m.Repeats, m.Controls = r.u8(), r.u8(), r.u8()
	m.PlayMS, m.AnswerMS = r.u16(), r.u16()
	n := int(r.u8())
	if r.err == nil && n > MaxPerceiveLevels {
		r.fail(ErrBadValue)
	}
	if r.err == nil && len(r.b) < 2*n {
		r.fail(ErrShort)
	}
	m.LevelsMS = nil
	if r.err == nil && n > 0 {
		m.LevelsMS = make([]uint16, n)
		for i := range m.LevelsMS {
			m.LevelsMS[i] = r.u16()
		}
	}
	if r.err == nil {
		if err := m.check(); err != nil {
			r.fail(ErrBadValue)
		}
	}
	return r.done()
}

// check says what in m no Perceive may carry: an unknown action or
// prediction, settings in a Stop, round trips that do not rise. The
// server checks the rest (the bounds of a run).
func (m *Perceive) check() error {
	switch m.Action {
	case PerceiveStart:
		if m.Predict < 1 || m.Predict > 3 || len(m.LevelsMS) == 0 || len(m.LevelsMS) > MaxPerceiveLevels {
			return fmt.Errorf("perceive: prediction %d, %d round trips: %w", m.Predict, len(m.LevelsMS), ErrBadValue)
		}
		for i := 1; i < len(m.LevelsMS); i++ {
			if m.LevelsMS[i] <= m.LevelsMS[i-1] {
				return fmt.Errorf("perceive: round trips not rising: %w", ErrBadValue)
			}
		}
	case PerceiveStop:
		if m.Predict != 0 || m.Repeats != 0 || m.Controls != 0 || m.PlayMS != 0 || m.AnswerMS != 0 || len(m.LevelsMS) != 0 {
			return fmt.Errorf("perceive: a stop carries no settings: %w", ErrBadValue)
		}
	default:
		return fmt.Errorf("perceive: action %d: %w", m.Action, ErrBadValue)
	}
	return nil
}

// validTrialPhase reports whether p is one of the phases.
func validTrialPhase(p TrialPhase) bool { return p >= TrialPlay && p <= TrialOut }

// verdictFlags packs a prediction and a verdict into a byte: bit 0 the
// prediction, bits 1-2 the verdict.
func verdictFlags(predict bool, v Verdict) byte {
	b := byte(v) << 1
	if predict {
		b |= 1
	}
	return b
}

// readVerdictFlags unpacks what verdictFlags packed, failing r on bits it
// never sets.
func readVerdictFlags(r *reader) (predict bool, v Verdict) {
	b := r.u8()
	if b>>3 != 0 || Verdict(b>>1&3) > Laggy {
		r.fail(ErrBadValue)
	}
	return b&1 != 0, Verdict(b >> 1 & 3)
}

func (m *Trial) appendPayload(b []byte) ([]byte, error) {
	if !validTrialPhase(m.Phase) || len(m.Results) > MaxTrialResults || len(m.Results) > 0 && m.Phase != TrialOver {
		return b, fmt.Errorf("trial: phase %d, %d results: %w", m.Phase, len(m.Results), ErrBadValue)
	}
	b = binary.BigEndian.AppendUint16(b, m.Run)
	b = binary.BigEndian.AppendUint16(b, m.Round)
	b = binary.BigEndian.AppendUint16(b, m.Rounds)
	b = append(b, byte(m.Phase))
	b = binary.BigEndian.AppendUint16(b, m.LeftMS)
	b = appendBool(b, m.Predict)
	b = append(b, byte(len(m.Results)))
	for _, res := range m.Results {
		if res.Answer > Laggy {
			return b, fmt.Errorf("trial: answer %d: %w", res.Answer, ErrBadValue)
		}
		b = binary.BigEndian.AppendUint16(b, res.RTTMS)
		b = append(b, verdictFlags(res.Predict, res.Answer))
	}
	return b, nil
}

func (m *Trial) decodePayload(r *reader) error {
	m.Run, m.Round, m.Rounds = r.u16(), r.u16(), r.u16()
	m.Phase = TrialPhase(r.u8())
	m.LeftMS = r.u16()
	m.Predict = r.bool()
	n := int(r.u8())
	if r.err == nil && (!validTrialPhase(m.Phase) || n > 0 && m.Phase != TrialOver) {
		r.fail(ErrBadValue)
	}
	if r.err == nil && len(r.b) < n*trialResultLen {
		r.fail(ErrShort)
	}
	m.Results = nil
	if r.err == nil && n > 0 {
		m.Results = make([]TrialResult, n)
		for i := range m.Results {
			m.Results[i].RTTMS = r.u16()
			m.Results[i].Predict, m.Results[i].Answer = readVerdictFlags(r)
		}
	}
	return r.done()
}

func (m *Answer) appendPayload(b []byte) ([]byte, error) {
	if m.Verdict != Fine && m.Verdict != Laggy {
		return b, fmt.Errorf("answer: verdict %d: %w", m.Verdict, ErrBadValue)
	}
	b = binary.BigEndian.AppendUint16(b, m.Run)
	b = binary.BigEndian.AppendUint16(b, m.Round)
	return append(b, byte(m.Verdict)), nil
}

func (m *Answer) decodePayload(r *reader) error {
	m.Run, m.Round = r.u16(), r.u16()
	m.Verdict = Verdict(r.u8())
	if r.err == nil && m.Verdict != Fine && m.Verdict != Laggy {
		r.fail(ErrBadValue)
	}
	return r.done()
}

func (m *Perception) appendPayload(b []byte) ([]byte, error) {
	if m.Phase != 0 && !validTrialPhase(m.Phase) || m.Predict > 3 {
		return b, fmt.Errorf("perception: phase %d, prediction %d: %w", m.Phase, m.Predict, ErrBadValue)
	}
	if len(m.Waiting) > MaxPerceptionStudents || len(m.Trials) > MaxPerceivedTrials || len(m.Names) > MaxPerceptionStudents {
		return b, fmt.Errorf("perception: %d waiting, %d trials, %d names: %w", len(m.Waiting), len(m.Trials), len(m.Names), ErrTooLarge)
	}
	b = binary.BigEndian.AppendUint16(b, m.Run)
	b = binary.BigEndian.AppendUint16(b, m.Round)
	b = binary.BigEndian.AppendUint16(b, m.Rounds)
	b = append(b, byte(m.Phase))
	b = binary.BigEndian.AppendUint16(b, m.LeftMS)
	b = append(b, m.Predict)
	b = binary.BigEndian.AppendUint16(b, m.Students)
	b = binary.BigEndian.AppendUint16(b, uint16(len(m.Waiting)))
	for _, id := range m.Waiting {
		if id == 0 {
			return b, fmt.Errorf("perception: waiting for player 0: %w", ErrBadValue)
		}
		b = binary.BigEndian.AppendUint16(b, uint16(id))
	}
	b, err := appendStr(b, m.Note)
	if err != nil {
		return b, err
	}
	b = binary.BigEndian.AppendUint16(b, uint16(len(m.Trials)))
	for _, t := range m.Trials {
		if t.ID == 0 || t.Answer > Laggy {
			return b, fmt.Errorf("perception: trial of player %d, answer %d: %w", t.ID, t.Answer, ErrBadValue)
		}
		b = binary.BigEndian.AppendUint16(b, t.Run)
		b = binary.BigEndian.AppendUint16(b, t.Round)
		b = binary.BigEndian.AppendUint16(b, uint16(t.ID))
		b = append(b, verdictFlags(t.Predict, t.Answer))
		b = binary.BigEndian.AppendUint16(b, t.RTTMS)
		b = binary.BigEndian.AppendUint16(b, t.MeasuredMS)
	}
	b = binary.BigEndian.AppendUint16(b, uint16(len(m.Names)))
	for _, p := range m.Names {
		if p.ID == 0 {
			return b, fmt.Errorf("perception: name of player 0: %w", ErrBadValue)
		}
		if b, err = appendInfo(b, p); err != nil {
			return b, err
		}
	}
	return b, nil
}

func (m *Perception) decodePayload(r *reader) error {
	m.Run, m.Round, m.Rounds = r.u16(), r.u16(), r.u16()
	m.Phase = TrialPhase(r.u8())
	m.LeftMS = r.u16()
	m.Predict = r.u8()
	m.Students = r.u16()
	if r.err == nil && (m.Phase != 0 && !validTrialPhase(m.Phase) || m.Predict > 3) {
		r.fail(ErrBadValue)
	}
	n := r.count(2)
	if r.err == nil && n > MaxPerceptionStudents {
		r.fail(ErrBadValue)
	}
	m.Waiting = nil
	if r.err == nil && n > 0 {
		m.Waiting = make([]grid.PlayerID, n)
		for i := range m.Waiting {
			if m.Waiting[i] = grid.PlayerID(r.u16()); m.Waiting[i] == 0 {
				r.fail(ErrBadValue)
			}
		}
	}
	m.Note = r.str()
	n = r.count(perceivedTrialLen)
	if r.err == nil && n > MaxPerceivedTrials {
		r.fail(ErrBadValue)
	}
	m.Trials = nil
	if r.err == nil && n > 0 {
		m.Trials = make([]PerceivedTrial, n)
		for i := range m.Trials {
			t := &m.Trials[i]
			t.Run, t.Round, t.ID = r.u16(), r.u16(), grid.PlayerID(r.u16())
			t.Predict, t.Answer = readVerdictFlags(r)
			t.RTTMS, t.MeasuredMS = r.u16(), r.u16()
			if t.ID == 0 {
				r.fail(ErrBadValue)
			}
		}
	}
	n = r.count(playerInfoMinLen)
	if r.err == nil && n > MaxPerceptionStudents {
		r.fail(ErrBadValue)
	}
	m.Names = nil
	if r.err == nil && n > 0 {
		m.Names = make([]PlayerInfo, 0, n)
	}
	for i := 0; i < n && r.err == nil; i++ {
		m.Names = append(m.Names, decodeInfo(r))
	}
	return r.done()
}
