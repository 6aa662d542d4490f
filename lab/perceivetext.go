package lab

import (
	"fmt"
	"math"
	"time"

	"gridlag/client"
	"gridlag/internal/perception"
)

// The lecture's part of the perception test (`part perception` in a
// lecture file): one step, whose words say what the test is and how to
// answer; the continue key starts the test, Player 1 the student, and
// once it is over the step's words are the student's own results, every
// number in them from the run (PerceptionExplained).

// PerceptionPart is the word of a lecture's part that gives the
// perception test.
const PerceptionPart = "perception"

// perceptionLesson is the part's lesson: a step of words, no script.
func perceptionLesson() *Lesson {
	say := []string{
		"How much lag can you feel? You are Player 1 and play blind: each round gives your link a round trip you are not told.",
		"Move and zap, then answer: y laggy, n fine. Prediction is on in some rounds, off in others.",
		"At the end: your own curve, prediction on and off.",
	}
	lines := make([]int, len(say))
	return &Lesson{Name: "perception", Title: "How much lag can you feel?",
		Steps: []LessonStep{{Title: "the blind perception test", Say: say, SayLines: lines}}}
}

// perceptionPartDone ends the lecture's part once its test is over: its
// words are the results, and the continue key goes on.
func (l *Lab) perceptionPartDone() {
	r := l.lesson
	r.testing = false
	r.say = PerceptionExplained(l.test.trials)
	if l.test.note != "" {
		r.say = append(r.say, l.test.note+".")
	}
	r.phase = ended
	l.Pause()
}

// PerceptionExplained explains a student's run of the test in a few
// sentences, every number from trials: how many rounds were answered,
// the threshold and false alarms of each prediction tested, and what
// prediction changed.
func PerceptionExplained(trials []perception.Trial) []string {
	a := perception.Analyse(trials)
	answered := 0
	for _, t := range trials {
		if t.Answer != perception.NoAnswer {
			answered++
		}
	}
	if answered == 0 {
		return []string{fmt.Sprintf("You answered none of the %d rounds played: there is no curve to read. Press Backspace to take the test again.", len(trials))}
	}
	levels := a.Levels()
	out := []string{fmt.Sprintf("You answered %d of %d rounds (%s to %s, shuffled). Your threshold: the round trip you call laggy half the time.",
		answered, len(trials), msText(float64(levels[0])), msText(float64(levels[len(levels)-1])))}
	var th [2]struct {
		ms   float64
		kind perception.Kind
		ok   bool
	}
	for _, c := range a.Curves {
		ms, kind := perception.Fifty(c.Points)
		i := curveSlot(c.Predict)
		th[i].ms, th[i].kind, th[i].ok = ms, kind, true
		out = append(out, curveSentence(c, ms, kind, levels))
	}
	on, off := th[0], th[1]
	if on.ok && off.ok {
		switch {
		case on.kind == perception.Found && off.kind == perception.Found && on.ms > off.ms:
			out = append(out, fmt.Sprintf("Prediction raised your threshold by %s: with it your moves show at once; only the server's answers wait a round trip (Part II, measured on you).", msText(on.ms-off.ms)))
		case on.kind == perception.Above && off.kind == perception.Found:
			out = append(out, fmt.Sprintf("With prediction you felt none of them; without it, from %s on: prediction hid them (Part II, measured on you).", msText(off.ms)))
		case on.kind == perception.Found && off.kind == perception.Found:
			out = append(out, fmt.Sprintf("Without prediction your threshold is not below (%s against %s): few rounds, and one guess moves a curve a step. Take it again (p).", msText(off.ms), msText(on.ms)))
		}
	}
	return out
}

// curveSentence says one curve of a student's run: its threshold and
// the levels it lies between, and its false alarms.
func curveSentence(c perception.Curve, ms float64, kind perception.Kind, levels []int) string {
	word := "Prediction on"
	if !c.Predict {
		word = "Prediction off"
	}
	var s string
	switch kind {
	case perception.Found:
		lo, hi := around(levels, ms)
		s = fmt.Sprintf("%s: %s", word, msText(ms))
		if lo != hi {
			s += fmt.Sprintf(" (between %s and %s tested)", msText(float64(lo)), msText(float64(hi)))
		}
	case perception.Above:
		s = fmt.Sprintf("%s: above %s, the highest tested (none felt laggy half the time)", word, msText(ms))
	case perception.Guessing:
		s = fmt.Sprintf("%s: no threshold (laggy half the time or more with no lag: guessing)", word)
	default:
		s = fmt.Sprintf("%s: no round answered", word)
	}
	if z, ok := c.Zero(); ok {
		s += fmt.Sprintf("; laggy %d of %d times at 0ms (false alarms)", z.LaggyAnswers, z.Trials)
	}
	return s + "."
}

// around returns the levels tested on either side of ms (ms itself twice
// when it is one).
func around(levels []int, ms float64) (lo, hi int) {
	lo, hi = levels[0], levels[len(levels)-1]
	for _, l := range levels {
		if float64(l) <= ms {
			lo = l
		}
		if float64(l) >= ms {
			hi = l
			break
		}
	}
	return lo, hi
}

// curveSlot is where prediction on (0) or off (1) goes.
func curveSlot(on bool) int {
	if on {
		return 0
	}
	return 1
}

// msText writes a round trip in ms as the lab's texts and boards do
// (client.Millis): "317ms".
func msText(ms float64) string {
	return client.Millis(time.Duration(math.Round(ms)) * time.Millisecond)
}
