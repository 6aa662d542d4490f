package hub

import (
	"fmt"
	"hash/fnv"
	"slices"
	"time"

	"gridlag/grid"
	"gridlag/internal/perception"
	"gridlag/protocol"
)

// A class's perception test (protocol version 6): how much lag can a
// student feel? A teacher starts a run (Perceive): the students of
// version 6 in the room (not the bots) are its subjects, each with its
// own shuffled rounds (perception.Schedule). Each round has two phases:
// play, for Settings.Play, then answer, for Settings.Answer at most (it
// ends as soon as every subject in the room answered). During a round
// the hub gives each subject's connection the round trip of its round,
// both ways, in place of the room's network (injected, used by network),
// with no jitter nor loss, and tells the subject the round and its phase
// and the prediction it holds, never the round trip (Trial); the
// subject's Answer counts while its round's answer phase lasts, the last
// one given. The room's teachers and spectators of version 6 are told the
// run's progress (Perception) at each phase and answer. At the end (the
// last round, a teacher's stop, the class's end) each subject gets its
// own rounds (Trial's Results), the room's network again, and the
// watchers every answer of the room's runs; the hub notes the run's
// answers (NotePerception) for its adapter to save, and the adapter's word
// on where they went comes back through PerceptionNote.

// perceiving is a class's perception test: the run in progress, if any,
// and the answers of the runs so far.
type perceiving struct {
	serial int // the hub's number of the class, for its answers' file
	runs   int // runs started
	run    *perceptionRun
	// trials are the answers of the runs so far, in order, as the
	// watchers are told them: at most protocol.MaxPerceivedTrials, the
	// oldest runs dropped first; names their students'.
	trials []perception.Trial
	names  map[grid.PlayerID]protocol.PlayerInfo
	note   string // the adapter's last word on the test (PerceptionNote)
}

// perceptionRun is a run in progress.
type perceptionRun struct {
	number   int
	settings perception.Settings
	rounds   int
	round    int                 // the round being played, from 1
	phase    protocol.TrialPhase // TrialPlay or TrialAnswer
	ends     time.Duration       // when the phase ends
	subjects []*subject          // by player ID
	trials   []perception.Trial  // the answers of the rounds played
}

// subject is one student in a run.
type subject struct {
	info     protocol.PlayerInfo
	steps    []perception.Step
	answer   protocol.Verdict // this round's, so far
	measured int              // the round trip it reported when it answered, ms; -1 if none
	results  []protocol.TrialResult
}

// subjectOf returns the subject of player id in run, nil if none.
func (run *perceptionRun) subjectOf(id grid.PlayerID) *subject {
	i, ok := slices.BinarySearchFunc(run.subjects, id, func(s *subject, id grid.PlayerID) int { return int(s.info.ID) - int(id) })
	if !ok {
		return nil
	}
	return run.subjects[i]
}

// step returns what s plays in the round being played.
func (run *perceptionRun) step(s *subject) perception.Step { return s.steps[run.round-1] }

// perceptionMessage takes what the perception test is made of from c, a
// connection in a room with a class: a teacher's Perceive, a student's
// Answer. It reports whether m was one of them.
func (h *Hub) perceptionMessage(now time.Duration, c *conn, m protocol.Message) bool {
	r := c.room
	switch v := m.(type) {
	case *protocol.Perceive:
		switch v.Action {
		case protocol.PerceiveStart:
			h.startRun(now, r, c, v)
		case protocol.PerceiveStop:
			if r.class.perc.run != nil {
				h.endRun(now, r, "stopped by a teacher")
			}
		}
	case *protocol.Answer:
		if !c.player {
			return false // the world refuses it, as any message out of place
		}
		h.answer(now, c, v)
	default:
		return false
	}
	return true
}

// settingsOf reads a Perceive's settings.
func settingsOf(p *protocol.Perceive) perception.Settings {
	s := perception.Settings{
		Repeats: int(p.Repeats), Controls: int(p.Controls), Mode: perception.Mode(p.Predict),
		Play: time.Duration(p.PlayMS) * time.Millisecond, Answer: time.Duration(p.AnswerMS) * time.Millisecond,
	}
	for _, l := range p.LevelsMS {
		s.Levels = append(s.Levels, int(l))
	}
	return s
}

// startRun starts a run of p's settings in r, as teacher c asked at now,
// or says to the watchers why it does not.
func (h *Hub) startRun(now time.Duration, r *room, c *conn, p *protocol.Perceive) {
	pc := &r.class.perc
	refuse := func(why string) {
		h.perceiveNote(r, c, "perception test not started: "+why)
	}
	s := settingsOf(p)
	if err := s.Check(); err != nil {
		refuse(err.Error())
		return
	}
	if pc.run != nil {
		refuse(fmt.Sprintf("run %d is in progress: stop it first", pc.run.number))
		return
	}
	run := &perceptionRun{settings: s, rounds: s.Rounds()}
	for _, o := range h.roomConns(r) {
		info, bot, ok := r.core.Member(o.id)
		if !ok || bot || o.version < protocol.PerceiveSince {
			continue
		}
		run.subjects = append(run.subjects, &subject{info: info})
	}
	slices.SortFunc(run.subjects, func(a, b *subject) int { return int(a.info.ID) - int(b.info.ID) })
	switch n := len(run.subjects); {
	case n == 0:
		refuse("no student in the room can take it (protocol version 6, not a bot)")
		return
	case n > protocol.MaxPerceptionStudents:
		refuse(fmt.Sprintf("%d students: a run takes at most %d", n, protocol.MaxPerceptionStudents))
		return
	case n*run.rounds > protocol.MaxPerceivedTrials:
		refuse(fmt.Sprintf("%d students x %d rounds: at most %d answers a run (fewer rounds)", n, run.rounds, protocol.MaxPerceivedTrials))
		return
	}
	pc.runs++
	run.number = pc.runs
	for _, sub := range run.subjects {
		sub.steps = perception.Schedule(s, h.scheduleSeed(pc, run.number, sub.info.ID))
	}
	pc.run = run
	h.notes = append(h.notes, Note{Kind: NoteTeach, Conn: c.id, Host: c.from.Host, Room: r.name,
		Reason: fmt.Sprintf("perception test: run %d started with %d students, %d rounds, prediction %v (%v)", run.number, len(run.subjects), run.rounds, s.Mode, s)})
	for _, o := range h.roomConns(r) {
		if o.player && o.version >= protocol.PerceiveSince {
			if id, ok := r.core.Player(o.id); ok && run.subjectOf(id) == nil {
				h.sendLater(o.id, h.trialOf(now, run, nil)) // not in this run
			}
		}
	}
	h.beginRound(now, r)
}

// scheduleSeed is the seed of a subject's rounds in a run: the hub's, the
// class's, the run's and the student's, mixed.
func (h *Hub) scheduleSeed(pc *perceiving, run int, id grid.PlayerID) uint64 {
	f := fnv.New64a()
	fmt.Fprintf(f, "%d/%d/%d/%d", h.opts.PerceptionSeed, pc.serial, run, id)
	return f.Sum64()
}

// beginRound starts the next round of r's run at now: each subject in the
// room gets its round trip and is told the round.
func (h *Hub) beginRound(now time.Duration, r *room) {
	run := r.class.perc.run
	run.round++
	run.phase, run.ends = protocol.TrialPlay, now+run.settings.Play
	for _, sub := range run.subjects {
		sub.answer, sub.measured = protocol.NoVerdict, -1
	}
	for _, o := range h.roomConns(r) {
		if sub := h.subjectConn(r, o); sub != nil {
			h.network(o, r)
			h.sendLater(o.id, h.trialOf(now, run, sub))
		}
	}
	r.core.Ping(now) // the round trips shown follow within one
	h.touch(r)
	h.tellPerception(r, false)
}

// subjectConn returns the subject of run in progress in r whose player is
// connection c, nil if c is none.
func (h *Hub) subjectConn(r *room, c *conn) *subject {
	run := r.class.perc.run
	if run == nil || !c.player {
		return nil
	}
	id, ok := r.core.Player(c.id)
	if !ok {
		return nil
	}
	return run.subjectOf(id)
}

// injected returns the network of c, a player, while it is a subject of
// its room's run: the round trip of its round alone; ok is false when it
// is none.
func (h *Hub) injected(c *conn) (cond protocol.Conditions, ok bool) {
	r := c.room
	if r == nil || r.class == nil {
		return cond, false
	}
	sub := h.subjectConn(r, c)
	if sub == nil {
		return cond, false
	}
	return protocol.Conditions{LatencyMS: uint16(r.class.perc.run.step(sub).RTTMS)}, true
}

// trialOf is the Trial that tells subject sub (nil: a student not in the
// run) where run is at now.
func (h *Hub) trialOf(now time.Duration, run *perceptionRun, sub *subject) *protocol.Trial {
	t := &protocol.Trial{Run: uint16(run.number), Rounds: uint16(run.rounds), Phase: protocol.TrialOut}
	if sub != nil {
		t.Round, t.Phase = uint16(run.round), run.phase
		t.LeftMS = uint16(min(max(run.ends-now, 0).Milliseconds(), 65535))
		t.Predict = run.step(sub).Predict
	}
	return t
}

// perceptionWake returns when the next phase of a room's run ends; ok is
// false if no run is in progress.
func (h *Hub) perceptionWake() (at time.Duration, ok bool) {
	for _, r := range h.order {
		if r.class == nil || r.class.perc.run == nil {
			continue
		}
		if t := r.class.perc.run.ends; !ok || t < at {
			at, ok = t, true
		}
	}
	return at, ok
}

// stepPerception ends the phases of the rooms' runs due by now: play
// turns to answer, answer to the next round.
func (h *Hub) stepPerception(now time.Duration) {
	for _, r := range h.order {
		if r.class == nil || r.class.perc.run == nil || r.class.perc.run.ends > now {
			continue
		}
		run := r.class.perc.run
		if run.phase == protocol.TrialPlay {
			run.phase, run.ends = protocol.TrialAnswer, now+run.settings.Answer
			for _, o := range h.roomConns(r) {
				if sub := h.subjectConn(r, o); sub != nil {
					h.sendLater(o.id, h.trialOf(now, run, sub))
				}
			}
			h.touch(r)
			h.tellPerception(r, false)
			continue
		}
		h.endRound(now, r)
	}
}

// answer takes a subject's Answer to the round being answered.
func (h *Hub) answer(now time.Duration, c *conn, a *protocol.Answer) {
	r := c.room
	if r.class == nil {
		return
	}
	run := r.class.perc.run
	sub := h.subjectConn(r, c)
	if sub == nil || run.phase != protocol.TrialAnswer || int(a.Run) != run.number || int(a.Round) != run.round {
		return // not in the run, or too late: the round is over
	}
	sub.answer, sub.measured = a.Verdict, -1
	if rep, ok := r.class.reports[c.id]; ok && rep.RTTMS != protocol.NoRTT {
		sub.measured = int(rep.RTTMS)
	}
	if len(h.waiting(r)) == 0 {
		h.endRound(now, r)
		return
	}
	h.tellPerception(r, false)
}

// waiting returns the subjects of r's run in the room who have not
// answered the round yet, by ID.
func (h *Hub) waiting(r *room) []grid.PlayerID {
	var ids []grid.PlayerID
	for _, o := range h.roomConns(r) {
		if sub := h.subjectConn(r, o); sub != nil && sub.answer == protocol.NoVerdict {
			ids = append(ids, sub.info.ID)
		}
	}
	slices.Sort(ids)
	return ids
}

// endRound records the answers of the round played in r and starts the
// next, or ends the run after its last.
func (h *Hub) endRound(now time.Duration, r *room) {
	run := r.class.perc.run
	for _, sub := range run.subjects {
		st := run.step(sub)
		run.trials = append(run.trials, perception.Trial{Run: run.number, Round: run.round, Player: int(sub.info.ID), Name: sub.info.Name,
			Predict: st.Predict, RTTMS: st.RTTMS, Answer: perception.Answer(sub.answer), MeasuredMS: sub.measured})
		sub.results = append(sub.results, protocol.TrialResult{RTTMS: uint16(st.RTTMS), Predict: st.Predict, Answer: sub.answer})
	}
	if run.round == run.rounds {
		h.endRun(now, r, "all its rounds played")
		return
	}
	h.beginRound(now, r)
}

// endRun ends r's run at now, for why: each subject in the room gets the
// room's network back and its results, the watchers every answer, and
// the adapter the run's answers to save.
func (h *Hub) endRun(now time.Duration, r *room, why string) {
	pc := &r.class.perc
	run := pc.run
	pc.run = nil
	for _, o := range h.roomConns(r) {
		if !o.player || o.version < protocol.PerceiveSince {
			continue
		}
		id, _ := r.core.Player(o.id)
		over := &protocol.Trial{Run: uint16(run.number), Rounds: uint16(run.rounds), Phase: protocol.TrialOver}
		if sub := run.subjectOf(id); sub != nil {
			over.Results = sub.results
			h.network(o, r)
		}
		h.sendLater(o.id, over)
	}
	pc.keep(run)
	answered := 0
	for _, t := range run.trials {
		if t.Answer != perception.NoAnswer {
			answered++
		}
	}
	played := len(run.trials) / len(run.subjects)
	h.notes = append(h.notes, Note{Kind: NoteTeach, Room: r.name,
		Reason: fmt.Sprintf("perception test: run %d over (%s): %d of %d rounds, %d answers of %d students", run.number, why, played, run.rounds, answered, len(run.subjects))})
	if len(run.trials) > 0 {
		h.notes = append(h.notes, Note{Kind: NotePerception, Room: r.name, Class: pc.serial, Trials: run.trials})
	}
	h.touch(r)
	h.tellPerception(r, true)
}

// keep adds the answers of run to those the watchers are told, dropping
// the oldest runs' to stay within what a Perception carries.
func (pc *perceiving) keep(run *perceptionRun) {
	if pc.names == nil {
		pc.names = make(map[grid.PlayerID]protocol.PlayerInfo)
	}
	for _, sub := range run.subjects {
		pc.names[sub.info.ID] = sub.info
	}
	pc.trials = append(pc.trials, run.trials...)
	for len(pc.trials) > protocol.MaxPerceivedTrials || len(pc.names) > protocol.MaxPerceptionStudents {
		first := pc.trials[0].Run
		pc.trials = slices.DeleteFunc(pc.trials, func(t perception.Trial) bool { return t.Run == first })
		pc.names = make(map[grid.PlayerID]protocol.PlayerInfo)
		for _, t := range pc.trials {
			pc.names[grid.PlayerID(t.Player)] = protocol.PlayerInfo{ID: grid.PlayerID(t.Player), Name: t.Name}
		}
		for _, sub := range run.subjects {
			pc.names[sub.info.ID] = sub.info
		}
	}
}

// perception returns the Perception of r's test now; with trials, every
// answer kept and the students' names.
func (h *Hub) perception(r *room, trials bool) *protocol.Perception {
	pc := &r.class.perc
	m := &protocol.Perception{Run: uint16(pc.runs), Note: pc.note}
	if pc.runs > 0 {
		m.Phase = protocol.TrialOver
	}
	if run := pc.run; run != nil {
		m.Round, m.Rounds, m.Phase = uint16(run.round), uint16(run.rounds), run.phase
		m.LeftMS = uint16(min(max(run.ends-h.now, 0).Milliseconds(), 65535))
		m.Predict, m.Students = uint8(run.settings.Mode), uint16(len(run.subjects))
		if run.phase == protocol.TrialAnswer {
			m.Waiting = h.waiting(r)
		}
	}
	if trials {
		for _, t := range pc.trials {
			measured := uint16(protocol.NoRTT)
			if t.MeasuredMS >= 0 {
				measured = uint16(min(t.MeasuredMS, int(protocol.NoRTT)-1))
			}
			m.Trials = append(m.Trials, protocol.PerceivedTrial{Run: uint16(t.Run), Round: uint16(t.Round), ID: grid.PlayerID(t.Player),
				Predict: t.Predict, Answer: protocol.Verdict(t.Answer), RTTMS: uint16(t.RTTMS), MeasuredMS: measured})
		}
		for _, p := range pc.names {
			m.Names = append(m.Names, p)
		}
		slices.SortFunc(m.Names, func(a, b protocol.PlayerInfo) int { return int(a.ID) - int(b.ID) })
	}
	return m
}

// tellPerception tells r's teachers and spectators of version 6 where its
// test is; with trials, every answer.
func (h *Hub) tellPerception(r *room, trials bool) {
	var m *protocol.Perception
	for _, o := range h.roomConns(r) {
		if !o.spectator || o.version < protocol.PerceiveSince {
			continue
		}
		if m == nil {
			m = h.perception(r, trials)
		}
		h.sendLater(o.id, m)
	}
}

// enteredPerception tells c, come into r (a class) at now, where r's test
// is: a watcher everything; a subject of the run in progress (back after
// a drop) its round, on its round's network; any other student of
// version 6 that a run goes on without it.
func (h *Hub) enteredPerception(now time.Duration, c *conn) {
	r := c.room
	pc := &r.class.perc
	switch {
	case c.version < protocol.PerceiveSince:
	case c.spectator && pc.runs > 0:
		h.sendLater(c.id, h.perception(r, true))
	case c.player && pc.run != nil:
		sub := h.subjectConn(r, c)
		h.sendLater(c.id, h.trialOf(now, pc.run, sub))
	}
}

// perceiveNote tells r's watchers, and the log, a sentence on its test
// (teacher c's request refused).
func (h *Hub) perceiveNote(r *room, c *conn, text string) {
	r.class.perc.note = text
	h.notes = append(h.notes, Note{Kind: NoteTeach, Conn: c.id, Host: c.from.Host, Room: r.name, Reason: text})
	h.tellPerception(r, false)
}

// PerceptionNote tells the teachers and spectators of the room called
// name a sentence on its perception test: where the answers of its last
// run were saved, or why they were not. The adapter calls it after a
// NotePerception; it does nothing if the room has no class any more.
func (h *Hub) PerceptionNote(now time.Duration, name, text string) {
	h.begin()
	h.now = now
	r := h.rooms[name]
	if r == nil || r.class == nil {
		return
	}
	r.class.perc.note = text
	h.tellPerception(r, false)
}

// Perception returns the answers of the perception test of the room
// called name, its runs so far (those a Perception carries); ok is false
// if the room is not open or has no teacher. Use it only between calls of
// the hub.
func (h *Hub) Perception(name string) (trials []perception.Trial, running bool, ok bool) {
	r := h.rooms[name]
	if r == nil || r.class == nil {
		return nil, false, false
	}
	return slices.Clone(r.class.perc.trials), r.class.perc.run != nil, true
}
