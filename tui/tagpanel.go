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
// scoreboard keeps its top three and your own line, and the two lines of
// news give way to the latest one. Everything but the heading's "Zap
// tag" comes from fields of the view the server filled.
func tagLines(v *client.View, w, rows int) []panelLine {
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
	return append(lines, scoreLines(v, rows-len(lines))...)
}

// tagHeading is the section's first line: "Round 3  2:41 left", and
// "FROZEN 1.4s" while the server says you are frozen.
func tagHeading(v *client.View) panelLine {
	h := panelLine{{"Zap tag", styleHeading}}
	if v.Round > 0 {
		h = panelLine{{fmt.Sprintf("Round %d ", v.Round), styleHeading}, {" " + clockText(v.RoundLeft) + " left", styleText}}
	}
	if v.Frozen {
		h = append(h, span{"  FROZEN " + seconds(v.FrozenUntil-v.Now), styleFrozen})
	}
	return h
}

// newsLines returns the server's word on your last zap ("hit ada
// (rewound 230 ms)") and on the last time you were tagged, wrapped to w
// columns: none before the server said anything.
func newsLines(v *client.View, w int) []panelLine {
	var lines []panelLine
	if z := v.LastZap; z != nil {
		lines = append(lines, panelLine{{z.Line(), zapStyle(z)}})
	}
	if n := v.LastTagged; n != nil {
		for _, s := range wrap(n.Line(), w) {
			lines = append(lines, panelLine{{s, styleFrozen}})
		}
	}
	return lines
}

// latestNews returns the latest of the server's words on your last zap
// and on the last time you were tagged, in one line cut to fit.
func latestNews(v *client.View, w int) []panelLine {
	z, n := v.LastZap, v.LastTagged
	switch {
	case z != nil && (n == nil || z.At >= n.At):
		return []panelLine{{{z.Line(), zapStyle(z)}}}
	case n != nil:
		return []panelLine{{{n.Line(), styleFrozen}}}
	}
	return nil
}

// zapStyle is the style of a zap's outcome: a hit stands out.
func zapStyle(z *client.ZapResult) tcell.Style {
	if z.Outcome == protocol.ZapHit {
		return styleHit
	}
	return styleText
}

// wrap cuts s into lines of at most w columns at spaces (a word longer
// than w is cut by the drawing).
func wrap(s string, w int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
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
