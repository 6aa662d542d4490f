package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
	"gridlag/protocol"
)

// tagLines returns the panel's zap tag section in at most rows lines of
// w columns: a heading with the round, its time left and your frozen
// countdown, the server's word on your last zap and on the last time you
// were tagged, then the scoreboard. When all of it does not fit, the
// news give way to the latest and the scoreboard keeps its top lines and
// your own (at 80x24, with one line of news, the top three and yours).
// Everything but the heading's "Zap tag" comes from fields of the view
// the server filled.
func tagLines(v *client.View, w, rows int, names *marks) []panelLine {
	if rows <= 0 {
		return nil
	}
	news := newsLines(v, w)
	board := min(len(v.Scoreboard), scoreCompactRows)
	if 1+len(news)+board > rows {
		news = latestNews(v, w)
	}
	lines := append([]panelLine{tagHeading(v)}, news...)
	if len(lines) > rows {
		return lines[:rows]
	}
	return append(lines, scoreLines(playerScoreboard(v, names), rows-len(lines))...)
}

// tagHeading is the section's first line: "Round 3  2:41 left", and
// "FROZEN 1.4s" while the server says you are frozen, "SAFE 1.4s" while
// it says you cannot be tagged (you just joined or respawned), else how
// many play in the room ("40 online") when the scoreboard lists fewer.
func tagHeading(v *client.View) panelLine {
	h := panelLine{{"Zap tag", styleHeading}}
	if v.Round > 0 {
		h = roundLine(v.Round, v.RoundLeft)
	}
	switch {
	case v.Frozen:
		h = append(h, span{"  FROZEN " + seconds(v.FrozenUntil-v.Now), styleFrozen})
	case v.Protected:
		h = append(h, span{"  SAFE " + seconds(v.ProtectedUntil-v.Now), styleProtectedText})
	case v.Online > len(v.Scoreboard):
		h = append(h, span{fmt.Sprintf("  %d online", v.Online), styleDim})
	}
	return h
}

// roundLine is the round in play and its time left: "Round 3  2:41
// left".
func roundLine(round int, left time.Duration) panelLine {
	return panelLine{{fmt.Sprintf("Round %d ", round), styleHeading}, {" " + clockText(left) + " left", styleText}}
}

// newsLines returns the server's word on your last zap ("hit ada
// (rewound 230ms)") and on the last time you were tagged, wrapped to w
// columns: none before the server said anything.
func newsLines(v *client.View, w int) []panelLine {
	return append(zapNews(v), taggedNews(v, w)...)
}

// latestNews returns the latest of the server's words on your last zap
// and on the last time you were tagged, wrapped to w columns.
func latestNews(v *client.View, w int) []panelLine {
	if z, n := v.LastZap, v.LastTagged; n == nil || z != nil && z.At > n.At {
		return zapNews(v)
	}
	return taggedNews(v, w)
}

// zapNews is the line of the server's judgement of your last zap, if any.
func zapNews(v *client.View) []panelLine {
	if z := v.LastZap; z != nil {
		return []panelLine{{{z.Line(), zapStyle(z)}}}
	}
	return nil
}

// taggedNews is the server's word on the last time you were tagged, if
// ever, wrapped to w columns.
func taggedNews(v *client.View, w int) []panelLine {
	if v.LastTagged == nil {
		return nil
	}
	var lines []panelLine
	for _, s := range wrap(v.LastTagged.Line(), w) {
		lines = append(lines, panelLine{{s, styleFrozen}})
	}
	return lines
}

// zapStyle is the style of a zap's outcome: a hit stands out.
func zapStyle(z *client.ZapResult) tcell.Style {
	if z.Outcome == protocol.ZapHit {
		return styleHit
	}
	return styleText
}

// wrap cuts s into lines of at most w columns at spaces (a word longer
// than w is cut by the drawing), never between a number and its unit
// ("100 ms", "4 %"): a reader meets the two on one line.
func wrap(s string, w int) []string {
	var lines []string
	line := ""
	for _, word := range unitWords(strings.Fields(s)) {
		switch {
		case line == "":
			line = word
		case textWidth(line)+1+textWidth(word) <= w:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// unitWords joins each unit to the number before it: "100", "ms." is
// one word, "100 ms.".
func unitWords(words []string) []string {
	out := words[:0:0]
	for _, w := range words {
		if n := len(out); n > 0 && isUnit(w) && endsInDigit(out[n-1]) {
			out[n-1] += " " + w
			continue
		}
		out = append(out, w)
	}
	return out
}

// isUnit reports whether word is a unit a number goes with, punctuation
// after it allowed: "ms", "ms.", "s,", "%)".
func isUnit(word string) bool {
	switch strings.TrimRight(word, ".,;:!?)") {
	case "ms", "s", "%", "Hz":
		return true
	}
	return false
}

// endsInDigit reports whether word ends in a digit.
func endsInDigit(word string) bool {
	return word != "" && word[len(word)-1] >= '0' && word[len(word)-1] <= '9'
}

// clockText writes a time left as minutes and seconds, rounded up:
// "2:41".
func clockText(d time.Duration) string {
	s := int((max(d, 0) + time.Second - 1) / time.Second)
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// seconds writes a time left in seconds to a tenth, rounded up: "1.4s".
func seconds(d time.Duration) string {
	tenths := (max(d, 0) + 100*time.Millisecond - 1) / (100 * time.Millisecond)
	return fmt.Sprintf("%d.%ds", tenths/10, tenths%10)
}
