package tui

import (
	"strings"
	"testing"
)

// TestWrapKeepsANumberWithItsUnit: a lesson's words wrap at spaces, but
// never between a number and its unit: "Round trip: 100 ms." at 40
// columns (the 80x24 panel) keeps "100 ms." on one line.
func TestWrapKeepsANumberWithItsUnit(t *testing.T) {
	text := "Without prediction, Player 1 shows only what the server says. Round trip: 100 ms."
	lines := wrap(text, 40)
	if got := strings.Join(lines, "|"); got != "Without prediction, Player 1 shows only|what the server says. Round trip:|100 ms." {
		t.Errorf("wrapped as %q", got)
	}
	if got := strings.Join(wrap("loss 4 %, 20 states a second at 20 Hz", 9), "|"); got != "loss 4 %,|20 states|a second|at 20 Hz" {
		t.Errorf("wrapped as %q", got)
	}
}

// TestHeadLinesMarkWhatIsCut: a step's words that do not fit above its
// question end in "…" on the last line shown; in a lecture, the step
// goes without the lesson's title before any of its words are cut.
func TestHeadLinesMarkWhatIsCut(t *testing.T) {
	l := LabLesson{Title: "Lesson 1: the round trip, and why a client predicts", Step: "step 1 of 3: A dumb client waits",
		Say: []string{"The server is authoritative.", "Without prediction, Player 1 shows only what the server says. Round trip: 100 ms."}}
	text := func(lines []panelLine) string {
		var out []string
		for _, pl := range lines {
			s := ""
			for _, sp := range pl {
				s += sp.text
			}
			out = append(out, s)
		}
		return strings.Join(out, "|")
	}
	if got := text(headLines(l, 40, 4)); got != "Lesson 1: the round trip, and why a|client predicts · step 1 of 3: A dumb|client waits|The server is authoritative. …" {
		t.Errorf("a lesson in 4 rows: %q", got)
	}
	l.Lecture, l.Parts = "Parts I-IV", []string{"I: round trip", "II: prediction"}
	if got := text(headLines(l, 40, 6)); got != "part 1 of 2: I: round trip  < >|step 1 of 3: A dumb client waits|The server is authoritative.|Without prediction, Player 1 shows only|what the server says. Round trip:|100 ms." {
		t.Errorf("a lecture's part in 6 rows: %q", got)
	}
	if got := text(headLines(l, 40, 9)); !strings.Contains(got, "Lesson 1: the round trip") {
		t.Errorf("a lecture's part in 9 rows has room for the lesson's title: %q", got)
	}
}

// TestCutLineAtASpace: a line cut short ends in " …" at a word's end.
func TestCutLineAtASpace(t *testing.T) {
	for _, c := range []struct {
		line string
		w    int
		want string
	}{
		{"Without prediction, Player 1 shows only", 40, "Without prediction, Player 1 shows …"},
		{"The server is authoritative.", 40, "The server is authoritative. …"},
		{"Supercalifragilistic", 8, "Superca…"},
	} {
		if got := cutLine(c.line, c.w); got != c.want {
			t.Errorf("cutLine(%q, %d) = %q, want %q", c.line, c.w, got, c.want)
		}
	}
}

// TestGoOnLabelFits: the continue key's button closes its bracket at
// the 39 columns beside the board at 80x24: "[Space: next part: IV: lag
// compensati…]".
func TestGoOnLabelFits(t *testing.T) {
	if got := goOnLabel("next part: IV: lag compensation", 39); got != "[Space: next part: IV: lag compensati…]" || textWidth(got) != 39 {
		t.Errorf("at 39 columns: %q", got)
	}
	if got := goOnLabel("the answer", 40); got != "[Space: the answer]" {
		t.Errorf("%q", got)
	}
}
