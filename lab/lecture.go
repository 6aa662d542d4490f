package lab

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Lecture is a whole talk given in one run of the lab: parts, each a
// lesson, one after another. The lab shows an index of the parts; the
// continue key goes from the last step of a part to the first of the
// next, and keys go to the next and the previous part; each part is
// given as a lesson is (paused at each step's start, Backspace plays the
// step again). A lesson is a lecture of one part, without the index.
type Lecture struct {
	Name  string // the file's name, for errors
	Title string
	Parts []Part
}

// Part is one part of a lecture: a lesson, and its label in the index,
// or an experiment with a human in it: the perception test (Perception;
// its Lesson is then the test's one step, whose words the run's results
// replace: see perceptionLesson).
type Part struct {
	Label      string // "II: prediction"; the lesson's title when the file names none
	Lesson     *Lesson
	Perception bool
}

// DefaultLectureFile is the lecture `gridlag lab -lecture` gives: the
// built-in lessons of Gambetta's Parts I to IV.
const DefaultLectureFile = `# The lecture gridlag lab -lecture gives: Gambetta's "Fast-Paced
# Multiplayer", Parts I to IV, a built-in lesson each. A lecture of your
# own: the same lines, with lesson files (gridlag lab -print-lesson N).
title Fast-Paced Multiplayer, Parts I-IV
part 1 I: round trip
part 2 II: prediction
part 3 III: interpolation
part 4 IV: lag compensation
`

// DefaultLecture returns the lecture of DefaultLectureFile.
func DefaultLecture() (*Lecture, error) {
	return ParseLecture("parts I-IV", "", strings.NewReader(DefaultLectureFile))
}

// LoadLecture returns the lecture arg names: the default one for "",
// else the lecture file at that path.
func LoadLecture(arg string) (*Lecture, error) {
	if arg == "" {
		return DefaultLecture()
	}
	f, err := os.Open(arg)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseLecture(filepath.Base(arg), filepath.Dir(arg), io.LimitReader(f, maxLessonBytes))
}

// maxLectureParts bounds a lecture's parts.
const maxLectureParts = 64

// ParseLecture reads a lecture file, one directive a line (blank lines
// and lines starting with # are skipped):
//
//	title TEXT            the lecture's title, once, before the first part
//	part LESSON [LABEL]   a part: a built-in lesson's number (1 to
//	                      BuiltinLessons) or a lesson file's path (from
//	                      dir, the lecture file's folder, unless absolute),
//	                      or the word perception (the perception test, with
//	                      Player 1 as the student: see perceptionLesson),
//	                      and its label in the index (the lesson's title
//	                      if none)
//
// An error names the file and the line; one in a part's lesson names
// the lesson's file and line too.
func ParseLecture(name, dir string, r io.Reader) (*Lecture, error) {
	lec := &Lecture{Name: name}
	err := readDirectives(name, "lecture", []string{"title", "part"}, r, func(_ int, word, rest string, show func(string) string) error {
		switch word {
		case "title":
			if rest == "" || lec.Title != "" || len(lec.Parts) > 0 {
				return errors.New("title comes once, before the first part, with the lecture's title after it")
			}
			lec.Title = rest
		case "part":
			if rest == "" {
				return fmt.Errorf("part needs a lesson: a built-in one's number (1 to %d) or a lesson file", BuiltinLessons)
			}
			if len(lec.Parts) == maxLectureParts {
				return fmt.Errorf("a lecture has at most %d parts", maxLectureParts)
			}
			which, label, _ := strings.Cut(rest, " ")
			test := which == PerceptionPart
			lesson, err := lectureLesson(which, dir)
			if err != nil {
				if show(which) != excerpt(which) {
					// Not yet known for a lecture file: nothing of its
					// text, not even in the error opening the path.
					return errors.New("part …: no lesson that can be read there")
				}
				return fmt.Errorf("part %s: %v", show(which), err)
			}
			label = strings.TrimSpace(label)
			if label == "" {
				label = lesson.Title
			}
			if label == "" {
				label = lesson.Name
			}
			lec.Parts = append(lec.Parts, Part{Label: label, Lesson: lesson, Perception: test})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(lec.Parts) == 0 {
		return nil, fmt.Errorf("%s: a lecture needs at least one part", name)
	}
	if lec.Title == "" {
		lec.Title = lec.Parts[0].Label
	}
	return lec, nil
}

// lectureLesson loads a part's lesson: a built-in one by its number, else
// the file at path (from dir unless absolute).
func lectureLesson(which, dir string) (*Lesson, error) {
	if which == PerceptionPart {
		return perceptionLesson(), nil
	}
	if n, err := strconv.Atoi(which); err == nil {
		return BuiltinLesson(n)
	}
	if !filepath.IsAbs(which) && dir != "" {
		which = filepath.Join(dir, which)
	}
	return LoadLesson(which)
}

// single is the lecture of one lesson: no index.
func single(lesson *Lesson) *Lecture {
	return &Lecture{Name: lesson.Name, Title: lesson.Title, Parts: []Part{{Label: lesson.Title, Lesson: lesson}}}
}

// OfferLecture offers lecture in the free lab: NextPart starts it, on
// top of the lab's own configuration, and PrevPart from its first part
// comes back to the free lab as it started. Every step of every part is
// rehearsed now, so a lecture that cannot be given is an error here.
func (l *Lab) OfferLecture(lecture *Lecture) error {
	if l.lesson != nil {
		return fmt.Errorf("lab: a lecture is offered in the free lab, not in a lesson")
	}
	run, err := newLessonRun(lecture, true, l.cfg)
	if err != nil {
		return err
	}
	l.offer = run
	return nil
}

// Offer names the lecture NextPart starts, "" when none is offered or it
// is being given.
func (l *Lab) Offer() string {
	if l.offer == nil || l.lesson != nil {
		return ""
	}
	return l.offer.lecture.Title
}

// NextPart goes to the start of the lecture's next part (paused at its
// first step's start); in the free lab, it starts the lecture offered.
// On the last part, or with no lecture, it does nothing.
func (l *Lab) NextPart() {
	r := l.lesson
	switch {
	case r == nil && l.offer != nil:
		l.lesson = l.offer
		l.startPart(0)
	case r != nil && r.part+1 < len(r.lecture.Parts):
		l.startPart(r.part + 1)
	}
}

// PrevPart goes back to the start of the part given, or, already there,
// to the start of the part before, as a player's previous button does;
// from the first part's start of a lecture offered in the free lab, back
// to the free lab as it started.
func (l *Lab) PrevPart() {
	r := l.lesson
	switch {
	case r == nil:
	case r.step > 0 || r.phase != ready:
		l.startPart(r.part)
	case r.part > 0:
		l.startPart(r.part - 1)
	case r == l.offer:
		l.lesson = nil
		if err := l.reset(l.cfg); err != nil { // it was built once
			l.caption = "the free lab: " + err.Error()
		}
	}
}
