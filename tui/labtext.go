package tui

import (
	"fmt"
	"strings"

	"github.com/gdamore/tcell/v2"
)

// The styles of the lab's words under the boards.
var (
	// styleCaption is what the last step did.
	styleCaption = tcell.StyleDefault.Bold(true)
	// styleQuestion is a lesson's question; styleAnswer its answer.
	styleQuestion = tcell.StyleDefault.Foreground(tcell.ColorYellow).Bold(true)
	styleAnswer   = tcell.StyleDefault.Foreground(tcell.ColorLime).Bold(true)
)

// labLegendHelp explains the lab's boards and strips in its help, each
// symbol drawn as the screen draws it (Player 1 and 2 in the lab's
// colours).
var labLegendHelp = []helpRow{
	{"1 2", playerStyle(3, false), "Player 1, Player 2: one mark and colour on every board"},
	{"1", ghostStyle(3), "dim: where the server last said the player is"},
	{"─ │", styleBeam, "a zap's beam (the hit is the server's word)"},
	{"×", styleCorrection, "a prediction the server corrected"},
	{"#1 →", playerStyle(3, false), "an input on its way; ack #1 a state coming back"},
	{"✗#1 ↻#1", styleWarn, "lost: waits for its retransmission, then sent again"},
	{"#2 →…", playerStyle(3, false), "at the far end: waits behind a lost one (TCP)"},
}

// textLines returns the lab's words under the boards, w columns wide, in
// at most rows lines (and at least one): in a lesson, its title and step,
// the step's words, the question, its answer with what the lab shows, and
// what the continue key does (the last ones first when not all fit: see
// headLines); else what the last step did (in three lines at most), or,
// while nothing was stepped, what n and . do.
func (s *LabScreen) textLines(w, rows int) []panelLine {
	rows = max(rows, 1)
	if !s.inLesson {
		return s.captionLines(w, min(rows, 3))
	}
	l := s.lesson
	var must []panelLine // the question, the answer, the key
	if l.Question != "" {
		addWrapped(&must, "Q: "+l.Question, styleQuestion, w)
	}
	if l.Answer != "" {
		addWrapped(&must, "A: "+l.Answer, styleAnswer, w)
	}
	if l.Shows != "" {
		addWrapped(&must, "The lab: "+l.Shows, styleText, w)
	}
	switch {
	case l.Wait != "":
		addWrapped(&must, "▸ "+l.Wait, styleKey, w)
	case l.Next != "":
		s.goOnButton.label = goOnLabel(l.Next, w)
		must = append(must, panelLine{{"", styleText}}) // the button's row (see drawText)
	}
	if len(must) >= rows {
		return must[len(must)-rows:]
	}
	return append(headLines(l, w, rows-len(must)), must...)
}

// goOnLabel is the continue key's button, "[Space: next part: IV: lag
// compensation]", in w columns: what it does cut short inside the
// brackets where it must, so that the button still reads as one.
func goOnLabel(next string, w int) string {
	const head, tail = "[Space: ", "]"
	if label := head + next + tail; textWidth(label) <= w {
		return label
	}
	return head + fitText(next, max(w-textWidth(head)-textWidth(tail), 1)) + tail
}

// addWrapped adds text to lines, wrapped to w columns, in style st.
func addWrapped(lines *[]panelLine, text string, st tcell.Style, w int) {
	for _, t := range wrap(text, w) {
		*lines = append(*lines, panelLine{{t, st}})
	}
}

// headLines returns what a lesson's step says above its question, in at
// most room lines: the lecture's index, the lesson's title and the step,
// the step's words. In a lecture where not all fit, the step goes without
// the lesson's title (the index names the part); words that still do not
// fit are cut at a line's end, which then ends in "…", never mid-sentence
// without a mark.
func headLines(l LabLesson, w, room int) []panelLine {
	var head, words []panelLine
	for _, say := range l.Say {
		addWrapped(&words, say, styleText, w)
	}
	title := l.Title + " · " + l.Step
	if l.Lecture != "" {
		head = append(head, lectureIndex(l, w))
		if len(head)+len(wrap(title, w))+len(words) > room {
			title = l.Step
		}
	}
	addWrapped(&head, title, styleHeading, w)
	head = append(head, words...)
	if len(head) <= room {
		return head
	}
	head = head[:room]
	if last := head[room-1]; len(last) == 1 {
		head[room-1] = panelLine{{cutLine(last[0].text, w), last[0].style}}
	}
	return head
}

// cutLine ends line with " …", in w columns, cut at a space where it
// has to be: "Player 1 shows only …", not "Player 1 shows onl…".
func cutLine(line string, w int) string {
	for textWidth(line+" …") > w {
		i := strings.LastIndexByte(line, ' ')
		if i <= 0 {
			return fitText(line+" …", w)
		}
		line = line[:i]
	}
	return line + " …"
}

// lectureIndex is the line of a lecture's parts, the one given marked:
// "Fast-Paced Multiplayer, Parts I-IV: I: round trip · [II: prediction] ·
// ... < >", or where that does not fit in w columns "part 2 of 4: II:
// prediction < >".
func lectureIndex(l LabLesson, w int) panelLine {
	const keys = "  < >"
	line := panelLine{{l.Lecture + ": ", styleHeading}}
	for i, p := range l.Parts {
		if i > 0 {
			line = append(line, span{" · ", styleDim})
		}
		if i == l.Part {
			line = append(line, span{"[" + p + "]", styleQuestion})
		} else {
			line = append(line, span{p, styleDim})
		}
	}
	line = append(line, span{keys, styleKey})
	width := 0
	for _, s := range line {
		width += textWidth(s.text)
	}
	if width <= w {
		return line
	}
	here := fmt.Sprintf("part %d of %d: ", l.Part+1, len(l.Parts))
	label := fitText(l.Parts[l.Part], max(w-textWidth(here)-textWidth(keys), 1))
	return panelLine{{here, styleHeading}, {label, styleQuestion}, {keys, styleKey}}
}

// captionLines returns what the last step did, or what the keys do while
// nothing was stepped, in at most rows lines.
func (s *LabScreen) captionLines(w, rows int) []panelLine {
	caption := s.model.Caption()
	st := styleCaption
	switch {
	case caption != "":
		caption = "▸ " + caption
	case s.model.Paused():
		caption, st = "paused: . runs the clock, n steps to the next thing that changes and says what, Bksp starts again", styleDim
	default:
		caption, st = "n pauses and steps, saying what happens; Bksp starts the script again from t=0", styleDim
	}
	if s.offer != "" && st == styleDim {
		caption = "> gives the lecture (" + s.offer + "); " + caption
	}
	lines := wrap(caption, w)
	if len(lines) > rows {
		lines = append(lines[:rows-1], fitText(joinWords(lines[rows-1:]), w))
	}
	out := make([]panelLine, len(lines))
	for i, l := range lines {
		out[i] = panelLine{{l, st}}
	}
	return out
}

// joinWords joins wrapped lines back into one.
func joinWords(lines []string) string {
	out := ""
	for i, l := range lines {
		if i > 0 {
			out += " "
		}
		out += l
	}
	return out
}

// drawText draws the lines from (x, y), w columns wide; an empty line is
// the row of the lesson's continue button.
func (s *LabScreen) drawText(screen tcell.Screen, x, y, w int, lines []panelLine) {
	for i, l := range lines {
		if len(l) == 1 && l[0].text == "" {
			r := &rowWriter{screen: screen, ctl: &s.controls, x: x, y: y + i, end: x + w}
			r.put(s.goOnButton)
			continue
		}
		l.draw(screen, x, y+i, w)
	}
}
