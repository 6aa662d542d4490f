package lab

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"gridlag/internal/doctest"
	"gridlag/tui"
)

// TestLessonNumbersComeFromTheRun: every number a bundled lesson shows
// (a step's title, its words, a question, an answer) is filled in from
// the run, or is a name (Player 2, #3 of an input the run sends, Lesson
// 4); and given as a class gets it, each step runs exactly the events
// its rehearsal ran, and the lab shows at each moment what it showed in
// the rehearsal, so that the numbers filled in are the run's own.
func TestLessonNumbersComeFromTheRun(t *testing.T) {
	for n := 1; n <= BuiltinLessons; n++ {
		lesson, err := BuiltinLesson(n)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(lesson.Name, func(t *testing.T) {
			findings, err := AuditLesson(lesson, Default())
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range findings {
				t.Error(f)
			}
			placeholders := 0
			for _, st := range lesson.Steps {
				for _, s := range st.Say {
					phs, _ := parseText(s, excerpt)
					placeholders += len(phs)
				}
			}
			seen := map[string]bool{}
			shown := 0
			giveLesson(t, lesson, func(l *Lab) {
				r := l.lesson
				rh := r.rehearsed()
				key := fmt.Sprintf("%d/%d/%d", r.step, r.next, r.phase)
				if seen[key] {
					return
				}
				seen[key] = true
				if !l.log.follows(rh.run) {
					t.Fatalf("step %d, at %v: the run is not the rehearsed one", r.step+1, l.Now())
				}
				var want moment
				switch r.phase {
				case waiting, asking:
					want = rh.moments[r.next].at
					if r.phase == asking && r.current().Moments[r.next].Wait != nil {
						want = rh.moments[r.next].after
					}
				case answered:
					want = rh.moments[r.next].after
				case ended:
					if !slices.Equal(l.log.events, rh.run.events) {
						t.Fatalf("step %d ended with events\n%v\nthe rehearsal had\n%v", r.step+1, l.log.events, rh.run.events)
					}
					return
				default:
					return
				}
				if now := l.snapshot(); !now.equal(want) {
					t.Fatalf("step %d, moment %d (phase %d): the lab shows\n%v\nthe rehearsal showed\n%v", r.step+1, r.next+1, r.phase, now, want)
				}
				shown++
			})
			if shown == 0 {
				t.Fatal("no moment was compared")
			}
		})
	}
}

// lessonTexts gives lesson (text) to its end untouched and returns every
// text it showed: step titles, words, questions and answers.
func lessonTexts(t *testing.T, text string) string {
	t.Helper()
	lesson, err := ParseLesson("l.txt", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	var all []string
	last := tui.LabLesson{}
	giveLesson(t, lesson, func(l *Lab) {
		ls, _ := l.Lesson()
		if ls.Step != last.Step {
			all = append(all, ls.Step)
		}
		if !slices.Equal(ls.Say, last.Say) {
			all = append(all, ls.Say...)
		}
		if ls.Question != last.Question && ls.Question != "" {
			all = append(all, ls.Question)
		}
		if ls.Answer != last.Answer && ls.Answer != "" {
			all = append(all, ls.Answer)
		}
		last = ls
	})
	return strings.Join(all, "\n")
}

// builtinText returns built-in lesson n's text.
func builtinText(t *testing.T, n int) string {
	t.Helper()
	text, err := BuiltinLessonText(n)
	if err != nil {
		t.Fatal(err)
	}
	return text
}

// TestTheTwoSentencesSayWhatTheRunDoes: Lesson 2's rubber band stands
// still 150 ms, then 100 ms (the lab's moves are not animated, the
// article's are); Lesson 4's Player 2 had left the line 175 ms before
// the zap arrived (it reached the server at 75 ms, the zap at 250). And
// a lesson that changes the run changes the sentence: at 300 ms of round
// trip the zap arrives at 300 ms, 225 ms after Player 2 left.
func TestTheTwoSentencesSayWhatTheRunDoes(t *testing.T) {
	for _, c := range []struct {
		lesson  int
		replace [2]string
		want    string
	}{
		{2, [2]string{}, "two cells right, 150ms still, one back, 100ms still, one forward"},
		{4, [2]string{}, "Player 2's step reached the server at 75ms, the zap at 250ms: Player 2 had left the line 175ms before the zap arrived"},
		{4, [2]string{"set latency 200ms", "set latency 300ms"}, "Player 2's step reached the server at 75ms, the zap at 300ms: Player 2 had left the line 225ms before the zap arrived"},
		{4, [2]string{"set latency 200ms", "set latency 300ms"}, "Player 1 (300ms round trip) zaps RIGHT at 150ms"},
		{2, [2]string{"set latency 250ms", "set latency 400ms"}, "two cells right, 300ms still, one back, 100ms still, one forward"},
		{3, [2]string{"set rate 3", "set rate 5"}, "draws the world 217ms in the past (one update interval and a frame"},
	} {
		text := builtinText(t, c.lesson)
		if c.replace[0] != "" {
			if !strings.Contains(text, c.replace[0]) {
				t.Fatalf("lesson %d has no %q", c.lesson, c.replace[0])
			}
			text = strings.Replace(text, c.replace[0], c.replace[1], 1)
		}
		if got := lessonTexts(t, text); !strings.Contains(got, c.want) {
			t.Errorf("lesson %d with %q: the lab does not say %q; it says\n%s", c.lesson, c.replace[1], c.want, got)
		}
	}
}

// TestTouchedLabFillsFromItsOwnRun: once someone changes the lab during
// a step (here Player 1's round trip, from 200 to 300 ms, before Lesson
// 4's second step runs), the texts are filled from what the lab shows
// and its own run, not the rehearsal's; what has not happened yet shows
// as "…".
func TestTouchedLabFillsFromItsOwnRun(t *testing.T) {
	lesson, err := ParseLesson("l.txt", strings.NewReader(strings.Replace(builtinText(t, 4),
		"at 350ms\nask Hit or miss?", "at 200ms\nask When will the zap arrive? Not before {p1.arrived.1}.\nanswer Soon.\ncheck t 0.200s\nat 350ms\nask Hit or miss?", 1)))
	if err != nil {
		t.Fatal(err)
	}
	w := &wall{t: time.Date(2026, 11, 23, 20, 0, 0, 0, time.UTC)}
	l, err := NewLesson(lesson, Default(), w.now)
	if err != nil {
		t.Fatal(err)
	}
	m := l.Model()
	run := func() tui.LabLesson { // to the next question
		m.Continue()
		for i := 0; i < 10_000; i++ {
			if ls, _ := m.Lesson(); ls.Question != "" && ls.Answer == "" {
				return ls
			}
			w.pass(10 * time.Millisecond)
			m.Sync()
		}
		t.Fatal("no question came")
		return tui.LabLesson{}
	}
	for l.lesson.step == 0 { // to the second step
		m.Continue()
		w.pass(10 * time.Millisecond)
		m.Sync()
	}
	l.Players()[0].SetLatency(300 * ms)
	if ls := run(); !strings.Contains(ls.Question, "Not before "+pending+".") {
		t.Errorf("a touched lab, at 200 ms, says %q: the zap has not arrived", ls.Question)
	}
	m.Continue() // the answer
	run()        // on to the next question
	m.Continue() // its answer
	ls, _ := m.Lesson()
	if want := "reached the server at 75ms, the zap at 300ms: Player 2 had left the line 225ms before"; !strings.Contains(ls.Answer, want) {
		t.Errorf("a touched lab answers %q, want %q", ls.Answer, want)
	}
}

// TestBadPlaceholders: a placeholder the lab cannot fill is an error
// naming the file and the line, quoting the placeholder and nothing else
// of the file; braces that are no placeholder are written as they are.
func TestBadPlaceholders(t *testing.T) {
	secret := "the teacher's private note on line 1"
	head := "# " + secret + "\ntitle T\nset presses right@0ms\nstep S\n"
	for _, c := range []struct{ text, want string }{
		{"say at {p1.sent.0}\n", `l.txt:5: {p1.sent.0}: no quantity "p1.sent.0"`},
		{"say {p3.sees}\n", `l.txt:5: {p3.sees}: no quantity "p3.sees"`},
		{"say where {p1.sees is\n", `l.txt:5: "{p1.sees is" has no closing }`},
		{"say {p1.sees p1.ghost}\n", `l.txt:5: {p1.sees p1.ghost}: want + or - between two quantities`},
		{"say {p1.sent.1 -}\n", `l.txt:5: {p1.sent.1 -}: want a quantity, or times joined by + and -`},
		{"at 10ms\nask A?\nanswer {p1.sees - t}\ncheck t 0.010s\n", "l.txt:7: {p1.sees - t}: p1.sees is not a time"},
		{"say {p1.sent.5}\n", "l.txt:5: {p1.sent.5}: Player 1 sends no input #5 in this step"},
		{"say {p2.moved.1}\n", "l.txt:5: {p2.moved.1}: Player 2 does not move 1 times on its board in this step"},
		{"say {p1.acked.1}\nend 10ms\n", "l.txt:5: {p1.acked.1}: Player 1 is never told the server processed #1 in this step"},
		{"say {" + strings.Repeat("x", 200) + "}\n", `l.txt:5: {xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…}: no quantity`},
	} {
		lesson, err := ParseLesson("l.txt", strings.NewReader(head+c.text))
		if err == nil {
			_, err = NewLesson(lesson, Default(), time.Now)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), secret) || len(err.Error()) > 200 {
			t.Errorf("%q: error %v, want one saying %q", c.text, err, c.want)
		}
	}
	if _, err := ParseLesson("l.txt", strings.NewReader("title Lesson at {p1.latency}\nstep S\n")); err == nil || !strings.Contains(err.Error(), "l.txt:1: the lesson's title") {
		t.Errorf("a placeholder in the lesson's title: %v", err)
	}
	got := lessonTexts(t, "title T\nset rate 0\nset presses right@0ms\nstep Keys { } and {{p1.sees}}\nsay Rate keys { and }, {{literal}}, } alone; p1 at {p1.sees}.\nend 300ms\n")
	for _, want := range []string{"Keys { } and {p1.sees}", "Rate keys { and }, {literal}, } alone; p1 at (10,10)."} {
		if !strings.Contains(got, want) {
			t.Errorf("braces: the lab says %q, want %q", got, want)
		}
	}
}

// FuzzLessonText: no lesson text makes the lab panic; one it reads, it
// fills.
func FuzzLessonText(f *testing.F) {
	for _, s := range []string{"{p1.sees}", "{p1.sent.1 - p2.arrived.1}", "{{", "{a", "{p1.sent.99999999999}", "}{", "{p1.moved.1+t-t}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.ContainsAny(s, "\n\r") {
			return
		}
		lesson, err := ParseLesson("f.txt", strings.NewReader("title T\nset presses right@0ms\nstep S\nsay "+s+"\nend 200ms\n"))
		if err != nil {
			return
		}
		_, _ = NewLesson(lesson, Default(), time.Now)
	})
}

// TestDocsNameEveryQuantity: the page with "Numbers from the run" (the
// lab's) names every quantity a placeholder takes, and every fact a
// check takes.
func TestDocsNameEveryQuantity(t *testing.T) {
	page, _ := doctest.Containing(t, "\n### Numbers from the run\n")
	text := doctest.Flat(page.Text)
	for _, q := range allQuantities() {
		if !strings.Contains(text, "`"+q.name+"`") {
			t.Errorf("%s does not name %s (%s)", page.Path, q.name, q.help)
		}
	}
}
