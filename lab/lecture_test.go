package lab

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"gridlag/internal/doctest"
)

// TestLectureGivesPartsIToIV: the default lecture is the built-in
// lessons of Parts I to IV; given with the continue key alone it goes
// through every step of every part in order, its index naming the part
// given, from the last step of a part to the first of the next, and ends
// with the lecture; every check of every answer holds.
func TestLectureGivesPartsIToIV(t *testing.T) {
	lecture, err := DefaultLecture()
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for i, p := range lecture.Parts {
		labels = append(labels, p.Label)
		if want, _ := BuiltinLesson(i + 1); p.Lesson.Title != want.Title {
			t.Errorf("part %d is %q, want %q", i+1, p.Lesson.Title, want.Title)
		}
	}
	if want := []string{"I: round trip", "II: prediction", "III: interpolation", "IV: lag compensation"}; !slices.Equal(labels, want) {
		t.Fatalf("the parts are %q", labels)
	}
	w := &wall{t: time.Date(2026, 11, 23, 20, 0, 0, 0, time.UTC)}
	l, err := NewLecture(lecture, Default(), w.now)
	if err != nil {
		t.Fatal(err)
	}
	var walked []string // part / step, as the index and the step line say
	results, _ := give(t, l, w, func(l *Lab) {
		ls, _ := l.Lesson()
		if ls.Lecture != lecture.Title || !slices.Equal(ls.Parts, labels) {
			t.Fatalf("the index says %q %q", ls.Lecture, ls.Parts)
		}
		here := ls.Parts[ls.Part] + " / " + ls.Step
		if len(walked) == 0 || walked[len(walked)-1] != here {
			walked = append(walked, here)
		}
		if r := l.lesson; r.phase == ended && r.step+1 == len(r.lesson.Steps) && r.part < 3 {
			if want := "next part: " + labels[r.part+1]; ls.Next != want {
				t.Errorf("at the end of %s the continue key says %q, want %q", here, ls.Next, want)
			}
		}
	})
	if ls, _ := l.Lesson(); !strings.Contains(strings.Join(ls.Say, " "), "The end of the lecture") {
		t.Errorf("at the end the lecture says %q", ls.Say)
	}
	for _, r := range results {
		if !r.OK() {
			t.Errorf("check %s: the lab shows %q, the lesson says %q", r.What, r.Got, r.Want)
		}
	}
	steps := 0
	for i := 1; i <= 4; i++ {
		lesson, _ := BuiltinLesson(i)
		steps += len(lesson.Steps)
	}
	if len(walked) != steps {
		t.Errorf("walked %d steps, the four parts have %d:\n%s", len(walked), steps, strings.Join(walked, "\n"))
	}
	for i, label := range labels {
		if !slices.ContainsFunc(walked, func(s string) bool { return strings.HasPrefix(s, label+" / step 1 of") }) {
			t.Errorf("part %d (%s) was never started", i+1, label)
		}
	}
}

// TestLectureParts: > goes to the next part's start, paused at t=0; <
// goes back to the start of the part given, and from there to the part
// before; a lesson given alone has no index and no parts to go to; a
// free lab offered the lecture starts it with > and comes back with < as
// it started.
func TestLectureParts(t *testing.T) {
	lecture, _ := DefaultLecture()
	w := &wall{t: time.Date(2026, 11, 23, 20, 0, 0, 0, time.UTC)}
	l, err := NewLecture(lecture, Default(), w.now)
	if err != nil {
		t.Fatal(err)
	}
	m := l.Model()
	at := func() (int, string) {
		ls, _ := m.Lesson()
		return ls.Part, ls.Step
	}
	m.PrevPart() // on the first part's start: nothing before
	if p, st := at(); p != 0 || !strings.HasPrefix(st, "step 1 of") {
		t.Fatalf("< on Part I: part %d, %s", p, st)
	}
	m.NextPart()
	m.NextPart()
	if p, st := at(); p != 2 || !strings.HasPrefix(st, "step 1 of 2: Others cannot") || !l.Paused() || l.Now() != 0 || l.Rate() != 3 {
		t.Fatalf("> twice: part %d, %q, paused %v at %v, rate %d", p, st, l.Paused(), l.Now(), l.Rate())
	}
	m.Continue() // run the step
	w.pass(time.Second)
	m.Sync()
	m.PrevPart() // mid-part: its start again
	if p, st := at(); p != 2 || !strings.HasPrefix(st, "step 1 of") || l.Now() != 0 {
		t.Fatalf("< mid-part: part %d, %q at %v", p, st, l.Now())
	}
	m.PrevPart()
	if p, _ := at(); p != 1 {
		t.Fatalf("< at a part's start: part %d, want the one before", p)
	}
	for range 5 {
		m.NextPart()
	}
	if p, _ := at(); p != 3 {
		t.Fatalf("> past the last part: part %d", p)
	}
	if m.Offer() != "" {
		t.Errorf("a lecture offers %q", m.Offer())
	}

	lesson, _ := BuiltinLesson(2)
	l, err = NewLesson(lesson, Default(), w.now)
	if err != nil {
		t.Fatal(err)
	}
	l.Model().NextPart()
	if ls, _ := l.Lesson(); ls.Lecture != "" || ls.Parts != nil || ls.Title != lesson.Title {
		t.Fatalf("a lesson alone: %+v", ls)
	}

	free, _ := newLab(t, Default())
	if err := free.OfferLecture(lecture); err != nil {
		t.Fatal(err)
	}
	fm := free.Model()
	if fm.Offer() != lecture.Title {
		t.Fatalf("the free lab offers %q", fm.Offer())
	}
	fm.NextPart()
	if ls, ok := fm.Lesson(); !ok || ls.Part != 0 || ls.Lecture != lecture.Title || fm.Offer() != "" {
		t.Fatalf("> in the free lab: %+v, %v", ls, ok)
	}
	fm.PrevPart()
	if _, ok := fm.Lesson(); ok || fm.Offer() == "" || free.Rate() != 3 || free.Players()[0].View().Latency != 250*ms {
		t.Fatalf("< from Part I: in a lesson %v, rate %d, latency %v", ok, free.Rate(), free.Players()[0].View().Latency)
	}
}

// TestBadLectures: a lecture file with a mistake is refused with its
// name and line, and a mistake in a part's lesson with the lesson's too.
func TestBadLectures(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bad.txt"), []byte("title B\nstep S\nsay {p9.sees}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "mine.txt"), []byte("title Mine\nstep S\nsay Round trip {p1.latency}.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ text, want string }{
		{"title T\npart 9\n", "l.lec:2: part 9: no lesson 9: the lessons are 1 to " + strconv.Itoa(BuiltinLessons)},
		{"title T\npart nosuch.txt\n", "l.lec:2: part nosuch.txt: open"},
		{"title T\npart bad.txt\n", `l.lec:2: part bad.txt: bad.txt:3: {p9.sees}: no quantity "p9.sees"`},
		{"part 1\ntitle T\n", "l.lec:2: title comes once, before the first part"},
		{"title T\nlesson 1\n", `l.lec:2: unknown directive "lesson": want title or part`},
		{"title T\npart\n", "l.lec:2: part needs a lesson"},
		{"# nothing\ntitle T\n", "l.lec: a lecture needs at least one part"},
	} {
		_, err := ParseLecture("l.lec", dir, strings.NewReader(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("lecture %q: error %v, want one saying %q", c.text, err, c.want)
		}
	}
	path := filepath.Join(dir, "talk.lec")
	if err := os.WriteFile(path, []byte("part mine.txt\npart 4 Part IV\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	lec, err := LoadLecture(path)
	if err != nil {
		t.Fatal(err)
	}
	if lec.Title != "Mine" || lec.Parts[0].Label != "Mine" || lec.Parts[1].Label != "Part IV" {
		t.Fatalf("talk.lec: %q, parts %q and %q", lec.Title, lec.Parts[0].Label, lec.Parts[1].Label)
	}
	l, err := NewLecture(lec, Default(), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	if ls, _ := l.Lesson(); !slices.Equal(ls.Say, []string{"Round trip 250ms."}) {
		t.Errorf("a teacher's lesson in a lecture says %q", ls.Say)
	}
}

// TestDocsLecture: the lecture file the documentation shows, with its
// mine.txt beside it, is a lecture gridlag gives, its parts labelled as
// the file says.
func TestDocsLecture(t *testing.T) {
	block := func(first string) string {
		page, at := doctest.Containing(t, "```\n"+first)
		text, _, _ := strings.Cut(page.Text[at+len("```\n"):], "```")
		return text
	}
	dir := t.TempDir()
	for name, text := range map[string]string{"mine.txt": block("# mine.txt"), "talk.txt": block("# talk.txt")} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lec, err := LoadLecture(filepath.Join(dir, "talk.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, p := range lec.Parts {
		labels = append(labels, p.Label)
	}
	if want := []string{"I: round trip", "My reconciliation", "IV: lag compensation"}; !slices.Equal(labels, want) || lec.Title != "Fast-Paced Multiplayer in ten minutes" {
		t.Fatalf("the documentation's lecture %q has parts %q", lec.Title, labels)
	}
	if _, err := NewLecture(lec, Default(), time.Now); err != nil {
		t.Fatal(err)
	}
}

// TestNotALecture: a file that is not a lecture (a password file, a
// lesson given as a lecture, one of comments alone) is refused as not a
// lecture file, with its line and why, and none of its text; a part's
// path on a line not yet known for a lecture's stays out of the error.
func TestNotALecture(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"root:$6$hunter2:19700:0:99999:7:::\n", "shadow is not a lecture file: line 1 does not start with a lecture's directive (title or part)"},
		{"# hunter2\n\nstep hunter2\n", "shadow is not a lecture file: line 3 does not start with a lecture's directive"},
		{"# hunter2\n", "shadow is not a lecture file: it has no directive (title or part)"},
		{"part /hunter2/x.txt\n", "shadow:1: part …: no lesson that can be read there"},
		{"title T\npart 1\nhunter2\n", `shadow:3: unknown directive "hunter2": want title or part`},
	} {
		_, err := ParseLecture("shadow", t.TempDir(), strings.NewReader(c.text))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one starting %q", c.text, err, c.want)
			continue
		}
		if !strings.Contains(c.want, "hunter2") && strings.Contains(err.Error(), "hunter2") {
			t.Errorf("%q: the error %q quotes the file", c.text, err)
		}
	}
}
