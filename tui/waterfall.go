package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
	"gridlag/protocol"
)

// The waterfall: the last inputs as rows, oldest first, like a browser's
// network waterfall: each a bar from its key press to the State that
// acknowledged it, split into its stages (the speed limit's wait, what
// the link held back, the way up, the server's wait for its tick, the way
// back), with their milliseconds, and after it the whole trip and the
// reconciliation (inputs replayed, the prediction right or corrected by
// how many cells). Under the rows, the latest input's stages in words.
// Bars share one scale, the longest trip shown, so that they compare.

// waterfallLabel is the width of a row's label: "#1234 →".
const waterfallLabel = 8

// waterfallTail is the width of what follows a row's bar: " 1250ms ↺3 ✗2".
const waterfallTail = 15

// drawWaterfall draws ins's lives into r under title: a legend, a row
// each for as many of the latest as fit, and the latest in words.
func drawWaterfall(screen tcell.Screen, r rect, title, closeKey string, ins *client.Instruments) {
	drawOverlayBox(screen, r, title, closeKey)
	if r.h < 2 {
		return
	}
	drawWaterfallLegend(screen, r.x, r.y+1, r.w)
	lives := ins.Lives
	detail := waterfallDetail(lives, ins.Tracing, r.w)
	rows := r.h - 2 - len(detail)
	if rows < 1 {
		detail, rows = nil, r.h-2
	}
	if len(lives) > rows {
		lives = lives[len(lives)-rows:]
	}
	var longest time.Duration
	for _, l := range lives {
		longest = max(longest, l.Trip())
	}
	longestMS := roundMS(longest)
	barW := max(r.w-waterfallLabel-waterfallTail, 1)
	for i, l := range lives {
		y := r.y + 2 + i
		putText(screen, r.x, y, waterfallLabel, lifeLabel(l), styleText)
		drawBar(screen, r.x+waterfallLabel, y, barW, lifeSegments(l), longestMS)
		putText(screen, r.x+waterfallLabel+barW, y, waterfallTail, lifeTail(l), lifeTailStyle(l))
	}
	if len(lives) == 0 {
		putText(screen, r.x, r.y+2, r.w, "no input yet: press a move or zap, its life shows here when the server's answer comes", styleDim)
	}
	for i, line := range detail {
		putText(screen, r.x, r.y+r.h-len(detail)+i, r.w, line, styleText)
	}
}

// drawWaterfallLegend draws the stages' colours on one row.
func drawWaterfallLegend(screen tcell.Screen, x, y, w int) {
	end := x + w
	for _, k := range []struct {
		c    tcell.Color
		name string
	}{{colorLimit, "speed limit"}, {colorHeld, "held"}, {colorUp, "up"}, {colorServer, "server, tick"}, {colorDown, "back"}} {
		x += swatch(screen, x, y, end-x, k.c, k.name) + 1
	}
	putText(screen, x, y, end-x, " ↺ replayed ✓ ✗ corrected", styleDim)
}

// lifeLabel is a row's label: "#12 →", "#13 zap".
func lifeLabel(l client.InputLife) string {
	what := l.Dir.Arrow()
	if l.Zap {
		what = "zap"
	}
	return fmt.Sprintf("#%d %s", l.Seq, what)
}

// lifeSegments splits an input's life into the bar's stages, from its
// press: without the server's stages, the trip is one.
func lifeSegments(l client.InputLife) []segment {
	ms := roundMS
	segs := []segment{{colorLimit, ms(l.LimitWait())}, {colorHeld, ms(l.HeldUp)}}
	if !l.Traced {
		return append(segs, segment{colorTrip, ms(l.Acked - l.Sent)})
	}
	return append(segs,
		segment{colorUp, ms(l.Arrived - l.Sent)},
		segment{colorServer, ms(l.AckSent - l.Arrived)},
		segment{colorDown, ms(l.Acked - l.AckSent - l.HeldDown)},
		segment{colorHeld, ms(l.HeldDown)})
}

// lifeTail is what follows a row's bar: the trip, the replays, right or
// corrected.
func lifeTail(l client.InputLife) string {
	s := " " + millis(l.Trip())
	if l.Replayed > 0 {
		s += fmt.Sprintf(" ↺%d", l.Replayed)
	}
	switch {
	case l.Corrected:
		s += fmt.Sprintf(" ✗%d", l.Cells)
	case l.Refused():
		s += " ✗"
	default:
		s += " ✓"
	}
	return s
}

// lifeTailStyle marks a corrected (or refused) input.
func lifeTailStyle(l client.InputLife) tcell.Style {
	if l.Corrected || l.Refused() {
		return styleCorrection
	}
	return styleText
}

// waterfallDetail says the latest life in words, cut into lines of width
// columns (at most three): "#1 → pressed 0 · sent 0 · arrived 125 ·
// applied 125 · ack sent 125 · acked 250 · replayed 1 · right", times
// from the press in milliseconds.
func waterfallDetail(lives []client.InputLife, tracing bool, width int) []string {
	if len(lives) == 0 {
		if !tracing {
			return nil
		}
		return []string{"asking the server for its stages of your inputs"}
	}
	l := lives[len(lives)-1]
	rel := func(t time.Duration) string { return msText(roundMS(t - l.Pressed)) }
	words := []string{lifeLabel(l) + ": pressed 0"}
	if l.LimitWait() > 0 {
		words = append(words, "speed limit "+millis(l.LimitWait()))
	}
	words = append(words, "sent "+rel(l.Sent))
	if l.HeldUp > 0 {
		words = append(words, "(held "+millis(l.HeldUp)+")")
	}
	if l.Traced {
		applied := "applied " + rel(l.Applied)
		if l.Tick > 0 {
			applied += fmt.Sprintf(" at tick %d", l.Tick)
		}
		if o := l.Outcome; !o.Applied() || o == protocol.StageBlocked || o == protocol.StagePlayer {
			applied += " (" + o.String() + ")"
		}
		words = append(words, "arrived "+rel(l.Arrived), applied, "ack sent "+rel(l.AckSent))
	}
	words = append(words, "acked "+rel(l.Acked))
	if l.HeldDown > 0 {
		words = append(words, "(held "+millis(l.HeldDown)+")")
	}
	if l.Zap && l.Judged {
		words = append(words, fmt.Sprintf("rewound %d ms", l.Rewind.Milliseconds()))
	}
	words = append(words, fmt.Sprintf("replayed %d", l.Replayed))
	switch {
	case l.Corrected:
		words = append(words, fmt.Sprintf("corrected by %d cell%s", l.Cells, pluralS(l.Cells)))
	default:
		words = append(words, "prediction right")
	}
	if !l.Traced {
		words = append(words, "(the server's stages: press t to ask, they come from the next input)")
		if tracing {
			words[len(words)-1] = "(the server's stages come from the next input)"
		}
	}
	return wrapWords(words, " · ", width, 3)
}

// wrapWords joins words with sep into lines of at most width columns, at
// most max lines (the last cut to fit).
func wrapWords(words []string, sep string, width, maxLines int) []string {
	var lines []string
	cur := ""
	for _, w := range words {
		switch {
		case cur == "":
			cur = w
		case textWidth(cur+sep+w) <= width:
			cur += sep + w
		default:
			lines = append(lines, cur)
			cur = w
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	if len(lines) > maxLines {
		lines = lines[:maxLines]
		lines[maxLines-1] = fitText(lines[maxLines-1]+sep+strings.Repeat("…", width), width)
	}
	return lines
}

// roundMS is d in whole milliseconds, rounded (0 for less than 0).
func roundMS(d time.Duration) int64 { return max(d, 0).Round(time.Millisecond).Milliseconds() }

// pluralS is "s" unless n is 1.
func pluralS(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
