package lab

import (
	"fmt"
	"time"

	"gridlag/grid"
)

// rehearsal is a lesson's step run ahead of time on a lab of its own, as
// the lesson gives it when nobody touches the lab: every scripted press,
// each wait's press at its moment. Its run (the step's events, from the
// start to the end) fills in the quantities of the step's texts, and
// what the lab shows at each moment fills in those of that moment's. A
// step given untouched runs the same events at the same times (the lab
// is deterministic), so the texts it shows are the rehearsal's; a step
// someone touched (a key, a slider) shows texts filled from its own run
// so far (see Lab.shown).
type rehearsal struct {
	run     *runLog
	title   string
	say     []string
	moments []rehearsedMoment
}

// rehearsedMoment is a moment of a rehearsed step: what the lab shows
// when it is reached (its words and question are filled from that) and
// after its wait's press (its answer), and those texts filled.
type rehearsedMoment struct {
	at, after        moment
	say              []string
	question, answer string
}

// filledText is one text of a lesson as the lab shows it: its line in
// the lesson file, and the text filled.
type filledText struct {
	Line int
	filled
}

// standstill is the wall clock of a rehearsal, which the lab drives by
// hand.
func standstill() time.Time { return time.Time{} }

// rehearse runs step i of lesson on a lab of its own, from base and the
// lesson's settings, and fills in its texts; the error names the line of
// a placeholder the run cannot fill (it names an event the step never
// has, or adds what is not a time).
func rehearse(lesson *Lesson, base Config, i int) (*rehearsal, []filledText, error) {
	cfg, err := lesson.config(base, i)
	if err != nil {
		return nil, nil, err
	}
	l, err := New(cfg, standstill)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: step %d: %w", lesson.Name, i+1, err)
	}
	l.log = newRunLog(l)
	s := &lesson.Steps[i]
	start := l.snapshot()
	rh := &rehearsal{run: l.log}
	for _, m := range s.Moments {
		l.advanceTo(l.origin + m.At)
		rm := rehearsedMoment{at: l.snapshot()}
		if m.Wait != nil {
			l.press(m.Wait)
		}
		rm.after = l.snapshot()
		rh.moments = append(rh.moments, rm)
	}
	if s.End > 0 {
		l.advanceTo(l.origin + s.End)
	}
	var all []filledText
	text := func(line int, raw string, at moment) (string, error) {
		if raw == "" {
			return "", nil
		}
		f, err := fill(raw, at, rh.run, true)
		if err != nil {
			return "", fmt.Errorf("%s:%d: %v", lesson.Name, line, err)
		}
		all = append(all, filledText{Line: line, filled: f})
		return f.text, nil
	}
	if rh.title, err = text(s.TitleLine, s.Title, start); err != nil {
		return nil, nil, err
	}
	for j, say := range s.Say {
		t, err := text(s.SayLines[j], say, start)
		if err != nil {
			return nil, nil, err
		}
		rh.say = append(rh.say, t)
	}
	for j := range s.Moments {
		m, rm := &s.Moments[j], &rh.moments[j]
		for k, say := range m.Say {
			t, err := text(m.SayLines[k], say, rm.at)
			if err != nil {
				return nil, nil, err
			}
			rm.say = append(rm.say, t)
		}
		if rm.question, err = text(m.QuestionLine, m.Question, rm.at); err != nil {
			return nil, nil, err
		}
		if rm.answer, err = text(m.AnswerLine, m.Answer, rm.after); err != nil {
			return nil, nil, err
		}
	}
	return rh, all, nil
}

// press presses the key a lesson's wait asks for.
func (l *Lab) press(w *Wait) {
	p := l.players[w.Player]
	if w.Key == "zap" {
		p.Zap()
		return
	}
	d, _ := grid.ParseDir(w.Key)
	p.Press(d)
}

// shown returns texts as the lab shows them now: the rehearsal's when the
// step has run as rehearsed so far and the lab shows what it showed then
// (rehearsed, at), else filled from the lab as it is and its run so far,
// with what has not happened yet pending.
func (l *Lab) shown(rehearsed []string, at moment, raw ...string) []string {
	if l.log != nil && l.log.follows(l.lesson.rehearsed().run) && l.snapshot().equal(at) {
		return rehearsed
	}
	now := l.snapshot()
	out := make([]string, len(raw))
	for i, s := range raw {
		f, _ := fill(s, now, l.log, false) // checked when the lesson was loaded
		out[i] = f.text
	}
	return out
}
