package lab

import (
	"fmt"
	"strings"
	"time"

	"gridlag/grid"
	"gridlag/tui"
)

// phase is where a lesson's step stands.
type phase uint8

const (
	ready    phase = iota // at t=0, paused: the continue key runs the step
	running               // the clock runs to the next moment, or the end
	waiting               // paused at a moment until a player presses its key
	asking                // paused at a moment, its question shown
	answered              // its answer shown: the continue key goes on
	ended                 // at the step's end: the continue key goes to the next step
	done                  // after the last step
)

// lessonRun is a lecture (a lesson alone is a lecture of one part) being
// given on a lab.
type lessonRun struct {
	lecture *Lecture
	index   bool    // show the lecture's index: false for a lesson alone
	part    int     // the part given
	lesson  *Lesson // its lesson
	base    Config  // the lab's configuration before the lesson's settings
	step    int     // the step shown
	next    int     // the step's next moment to reach
	phase   phase
	results []CheckResult // the answered moment's checks
	// testing: the part's perception test runs (the part is one).
	testing bool
	// rehearsals are the steps rehearsed (see rehearsal), one a step of
	// each part.
	rehearsals [][]*rehearsal
	// What the lesson shows, its quantities filled in: the step's title,
	// the words, the question asked and its answer.
	title, question, answer string
	say                     []string
}

// NewLesson builds a lab that gives lesson: base (the lab's flags), then
// the lesson's settings, then its first step's; paused at the first
// step's start, whose words show.
func NewLesson(lesson *Lesson, base Config, wall func() time.Time) (*Lab, error) {
	return newLecture(single(lesson), false, base, wall)
}

// NewLecture builds a lab that gives lecture: its first part's first
// step, paused at its start, as NewLesson does, with the lecture's index.
func NewLecture(lecture *Lecture, base Config, wall func() time.Time) (*Lab, error) {
	return newLecture(lecture, true, base, wall)
}

func newLecture(lecture *Lecture, index bool, base Config, wall func() time.Time) (*Lab, error) {
	run, err := newLessonRun(lecture, index, base)
	if err != nil {
		return nil, err
	}
	first := lecture.Parts[0].Lesson
	cfg, err := first.config(base, 0)
	if err != nil {
		return nil, err
	}
	l, err := New(cfg, wall)
	if err != nil {
		return nil, fmt.Errorf("%s: step 1: %w", first.Name, err)
	}
	l.lesson = run
	l.startPart(0)
	return l, nil
}

// newLessonRun checks every step of every part of lecture (its settings
// and the quantities of its texts) by rehearsing it.
func newLessonRun(lecture *Lecture, index bool, base Config) (*lessonRun, error) {
	run := &lessonRun{lecture: lecture, index: index, base: base}
	for _, p := range lecture.Parts {
		var steps []*rehearsal
		for i := range p.Lesson.Steps {
			rh, _, err := rehearse(p.Lesson, base, i)
			if err != nil {
				return nil, err
			}
			steps = append(steps, rh)
		}
		run.rehearsals = append(run.rehearsals, steps)
	}
	return run, nil
}

// startPart starts part i of the lecture at its first step.
func (l *Lab) startPart(i int) {
	r := l.lesson
	r.part, r.lesson = i, r.lecture.Parts[i].Lesson
	l.startStep(0)
}

// rehearsed returns the rehearsal of the step shown.
func (r *lessonRun) rehearsed() *rehearsal { return r.rehearsals[r.part][r.step] }

// current returns the step shown.
func (r *lessonRun) current() *LessonStep { return &r.lesson.Steps[r.step] }

// startStep builds the lab of step i again from t=0, paused, its words
// shown.
func (l *Lab) startStep(i int) {
	r := l.lesson
	cfg, err := r.lesson.config(r.base, i)
	if err == nil {
		err = l.reset(cfg)
	}
	if err != nil { // checked by NewLesson: a step's lab builds
		l.caption = fmt.Sprintf("step %d: %v", i+1, err)
	}
	r.step, r.next, r.phase, r.results, r.testing = i, 0, ready, nil, false
	rh := r.rehearsed()
	r.title, r.say, r.question, r.answer = rh.title, rh.say, "", ""
}

// limit returns the world time the clock must not pass in a lesson: the
// next moment, or the step's end; ok is false when nothing bounds it.
func (l *Lab) limit() (at time.Duration, ok bool) {
	r := l.lesson
	if r == nil || r.phase != running {
		if r != nil && r.phase != ready {
			return l.world.Now(), true // stopped at a moment: stay there
		}
		return 0, false
	}
	s := r.current()
	switch {
	case r.next < len(s.Moments):
		return l.origin + s.Moments[r.next].At, true
	case s.End > 0:
		return l.origin + s.End, true
	}
	return 0, false
}

// reached does what comes at the lesson's limit once the lab stands on
// it: a moment (its words, its wait, its question) or the step's end.
func (l *Lab) reached() {
	r := l.lesson
	if r == nil || r.phase != running {
		return
	}
	l.Pause()
	s := r.current()
	if r.next >= len(s.Moments) {
		r.phase = ended
		return
	}
	m, rm := &s.Moments[r.next], &r.rehearsed().moments[r.next]
	if len(m.Say) > 0 {
		r.say = l.shown(rm.say, rm.at, m.Say...)
	}
	r.question, r.answer = "", ""
	if m.Question != "" {
		r.question = l.shown([]string{rm.question}, rm.at, m.Question)[0]
	}
	switch {
	case m.Wait != nil:
		r.phase = waiting
	case m.Question != "":
		r.phase = asking
	default:
		l.passMoment()
	}
}

// passMoment leaves the moment reached: on to the next, or to the step's
// end.
func (l *Lab) passMoment() {
	r := l.lesson
	r.next++
	s := r.current()
	if r.next >= len(s.Moments) && s.End == 0 {
		r.phase = ended
		return
	}
	r.phase = running
	l.clock.Resume()
}

// pressed tells the lesson that player i pressed key (a direction, or
// "zap"): the press a moment waits for lets it go on.
func (l *Lab) pressed(i int, key string) {
	r := l.lesson
	if r == nil || r.phase != waiting {
		return
	}
	m := &r.current().Moments[r.next]
	if m.Wait.Player != i || m.Wait.Key != key {
		return
	}
	if m.Question != "" {
		r.phase = asking
		return
	}
	l.passMoment()
}

// Continue goes on with the lesson: the step runs from its start, a
// question gets its answer, an answer lets the clock run on, a step's end
// leads to the next step. Outside a lesson, and while the lesson waits
// for a press or the clock runs, it does nothing.
func (l *Lab) Continue() {
	r := l.lesson
	if r == nil {
		return
	}
	switch r.phase {
	case ready:
		r.phase = running
		l.caption = ""
		l.clock.Resume()
		if r.lecture.Parts[r.part].Perception {
			r.testing = true
			l.StartPerception()
		}
	case asking:
		m, rm := &r.current().Moments[r.next], &r.rehearsed().moments[r.next]
		r.results = l.answer(m)
		r.answer = l.shown([]string{rm.answer}, rm.after, m.Answer)[0]
		r.phase = answered
	case answered:
		r.results = nil
		l.passMoment()
	case ended:
		switch {
		case r.step+1 < len(r.lesson.Steps):
			l.startStep(r.step + 1)
		case r.part+1 < len(r.lecture.Parts):
			l.startPart(r.part + 1)
		default:
			r.phase = done
		}
	case running:
		if s := r.current(); r.next >= len(s.Moments) && s.End == 0 && !r.testing {
			r.phase = ended // a step with no end runs until the key
			l.Pause()
		}
	}
}

// Lesson returns what the lesson says now, for the screen; ok is false
// outside a lesson.
func (l *Lab) Lesson() (out tui.LabLesson, ok bool) {
	r := l.lesson
	if r == nil {
		return out, false
	}
	s := r.current()
	out.Title = r.lesson.Title
	if r.index {
		out.Lecture, out.Part = r.lecture.Title, r.part
		for _, p := range r.lecture.Parts {
			out.Parts = append(out.Parts, p.Label)
		}
	}
	out.Step = fmt.Sprintf("step %d of %d: %s", r.step+1, len(r.lesson.Steps), r.title)
	out.Long = r.lecture.Parts[r.part].Perception
	out.Say = r.say
	if r.next < len(s.Moments) && r.phase >= waiting && r.phase <= answered {
		m := &s.Moments[r.next]
		out.Question = r.question
		if r.phase == waiting {
			out.Wait = fmt.Sprintf("%s: press %s", l.players[m.Wait.Player].Name(), strings.ToUpper(m.Wait.Key))
		}
		if r.phase == answered {
			out.Answer = r.answer
			var shows []string
			for _, c := range r.results {
				mark := "✓"
				if !c.OK() {
					mark = "✗"
				}
				shows = append(shows, mark+" "+c.String())
			}
			out.Shows = strings.Join(shows, "; ")
		}
	}
	last := r.step+1 == len(r.lesson.Steps)
	lastPart := r.part+1 == len(r.lecture.Parts)
	switch r.phase {
	case ready:
		out.Next = "run the step"
		if r.lecture.Parts[r.part].Perception {
			out.Next = "start the test"
		}
	case asking:
		out.Next = "the answer"
	case answered:
		out.Next = "go on"
	case ended:
		switch {
		case !last:
			out.Next = "next step"
		case !lastPart:
			out.Next = "next part: " + r.lecture.Parts[r.part+1].Label
		case r.index:
			out.Next = "end the lecture"
		default:
			out.Next = "end the lesson"
		}
	case running:
		if r.next >= len(s.Moments) && s.End == 0 && !r.testing {
			out.Next = "next step"
		}
	case done:
		out.Say = []string{"The end of the lesson. Backspace shows its last step again; q quits."}
		if r.index {
			out.Say = []string{"The end of the lecture. Backspace shows its last step again, < the part before; q quits."}
		}
	}
	return out, true
}

// pressKey names a press as a lesson's wait does.
func pressKey(d grid.Dir, zap bool) string {
	if zap {
		return "zap"
	}
	return strings.ToLower(d.String())
}
