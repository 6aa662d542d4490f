package lab

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/internal/doctest"
)

// giveLesson runs lesson to its end on a hand-moved wall clock, as a
// class would: it presses what each wait asks for, answers each question
// with the continue key and lets the clock run (10 ms of wall time a
// frame) in between. It returns every answered moment's checks.
func giveLesson(t *testing.T, lesson *Lesson, observe ...func(*Lab)) (results []CheckResult, questions int) {
	t.Helper()
	w := &wall{t: time.Date(2026, 11, 23, 20, 0, 0, 0, time.UTC)}
	l, err := NewLesson(lesson, Default(), w.now)
	if err != nil {
		t.Fatal(err)
	}
	return give(t, l, w, observe...)
}

// give gives the lesson or lecture of lab l to its end, as giveLesson
// does; observe sees the lab before each frame.
func give(t *testing.T, l *Lab, w *wall, observe ...func(*Lab)) (results []CheckResult, questions int) {
	t.Helper()
	m := l.Model()
	for frames := 0; l.lesson.phase != done; frames++ {
		for _, o := range observe {
			o(l)
		}
		if frames > 2_000_000 {
			t.Fatalf("%s: the lesson never ended (step %d, phase %d)", l.lesson.lesson.Name, l.lesson.step+1, l.lesson.phase)
		}
		ls, _ := m.Lesson()
		switch {
		case ls.Wait != "":
			wt := l.lesson.current().Moments[l.lesson.next].Wait
			if wt.Key == "zap" {
				m.Player(wt.Player).Zap()
			} else {
				d, _ := grid.ParseDir(wt.Key)
				m.Player(wt.Player).Press(d)
			}
		case ls.Next != "":
			if l.lesson.phase == answered {
				results = append(results, l.lesson.results...)
				questions++
				if ls.Answer == "" || ls.Shows == "" && len(l.lesson.current().Moments[l.lesson.next].Checks) > 0 {
					t.Errorf("%s: the answer shows %+v", l.lesson.lesson.Name, ls)
				}
			}
			m.Continue()
		default:
			w.pass(10 * time.Millisecond)
			m.Sync()
		}
	}
	return results, questions
}

// TestBuiltinLessons: each built-in lesson, run to its end on the virtual
// clock, asks every question it has, each with at least one check, and
// every check's value is what the lab shows when the answer is given.
func TestBuiltinLessons(t *testing.T) {
	for n := 1; n <= BuiltinLessons; n++ {
		lesson, err := BuiltinLesson(n)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			want := 0
			for _, s := range lesson.Steps {
				for _, m := range s.Moments {
					if m.Question != "" {
						want++
						if len(m.Checks) == 0 {
							t.Errorf("%s:%d: a question with nothing the lab checks", lesson.Name, m.Line)
						}
					}
				}
			}
			results, asked := giveLesson(t, lesson)
			if asked != want || want == 0 {
				t.Errorf("%s: %d questions answered, the lesson has %d", lesson.Name, asked, want)
			}
			for _, r := range results {
				if !r.OK() {
					t.Errorf("%s:%d: check %s: the lab shows %q, the lesson says %q", lesson.Name, r.Line, r.What, r.Got, r.Want)
				}
			}
		})
	}
	if _, err := BuiltinLesson(BuiltinLessons + 1); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("1 to %d", BuiltinLessons)) {
		t.Errorf("lesson %d: %v", BuiltinLessons+1, err)
	}
}

// TestNotALesson: a file that is not a lesson (a password file, a shell
// script, a binary, one of comments alone) is refused as not a lesson
// file, with its line and why, and none of its text: not its first line,
// not a word of it, not a value it gave a setting.
func TestNotALesson(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"root:$6$Zq8Ab$9sEcReT.hash:19700:0:99999:7:::\ndaemon:*:19700:0:99999:7:::\n",
			"shadow is not a lesson file: line 1 does not start with a lesson's directive (title, set, step, say, at, wait, ask, answer, check or end)"},
		{"\n# secret: hunter2\n\nPASSWORD=hunter2\n", "shadow is not a lesson file: line 4 does not start with a lesson's directive"},
		{"\x7fELF\x02\x01\x01\x00hunter2\x00", "shadow is not a lesson file: line 1 does not start"},
		{"#!/bin/sh\nset -euo hunter2\n", `shadow:2: no setting "…": want one of latency,`},
		{"set latency hunter2\n", "shadow:1: latency …: want a round trip"},
		{"at hunter2\n", "shadow:1: at before the first step"},
		{"# hunter2\n", "shadow is not a lesson file: it has no directive"},
		{"", "shadow is not a lesson file: it has no directive"},
	} {
		_, err := ParseLesson("shadow", strings.NewReader(c.text))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one starting %q", c.text, err, c.want)
			continue
		}
		for _, secret := range []string{"hunter2", "root", "$6$", "ELF", "euo", "9sEcReT"} {
			if strings.Contains(err.Error(), secret) {
				t.Errorf("%q: the error %q quotes the file (%q)", c.text, err, secret)
			}
		}
	}
	path := filepath.Join(t.TempDir(), "shadow")
	if err := os.WriteFile(path, []byte("root:$6$hunter2:19700:0:99999:7:::\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadLesson(path); err == nil || strings.Contains(err.Error(), "hunter2") || !strings.Contains(err.Error(), "shadow is not a lesson file: line 1") {
		t.Errorf("LoadLesson(%s): %v", path, err)
	}
}

// TestBadLessons: a lesson file with a mistake is refused with its name,
// the line and what is wrong, quoting a short excerpt of the line with
// no control character in it.
func TestBadLessons(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"title T\nstep S\nset latency 250\n", "mine.txt:3: latency 250: want a round trip from 0 to 1s"},
		{"title T\nstep S\nset lateness 250ms\n", `mine.txt:3: no setting "lateness": want one of latency, latency2,`},
		{"title T\nstep S\nat 100ms\nask Where?\ncheck p1.sees (11,10)\n", "mine.txt: line 3: the question at 100ms has no answer"},
		{"step S\nask Where?\n", "mine.txt:2: ask comes after an at"},
		{"step S\nat 200ms\nat 100ms\n", "mine.txt:3: at 100ms: the moments of a step come in time order"},
		{"step S\nat 1s\nask A?\nanswer B\ncheck p1.seez (1,1)\n", `mine.txt:5: check p1.seez (1,1): no fact "p1.seez"`},
		{"step S\nat 1s\nwait p3 right\n", "mine.txt:3: wait p3 right: want p1 or p2 and a key"},
		{"step S\nat soon\n", "mine.txt:2: at soon: want a time from the step's start"},
		{"# nothing\ntitle T\n", "mine.txt: a lesson needs at least one step"},
		{"title T\nsay hello\n", "mine.txt:2: say before the first step"},
		{"title T\nstep S\nmove right\n", `mine.txt:3: unknown directive "move"`},
		{"title T\nstep\n", "mine.txt:2: step needs something after it"},
		{"step S\nend 1s\nat 2s\n", "mine.txt:3: nothing comes after a step's end"},
		{"step S\nset presses2 right@soon\n", "mine.txt:2: presses2 right@soon: want presses DIRECTION@TIME"},
	} {
		_, err := ParseLesson("mine.txt", strings.NewReader(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("lesson %q: error %v, want one saying %q", c.text, err, c.want)
		}
	}
	long := strings.Repeat("x", 200)
	for _, c := range []struct{ text, want string }{
		{"title T\nstep S\nat \x1b[31m\x00red\n", "mine.txt:3: at ?[31m?red: want a time"},
		{"title T\nstep S\nat " + long + "\n", "mine.txt:3: at " + long[:40] + "…: want a time"},
		{"title T\nstep S\n\x1b]0;owned\x07 x\n", `mine.txt:3: unknown directive "?]0;owned?": want title, set, step`},
	} {
		_, err := ParseLesson("mine.txt", strings.NewReader(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.ContainsAny(err.Error(), "\x1b\x00\x07") {
			t.Errorf("lesson %q: error %q, want one saying %q, no control character", c.text, err, c.want)
		}
	}
	l, err := ParseLesson("ok.txt", strings.NewReader("title T\nset rate 0\nstep S\nset latency2 100ms\nset presses none\nat 0ms\nwait p2 zap\nend 1s\n"))
	if err != nil || len(l.Steps) != 1 || l.Steps[0].Moments[0].Wait.Player != 1 || len(l.Settings) != 1 {
		t.Fatalf("a good lesson: %+v, %v", l, err)
	}
	if _, err := LoadLesson("no/such/lesson.txt"); err == nil {
		t.Error("a missing lesson file loaded")
	}
}

// TestLessonSettingsOnTopOfTheFlags: a lesson's settings apply on top of
// the lab's flags, its steps' on top of the lesson's; each step starts
// again from t=0, paused, the lab as its settings say.
func TestLessonSettingsOnTopOfTheFlags(t *testing.T) {
	lesson, err := ParseLesson("s.txt", strings.NewReader(
		"title T\nset latency 300ms\nstep A\nset rate 0\nend 100ms\nstep B\nset latency2 50ms\nend 100ms\n"))
	if err != nil {
		t.Fatal(err)
	}
	base := Default()
	base.Rate = 7
	base.Players[1].Jitter = 30 * ms
	w := &wall{t: time.Date(2026, 11, 23, 20, 0, 0, 0, time.UTC)}
	l, err := NewLesson(lesson, base, w.now)
	if err != nil {
		t.Fatal(err)
	}
	p1, p2 := l.Players()[0].View(), l.Players()[1].View()
	if l.Rate() != 0 || p1.Latency != 300*ms || p2.Jitter != 30*ms || !l.Paused() || l.Now() != 0 {
		t.Fatalf("step A: rate %d, latency %v, jitter2 %v, paused %v at %v", l.Rate(), p1.Latency, p2.Jitter, l.Paused(), l.Now())
	}
	if ls, _ := l.Lesson(); ls.Step != "step 1 of 2: A" || ls.Next != "run the step" {
		t.Fatalf("step A says %+v", ls)
	}
	l.Continue()
	w.pass(time.Second)
	l.Sync()
	if ls, _ := l.Lesson(); l.Now() != 100*ms || ls.Next != "next step" || !l.Paused() {
		t.Fatalf("at the end of step A, at %v: %+v", l.Now(), ls)
	}
	l.Continue()
	p1, p2 = l.Players()[0].View(), l.Players()[1].View()
	if l.Rate() != 7 || p1.Latency != 300*ms || p2.Latency != 50*ms || l.Now() != 0 || !l.Paused() {
		t.Fatalf("step B: rate %d, latency %v, latency2 %v, at %v", l.Rate(), p1.Latency, p2.Latency, l.Now())
	}
	l.Restart()
	if ls, _ := l.Lesson(); ls.Step != "step 2 of 2: B" || l.Now() != 0 {
		t.Fatalf("restarted, the lesson shows %+v at %v", ls, l.Now())
	}
}

// TestReadmeLesson: the lesson the documentation shows as an example is
// a lesson gridlag reads, and given to its end every check of its
// answers holds, so the example says what the lab shows.
func TestReadmeLesson(t *testing.T) {
	page, i := doctest.Containing(t, "```\n# mine.txt")
	text, _, _ := strings.Cut(page.Text[i+len("```\n"):], "```")
	lesson, err := ParseLesson("mine.txt", strings.NewReader(text))
	if err != nil {
		t.Fatalf("%s's lesson: %v", page.Path, err)
	}
	results, asked := giveLesson(t, lesson)
	if asked != 2 || len(results) != 3 {
		t.Errorf("%s's lesson asked %d questions and checked %d facts, want 2 and 3", page.Path, asked, len(results))
	}
	for _, r := range results {
		if !r.OK() {
			t.Errorf("%s's lesson, line %d: check %s: the lab shows %q, the page says %q", page.Path, r.Line, r.What, r.Got, r.Want)
		}
	}
}
