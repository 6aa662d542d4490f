package lab

import (
	"fmt"
	"strconv"
	"strings"
)

// Finding is a number a lesson's text shows that its run does not give.
type Finding struct {
	Lesson string // the lesson file's name
	Line   int
	Number string // the number, with the word it is in
	Text   string // the text, filled in
}

// String says it as an error names a line.
func (f Finding) String() string {
	return fmt.Sprintf("%s:%d: %q is not from the run (in %q)", f.Lesson, f.Line, f.Number, f.Text)
}

// AuditLesson rehearses every step of lesson on top of base and returns
// each number its texts show that the run does not give: every digit of
// a step's title, its words, a question and an answer must come from a
// placeholder (see fill), or be a player's number ("Player 2"), a
// lesson's ("Lesson 3"), an input's that the step's run sends ("#3"), or
// be in backquotes (a key's name, `1`). A text with no placeholder is a
// teacher's own; the lab shows it as it is, and this says where its
// numbers are not the run's. The error is the lesson's own (a
// placeholder the run cannot fill).
func AuditLesson(lesson *Lesson, base Config) ([]Finding, error) {
	var out []Finding
	for _, n := range strayNumbers(filled{text: lesson.Title}, &runLog{}) {
		out = append(out, Finding{Lesson: lesson.Name, Line: lesson.TitleLine, Number: n, Text: lesson.Title})
	}
	for i := range lesson.Steps {
		rh, texts, err := rehearse(lesson, base, i)
		if err != nil {
			return nil, err
		}
		for _, t := range texts {
			for _, n := range strayNumbers(t.filled, rh.run) {
				out = append(out, Finding{Lesson: lesson.Name, Line: t.Line, Number: n, Text: t.text})
			}
		}
	}
	return out, nil
}

// strayNumbers returns the numbers of a filled text that no placeholder
// gave and that are no name (see AuditLesson), each with the word it is
// in.
func strayNumbers(f filled, run *runLog) []string {
	s := f.text
	quoted := make([]bool, len(s)) // inside backquotes
	in := false
	for i := range s {
		if s[i] == '`' {
			in = !in
		}
		quoted[i] = in
	}
	placed := make([]bool, len(s))
	for _, sp := range f.spans {
		for i := sp[0]; i < sp[1]; i++ {
			placed[i] = true
		}
	}
	var out []string
	for start := 0; start < len(s); {
		end := strings.IndexByte(s[start:], ' ')
		if end < 0 {
			end = len(s)
		} else {
			end += start
		}
		for i := start; i < end; i++ { // the word's numbers, one at a time
			if !isDigit(s[i]) {
				continue
			}
			j := i
			for j < end && isDigit(s[j]) {
				j++
			}
			if !placed[i] && !quoted[i] && !named(s, i, j, run) {
				out = append(out, s[start:end])
				break
			}
			i = j
		}
		start = end + 1
	}
	return out
}

// named reports whether the number s[i:j] is a name: a player's, a
// lesson's, or an input's that the run sends.
func named(s string, i, j int, run *runLog) bool {
	n, err := strconv.ParseUint(s[i:j], 10, 32)
	if err != nil {
		return false
	}
	switch {
	case strings.HasSuffix(s[:i], "Player ") && (n == 1 || n == 2):
		return true
	case strings.HasSuffix(s[:i], "Lesson "):
		return true
	case strings.HasSuffix(s[:i], "#"):
		return run.sentAny(uint32(n))
	}
	return false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
