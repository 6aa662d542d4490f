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
		"How much lag can you feel? You are Player 1, and you play blind: each round gives your link a round trip you are not told, sometimes none at all.",
		"Move and zap for a few seconds, then answer: y if that felt laggy, n if it felt fine. Some rounds have prediction on, some off, shuffled.",
		"At the end you see your own curve: the share of rounds you called laggy against the round trip, one curve with prediction on, one with it off.",
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
	out := []string{fmt.Sprintf("You answered %d of %d rounds, at round trips from %s to %s, shuffled. Your threshold is where your curve crosses 50%%: the round trip you call laggy half the time.",
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
			out = append(out, fmt.Sprintf("Prediction raised your threshold by %s: with it on your own moves show at once, and only the server's answers (a zap's hit, the others) wait a round trip. That is Part II of the lecture, measured on you.", msText(on.ms-off.ms)))
		case on.kind == perception.Above && off.kind == perception.Found:
			out = append(out, fmt.Sprintf("With prediction on you felt none of the round trips tested, and without it you did from %s on: prediction hid them from you. That is Part II of the lecture, measured on you.", msText(off.ms)))
		case on.kind == perception.Found && off.kind == perception.Found:
			out = append(out, fmt.Sprintf("Your threshold without prediction is not below the one with it (%s against %s): a few rounds each are few, and a blind guess moves a curve by a whole step. Take the test again and compare.", msText(off.ms), msText(on.ms)))
		}
	}
	return out
}

// curveSentence says one curve of a student's run: its threshold and
// the levels it lies between, and its false alarms.
func curveSentence(c perception.Curve, ms float64, kind perception.Kind, levels []int) string {
	word := "With prediction on"
	if !c.Predict {
		word = "With prediction off"
	}
	var s string
	switch kind {
	case perception.Found:
		lo, hi := around(levels, ms)
		s = fmt.Sprintf("%s your threshold is %s", word, msText(ms))
		if lo != hi {
			s += fmt.Sprintf(", between the round trips tested at %s and %s", msText(float64(lo)), msText(float64(hi)))
		}
	case perception.Above:
		s = fmt.Sprintf("%s you felt none of the round trips as laggy half the time: your threshold is above %s, the highest tested", word, msText(ms))
	case perception.Guessing:
		s = fmt.Sprintf("%s you said laggy at least half the time with no lag at all: you were guessing, and there is no threshold", word)
	default:
		s = fmt.Sprintf("%s you answered no round", word)
	}
	if z, ok := c.Zero(); ok {
		s += fmt.Sprintf("; at 0ms you said laggy %d times of %d (false alarms)", z.LaggyAnswers, z.Trials)
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
