package lab

import (
	"bufio"
	"embed"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Lesson is a guided tour of the lab, read from a lesson file (see
// ParseLesson): steps, each with its settings and script, its words, and
// moments at which the lab stops to ask a question and waits for a key
// before it shows the answer.
type Lesson struct {
	Name      string // the file's name, for errors
	Title     string
	TitleLine int
	// Settings apply to every step, before the step's own.
	Settings []Setting
	Steps    []LessonStep
}

// Setting is one set line of a lesson: a name Config.Set takes and its
// value, and the line it is on.
type Setting struct {
	Line        int
	Name, Value string
}

// LessonStep is one step of a lesson: the lab starts again from t=0 with
// the step's settings, paused, its words shown; the continue key runs it,
// and it stops at each moment in turn, then at its end.
type LessonStep struct {
	Title     string
	TitleLine int
	Settings  []Setting
	Say       []string // the step's words
	SayLines  []int    // the line of each
	Moments   []Moment
	// End is when the step ends, on the lab's clock; 0 means at its last
	// moment, once answered, or, with no moment, when the continue key is
	// pressed.
	End time.Duration
}

// Moment is a moment of a step: the lab runs to At and pauses there; it
// waits for a player's key press if Wait says so (the press happens
// then), shows new words if Say has any, asks the Question if there is
// one and shows the Answer, with what the lab shows for each Check, on
// the continue key.
type Moment struct {
	Line     int
	At       time.Duration
	Say      []string
	SayLines []int
	Wait     *Wait
	Question string
	Answer   string
	Checks   []Check
	// QuestionLine and AnswerLine are the lines of the ask and the answer.
	QuestionLine, AnswerLine int
}

// Wait is a key press a moment waits for: Player (0 or 1) presses Key
// (up, down, left, right or zap).
type Wait struct {
	Player int
	Key    string
}

// Check is what the lab must show when a question is answered: the fact
// called What (see checkNames) has the value Want.
type Check struct {
	Line int
	What string
	Want string
}

//go:embed lessons/*.txt
var builtin embed.FS

// BuiltinLessons is how many lessons gridlag has: Part I to Part IV of
// Gambetta's articles, TCP's loss and head-of-line blocking, networks
// that change over time (traces), and what a move costs the wire.
const BuiltinLessons = 7

// BuiltinLesson returns built-in lesson n, 1 to BuiltinLessons.
func BuiltinLesson(n int) (*Lesson, error) {
	names, err := builtin.ReadDir("lessons")
	if err != nil || n < 1 || n > len(names) {
		return nil, fmt.Errorf("no lesson %d: the lessons are 1 to %d", n, BuiltinLessons)
	}
	name := names[n-1].Name()
	data, err := builtin.ReadFile("lessons/" + name)
	if err != nil {
		return nil, err
	}
	return ParseLesson(name, strings.NewReader(string(data)))
}

// BuiltinLessonText returns the text of built-in lesson n, as a teacher
// starts a lesson of their own from.
func BuiltinLessonText(n int) (string, error) {
	names, err := builtin.ReadDir("lessons")
	if err != nil || n < 1 || n > len(names) {
		return "", fmt.Errorf("no lesson %d: the lessons are 1 to %d", n, BuiltinLessons)
	}
	data, err := builtin.ReadFile("lessons/" + names[n-1].Name())
	return string(data), err
}

// LoadLesson returns the lesson arg names: a built-in one by its number
// (1 to BuiltinLessons), else the lesson file at that path.
func LoadLesson(arg string) (*Lesson, error) {
	if n, err := strconv.Atoi(arg); err == nil {
		return BuiltinLesson(n)
	}
	f, err := os.Open(arg)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseLesson(filepath.Base(arg), io.LimitReader(f, maxLessonBytes))
}

// maxLessonBytes is the longest lesson file read.
const maxLessonBytes = 1 << 20

// ParseLesson reads a lesson file, one directive a line (blank lines and
// lines starting with # are skipped):
//
//	title TEXT         the lesson's title, once, before the first step
//	set NAME VALUE     a setting (see Config.Set): before the first step,
//	                   for every step; in a step, for that step
//	step TITLE         starts a step
//	say TEXT           a line of the step's words (after an at: of the
//	                   words shown from that moment)
//	at TIME            a moment of the step, on the lab's clock (250ms):
//	                   the lab runs to it and pauses there
//	wait WHO KEY       at the moment, wait until p1 or p2 presses KEY (up,
//	                   down, left, right, zap); the press happens then
//	ask TEXT           at the moment, the question asked
//	answer TEXT        its answer, shown on the continue key
//	check WHAT VALUE   what the lab shows then (see Checks)
//	end TIME           the step runs until then, then waits for the key
//
// Moments come in time order. A step's title, its words, a question and
// an answer can name quantities of the run in braces, which the lab fills
// in when it shows them (see fill): {p1.latency}, {p1.sees},
// {p1.arrived.1 - p2.arrived.1}. An error names the file and the line; a
// file that is not a lesson file says so and shows none of its text (see
// readDirectives).
func ParseLesson(name string, r io.Reader) (*Lesson, error) {
	l := &Lesson{Name: name}
	var step *LessonStep
	var moment *Moment
	probe := Default()
	err := readDirectives(name, "lesson", directives, r, func(n int, word, rest string, show func(string) string) error {
		if rest == "" {
			return fmt.Errorf("%s needs something after it", word)
		}
		switch word {
		case "title":
			if step != nil || l.Title != "" {
				return errors.New("title comes once, before the first step")
			}
			if phs, err := parseText(rest, show); err != nil || len(phs) > 0 {
				return errors.New("the lesson's title shows through every step: it names no quantity of a run (a step's title can)")
			}
			l.Title, l.TitleLine = rest, n
		case "set":
			sname, value, ok := strings.Cut(rest, " ")
			if !ok {
				return errors.New("set needs a name and a value, e.g. set latency 250ms")
			}
			if err := probe.Set(sname, value); err != nil {
				if se, ok := err.(*SettingError); ok {
					return errors.New(se.describe(show))
				}
				return err
			}
			s := Setting{Line: n, Name: sname, Value: strings.TrimSpace(value)}
			if step == nil {
				l.Settings = append(l.Settings, s)
			} else {
				step.Settings = append(step.Settings, s)
			}
		case "step":
			if _, err := parseText(rest, show); err != nil {
				return err
			}
			l.Steps = append(l.Steps, LessonStep{Title: rest, TitleLine: n})
			step, moment = &l.Steps[len(l.Steps)-1], nil
		case "say", "at", "wait", "ask", "answer", "check", "end":
			if step == nil {
				return fmt.Errorf("%s before the first step", word)
			}
			return parseStepLine(step, &moment, word, rest, n, show)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(l.Steps) == 0 {
		return nil, fmt.Errorf("%s: a lesson needs at least one step", name)
	}
	for i := range l.Steps {
		if err := l.Steps[i].check(); err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
	}
	return l, nil
}

// directives are the words a lesson's lines start with.
var directives = []string{"title", "set", "step", "say", "at", "wait", "ask", "answer", "check", "end"}

// readDirectives reads a file of directives (a lesson, a lecture: kind),
// one a line, each starting with one of words: blank lines and lines
// starting with # are skipped, and do gets each other line's number, its
// first word and the rest, trimmed, and show, through which the line's
// text reaches an error. An error, do's or reading's, names the file and
// the line.
//
// A file is taken for one of its kind once a line of it has read as one:
// until then show hides the text ("…"), and a line that starts with no
// directive, or a file with none, says the file is not a lesson (lecture)
// file (given a password file, a key, a log, nothing of it reaches the
// error). After that, show gives a short excerpt of the text, its
// control and other unprintable characters replaced (see excerpt), and a
// line with an unknown directive says so.
func readDirectives(name, kind string, words []string, r io.Reader, do func(n int, word, rest string, show func(string) string) error) error {
	list := strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), 64*1024)
	n := 0
	known := false // a line has read as one of kind's
	show := func(s string) string {
		if !known {
			return "…"
		}
		return excerpt(s)
	}
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		word, rest, _ := strings.Cut(line, " ")
		switch {
		case slices.Contains(words, word):
		case !known:
			return fmt.Errorf("%s is not a %s file: line %d does not start with a %s's directive (%s)", name, kind, n, kind, list)
		default:
			return fmt.Errorf("%s:%d: unknown directive %q: want %s", name, n, show(word), list)
		}
		if err := do(n, word, strings.TrimSpace(rest), show); err != nil {
			return fmt.Errorf("%s:%d: %w", name, n, err)
		}
		known = true
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s:%d: %w", name, n+1, err)
	}
	if !known {
		return fmt.Errorf("%s is not a %s file: it has no directive (%s)", name, kind, list)
	}
	return nil
}

// maxExcerpt is the most runes of a file's line an error quotes.
const maxExcerpt = 40

// excerpt is s as an error about a lesson's line quotes it: at most
// maxExcerpt runes (then "…"), every control or unprintable character
// (a terminal's escape, a byte that is not UTF-8) a '?'.
func excerpt(s string) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		if n == maxExcerpt {
			b.WriteString("…")
			break
		}
		if r == utf8.RuneError || !unicode.IsPrint(r) {
			r = '?'
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// parseStepLine reads one directive of a step; moment is the step's
// latest moment, nil before its first. The line's text reaches an error
// through show.
func parseStepLine(step *LessonStep, moment **Moment, word, rest string, line int, show func(string) string) error {
	m := *moment
	switch word {
	case "say", "ask", "answer":
		if _, err := parseText(rest, show); err != nil {
			return err
		}
	}
	switch word {
	case "say":
		if m == nil {
			step.Say, step.SayLines = append(step.Say, rest), append(step.SayLines, line)
		} else {
			m.Say, m.SayLines = append(m.Say, rest), append(m.SayLines, line)
		}
		return nil
	case "at", "end":
		t, err := time.ParseDuration(rest)
		if err != nil || t < 0 {
			return fmt.Errorf("%s %s: want a time from the step's start, e.g. 250ms", word, show(rest))
		}
		if step.End > 0 {
			return errors.New("nothing comes after a step's end but the next step")
		}
		if last := len(step.Moments); last > 0 && t <= step.Moments[last-1].At || word == "end" && t == 0 {
			return fmt.Errorf("%s %s: the moments of a step come in time order, after t=0 for its end", word, show(rest))
		}
		if word == "end" {
			step.End = t
			return nil
		}
		step.Moments = append(step.Moments, Moment{Line: line, At: t})
		*moment = &step.Moments[len(step.Moments)-1]
		return nil
	}
	if m == nil {
		return fmt.Errorf("%s comes after an at: the moment it happens", word)
	}
	switch word {
	case "wait":
		who, key, _ := strings.Cut(rest, " ")
		player := map[string]int{"p1": 0, "p2": 1}
		p, ok := player[strings.ToLower(who)]
		key = strings.ToLower(strings.TrimSpace(key))
		if !ok || !validKey(key) {
			return fmt.Errorf("wait %s: want p1 or p2 and a key, up, down, left, right or zap, e.g. wait p1 right", show(rest))
		}
		m.Wait = &Wait{Player: p, Key: key}
	case "ask":
		if m.Question != "" {
			return errors.New("one question a moment: start another with at")
		}
		m.Question, m.QuestionLine = rest, line
	case "answer":
		if m.Question == "" || m.Answer != "" {
			return errors.New("an answer comes once, after its question (ask)")
		}
		m.Answer, m.AnswerLine = rest, line
	case "check":
		what, want, ok := strings.Cut(rest, " ")
		if !ok || m.Question == "" {
			return fmt.Errorf("check %s: want a fact and its value after a question, e.g. check p1.sees (12,10)", show(rest))
		}
		if _, known := checkFact(what); !known {
			return fmt.Errorf("check %s: no fact %q; the facts are %s", show(rest), show(what), CheckNames())
		}
		m.Checks = append(m.Checks, Check{Line: line, What: what, Want: strings.TrimSpace(want)})
	}
	return nil
}

// validKey reports whether a wait's key is one a player presses.
func validKey(k string) bool {
	switch k {
	case "up", "down", "left", "right", "zap":
		return true
	}
	return false
}

// check refuses a step whose moments ask nothing and answer nothing.
func (s *LessonStep) check() error {
	for _, m := range s.Moments {
		if m.Question != "" && m.Answer == "" {
			return fmt.Errorf("line %d: the question at %v has no answer", m.Line, m.At)
		}
	}
	return nil
}

// config returns the lab's configuration for step i: base, then the
// lesson's settings, then the step's; the lab starts paused at t=0.
func (l *Lesson) config(base Config, i int) (Config, error) {
	cfg := base
	for _, s := range append(append([]Setting(nil), l.Settings...), l.Steps[i].Settings...) {
		if err := cfg.Set(s.Name, s.Value); err != nil {
			return cfg, fmt.Errorf("%s:%d: %v", l.Name, s.Line, err)
		}
	}
	cfg.Paused = true
	return cfg, nil
}
