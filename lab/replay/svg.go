package replay

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"gridlag/lab/scenario"
)

// The layout of a sequence diagram, in SVG user units (about a pixel;
// the page is A4's width at 96 dpi less margins, so it prints unscaled).
const (
	svgWidth  = 760
	svgTop    = 70  // the lanes' headings above, under a title of one line
	svgBottom = 40  // below the last moment
	svgSeeL   = 118 // the right edge of the first player's column
	svgLane1  = 150
	svgLaneS  = 380
	svgLane2  = 610
	svgSeeR   = 640 // the left edge of the second player's column
	svgMinGap = 13  // the least room between two labels in one column

	svgLabelAt = 0.3 // where along its arrow a message's label sits, from the player's lane
	svgFont    = 10  // the labels' size; the server's notes are 9, the title 12
	svgSrvFont = 9
	svgHead    = 12
	svgLine    = 15 // a title's line
)

// WriteSVG writes the sequence diagram of r: three lanes (the first
// player, the server, the second player), time going down, one arrow per
// message from when it left to when it arrived, labelled (a lost and
// retransmitted message red and dashed, one held behind another orange,
// a datagram lost for good ending in a cross), and beside each player's
// lane what it sees at each of its moments, beside the server's what it
// did. Times are scaled to fit a long run in a page or a few; labels too
// close in time are pushed down, never dropped. title heads the page.
func WriteSVG(out io.Writer, r *scenario.Result, title string) error {
	if len(r.Players) == 0 {
		return fmt.Errorf("nothing to draw: the run has no player")
	}
	// The page ends a little after the last thing that happened: a run's
	// end leaves room for answers that may not come.
	var end time.Duration
	for _, l := range r.Lines {
		if l.Link == nil {
			end = max(end, time.Duration(l.T))
		}
	}
	for _, w := range r.Wires {
		end = max(end, w.At)
	}
	end = min(end+50*time.Millisecond, max(r.End, time.Millisecond))
	scale := min(max(1000/float64(end.Milliseconds()+1), 0.1), 1.6) // px per ms
	// A long title (a command line) is broken between words onto lines
	// that fit the page, and everything under it moves down.
	heading := wrap(title, svgWidth-20, svgHead, true)
	top := svgTop + svgLine*float64(len(heading)-1)
	y := func(t time.Duration) float64 { return top + float64(t)/float64(time.Millisecond)*scale }
	height := int(y(end)) + svgBottom
	lanes := map[string]int{r.Players[0]: svgLane1}
	second := ""
	if len(r.Players) > 1 {
		second = r.Players[1]
		lanes[second] = svgLane2
	}
	b := bufio.NewWriter(out)
	p := func(format string, a ...any) { fmt.Fprintf(b, format, a...) }
	p(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	p(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="10">`+"\n",
		svgWidth, height, svgWidth, height)
	p(`<title>%s</title>`+"\n", esc(title))
	p(`<style>
.lane{stroke:#444;stroke-width:1.2}
.tick{stroke:#ddd;stroke-width:0.6}
.msg line{stroke:#1f5fbf;stroke-width:1.2;marker-end:url(#arrow)}
.msg.down line{stroke:#2e7d32;marker-end:url(#arrowg)}
.msg.lost line{stroke:#c62828;stroke-dasharray:5 3;marker-end:url(#arrowr)}
.msg.held line{stroke:#ef6c00;marker-end:url(#arrowo)}
.msg.dropped line{stroke:#c62828;stroke-dasharray:2 3;marker-end:none}
.msg text{fill:#222;paint-order:stroke;stroke:#fff;stroke-width:3px}
.sees{fill:#111}
.corr{fill:#c62828;font-weight:bold}
.jump{fill:none;stroke:#c62828;stroke-width:1.5}
.srv{fill:#444;font-size:9px;paint-order:stroke;stroke:#fff;stroke-width:3px}
.srv.diff{fill:#c62828}
.head{font-size:12px;font-weight:bold}
.note{fill:#666;font-size:9px}
</style>
<defs>
`)
	for _, m := range []struct{ id, color string }{{"arrow", "#1f5fbf"}, {"arrowg", "#2e7d32"}, {"arrowr", "#c62828"}, {"arrowo", "#ef6c00"}} {
		p(`<marker id="%s" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="%s"/></marker>`+"\n", m.id, m.color)
	}
	p("</defs>\n")
	for i, l := range heading {
		p(`<text x="%d" y="%d" class="head title">%s</text>`+"\n", 10, 18+svgLine*i, esc(l))
	}
	under := top - svgTop
	p(`<text x="%d" y="%.0f" class="note">time goes down (%.2f px a ms); an arrow per message, from when it left to when it arrived;</text>`+"\n", 10, 32+under, scale)
	p(`<text x="%d" y="%.0f" class="note">red dashed: lost and sent again; orange: held behind a lost one or a lag spike; ✗: lost for good; beside each player: what it sees</text>`+"\n", 10, 43+under)
	heads := []struct {
		x    int
		name string
	}{{svgLane1, r.Players[0]}, {svgLaneS, "server"}}
	if second != "" {
		heads = append(heads, struct {
			x    int
			name string
		}{svgLane2, second})
	}
	for _, h := range heads {
		p(`<text x="%d" y="%.0f" text-anchor="middle" class="head">%s</text>`+"\n", h.x, top-12, esc(h.name))
		p(`<line class="lane" x1="%d" y1="%.0f" x2="%d" y2="%d"/>`+"\n", h.x, top-6, h.x, height-svgBottom/2)
	}
	step := tickStep(end, scale)
	for t := time.Duration(0); t <= end; t += step {
		p(`<line class="tick" x1="0" y1="%.1f" x2="%d" y2="%.1f"/><text x="2" y="%.1f" class="note">%d ms</text>`+"\n",
			y(t), svgWidth, y(t), y(t)-2, t.Milliseconds())
	}
	type drawn struct {
		class, label string
		seg          [4]float64
		at           float64
		n            int
	}
	var arrows []drawn
	for _, g := range sameArrows(r.Wires) {
		w := g.Wire
		lane, ok := lanes[w.Player]
		if !ok {
			continue
		}
		x1, x2 := float64(lane), float64(svgLaneS)
		if !w.Up {
			x1, x2 = x2, x1
		}
		y1, y2 := y(max(w.Sent, 0)), y(w.At) // sent during the join: drawn from the start
		class := "msg up"
		if !w.Up {
			class = "msg down"
		}
		note := ""
		switch {
		case w.Dropped:
			class += " dropped"
			x2, y2 = (x1+x2)/2, (y1+y2)/2
			note = " ✗ lost"
		case w.Lost > 0:
			class += " lost"
			note = fmt.Sprintf(" (lost ×%d, sent again)", w.Lost)
		case w.Held:
			class += " held"
			note = " (held)"
		}
		n := 0
		var names []string
		for i, l := range g.labels {
			if g.counts[i] > 1 {
				l += fmt.Sprintf(" ×%d", g.counts[i])
			}
			names = append(names, l)
			n += g.counts[i]
		}
		// The label sits nearer the player's lane than the server's, where
		// the server's notes are: a message up and one down that cross
		// have their labels apart.
		at := svgLabelAt
		if !w.Up {
			at = 1 - at
		}
		if w.Dropped {
			at = 1 // the end of the half drawn
		}
		arrows = append(arrows, drawn{class, strings.Join(names, ", ") + note, [4]float64{x1, y1, x2, y2}, at, n})
	}
	segs := make([][4]float64, len(arrows))
	for i, a := range arrows {
		segs[i] = a.seg
	}
	var placed [][4]float64
	for i, a := range arrows {
		x1, y1, x2, y2 := a.seg[0], a.seg[1], a.seg[2], a.seg[3]
		p(`<g class="%s" data-messages="%d"><line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`, a.class, a.n, x1, y1, x2, y2)
		others := slices.Concat(segs[:i], segs[i+1:])
		lx, ly, anchor, box := besideArrow(a.seg, a.at, textWidth(a.label, svgFont, false), placed, others)
		placed = append(placed, box)
		p(`<text x="%.1f" y="%.1f" text-anchor="%s">%s</text></g>`+"\n", lx, ly, anchor, esc(a.label))
	}
	writeColumns(p, r, y, second, second == "")
	p("</svg>\n")
	return b.Flush()
}

// arrow is the messages drawn as one arrow: those of one player, way,
// fate, departure and arrival (a State and a pong that left together),
// labelled together.
type arrow struct {
	scenario.Wire
	labels []string
	counts []int // how many messages of each label
}

// sameArrows groups wires into arrows, in order of their first.
func sameArrows(wires []scenario.Wire) []arrow {
	type key struct {
		player            string
		up, held, dropped bool
		sent, resent, at  time.Duration
		lost              int
	}
	var out []arrow
	at := map[key]int{}
	for _, w := range wires {
		k := key{w.Player, w.Up, w.Held, w.Dropped, w.Sent, w.Resent, w.At, w.Lost}
		if i, ok := at[k]; ok {
			if j := slices.Index(out[i].labels, w.Label); j >= 0 {
				out[i].counts[j]++
			} else {
				out[i].labels = append(out[i].labels, w.Label)
				out[i].counts = append(out[i].counts, 1)
			}
			continue
		}
		at[k] = len(out)
		out = append(out, arrow{w, []string{w.Label}, []int{1}})
	}
	return out
}

// writeColumns writes what each player sees at each of its moments
// beside its lane, and what the server did beside its own, in full (a
// note too long for its column goes on more lines; wide, when no second
// player takes the right of the page). A moment where the player's view
// jumps (a correction the server's word made: with reconciliation off,
// the jump back) is marked on its lane and says from where.
func writeColumns(p func(string, ...any), r *scenario.Result, y func(time.Duration) float64, second string, wide bool) {
	next := map[string]float64{}
	place := func(col string, at float64, lines int) float64 {
		at = max(at, next[col])
		next[col] = at + svgMinGap*float64(lines)
		return at
	}
	srvWidth := svgSeeR - svgLaneS - 6 - 34 // left of the second player's column, clear of its lane
	if wide {
		srvWidth = svgWidth - svgLaneS - 10
	}
	moment := func(l scenario.Line) bool { return l.Link == nil && l.Loss == nil && l.Input == nil }
	seen := map[string]scenario.Line{} // each player's last moment drawn
	for i, l := range r.Lines {
		if !moment(l) {
			continue // the datagram link's summary, a loss (its arrow is red), an input's life: in the timeline
		}
		at := time.Duration(l.T)
		if strings.HasPrefix(l.Event, "server: ") {
			_, what, _ := strings.Cut(l.Event, "server: ")
			if l.OriginalZap != nil { // a what-if's verdict: the recording's beside it
				what += " (was: " + verdictWords(l.OriginalZap, false) + ")"
			}
			lines := wrap(strings.ReplaceAll(what, " ms", "\u00a0ms"), srvWidth, svgSrvFont, false)
			class := "srv"
			if l.OriginalZap != nil {
				class = "srv diff"
			}
			yy := place("server", y(at)+4, len(lines))
			bw := 0.0
			for _, l := range lines {
				bw = max(bw, textWidth(l, svgSrvFont, false))
			}
			p(`<rect x="%d" y="%.1f" width="%.0f" height="%.0f" fill="#fff" fill-opacity="0.9"/>`, svgLaneS+4, yy-svgSrvFont, bw+4, svgMinGap*float64(len(lines)))
			p(`<circle cx="%d" cy="%.1f" r="2.5" fill="#444"/><text x="%d" y="%.1f" class="%s">%s</text>`+"\n",
				svgLaneS, y(at), svgLaneS+6, yy, class, tspans(lines, svgLaneS+6, svgMinGap))
			continue
		}
		if i+1 < len(r.Lines) && slices.ContainsFunc(r.Lines[i+1:], func(n scenario.Line) bool {
			return moment(n) && n.TMS == l.TMS && n.Player == l.Player && !strings.HasPrefix(n.Event, "server: ")
		}) {
			continue // the moment's last line says what the player sees
		}
		prev, ok := seen[l.Player]
		seen[l.Player] = l
		lines := []string{fmt.Sprintf("(%d,%d)", l.Client[0], l.Client[1])}
		if len(l.Pending) > 0 {
			lines[0] += " #" + strings.Trim(strings.ReplaceAll(fmt.Sprint(l.Pending), " ", ",#"), "[]")
		}
		class := "sees"
		jump := ok && l.Corr > prev.Corr && prev.Client != l.Client
		if jump {
			class = "corr"
			lines = append(lines, fmt.Sprintf("jumps from (%d,%d)", prev.Client[0], prev.Client[1]))
		}
		if l.Tag != nil {
			class = "corr"
			lines = append(lines, "tagged by "+l.Tag.By+", frozen")
		}
		if l.Differs && l.Original != nil {
			class = "corr"
			lines = append(lines, fmt.Sprintf("(was (%d,%d))", l.Original.Client[0], l.Original.Client[1]))
		}
		var col []string // the column is narrow: each line wrapped to it
		for _, s := range lines {
			col = append(col, wrap(s, svgWidth-svgSeeR-4, svgFont, class == "corr")...)
		}
		lines = col
		yy := place(l.Player, y(at)+4, len(lines))
		x, anchor := svgSeeL, "end"
		lane := svgLane1
		if l.Player == second {
			x, anchor, lane = svgSeeR, "start", svgLane2
		}
		if jump {
			p(`<circle class="jump" cx="%d" cy="%.1f" r="4"/>`+"\n", lane, y(at))
		}
		p(`<text x="%d" y="%.1f" text-anchor="%s" class="%s">%s</text>`+"\n", x, yy, anchor, class, tspans(lines, x, svgMinGap))
	}
}

// tspans writes lines as one text's lines, x their start, dy apart.
func tspans(lines []string, x int, dy float64) string {
	if len(lines) == 1 {
		return esc(lines[0])
	}
	var b strings.Builder
	for i, l := range lines {
		if i == 0 {
			fmt.Fprintf(&b, `<tspan x="%d">%s</tspan>`, x, esc(l))
			continue
		}
		fmt.Fprintf(&b, `<tspan x="%d" dy="%.0f">%s</tspan>`, x, dy, esc(l))
	}
	return b.String()
}

// textWidth estimates, a little generously, how wide s is in the page's
// font (DejaVu Sans, the widest of those it names) at size px: the
// diagram places its labels by it, and a test checks them by it.
func textWidth(s string, size float64, bold bool) float64 {
	w := 0.0
	for _, r := range s {
		switch {
		case r == ' ':
			w += 0.32
		case strings.ContainsRune("il.,:;'|!()[]{}jft", r):
			w += 0.36
		case r >= 'A' && r <= 'Z', strings.ContainsRune("#@%&mwMW—✗×", r):
			w += 0.8
		default:
			w += 0.64
		}
	}
	if bold {
		w *= 1.12
	}
	return w * size
}

// wrap breaks s between words into lines at most width wide at size px
// (a word wider than the line has a line of its own).
func wrap(s string, width int, size float64, bold bool) []string {
	var lines []string
	line := ""
	for _, word := range strings.Split(s, " ") { // not at a no-break space
		switch {
		case word == "":
			continue
		case line == "":
			line = word
		case textWidth(line+" "+word, size, bold) <= float64(width):
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	return append(lines, line)
}

// besideArrow places a label of width w beside the arrow seg (x1, y1,
// x2, y2), near the fraction at along it: just above, below, left or
// right of it, between the two lanes, clear of the labels placed and,
// where it can, of the other arrows; nearest at otherwise. It returns the
// text's x, baseline and anchor, and its box. No part of the label's box
// touches its arrow.
func besideArrow(seg [4]float64, at, w float64, placed, others [][4]float64) (x, y float64, anchor string, box [4]float64) {
	const gap, ascent, descent, margin = 2.0, 0.8 * svgFont, 0.25 * svgFont, 4.0
	x1, y1, x2, y2 := seg[0], seg[1], seg[2], seg[3]
	lo, hi := min(x1, x2)+margin, max(x1, x2)-margin // between the lanes
	slope := (y2 - y1) / (x2 - x1)                   // lanes apart: never vertical
	lineY := func(x float64) float64 { return y1 + (x-x1)*slope }
	lineX := func(y float64) float64 { return x1 + (y-y1)/slope }
	px0 := x1 + (x2-x1)*at
	py0 := lineY(px0)
	var places [][4]float64 // the boxes: left, top, right, bottom
	for _, f := range []float64{0, 0.1, -0.1, 0.2, -0.2, 0.3, -0.3, 0.4, -0.4} {
		f = at + f
		if f < 0.05 || f > 1 {
			continue
		}
		px := x1 + (x2-x1)*f
		py := lineY(px)
		// Above and below: across the box's width, clear of the arrow;
		// the box slid along it to stay between the lanes.
		if cx := min(max(px, lo+w/2), hi-w/2); hi-lo >= w {
			a, b := lineY(cx-w/2), lineY(cx+w/2)
			top := min(a, b) - gap - descent - ascent
			bottom := max(a, b) + gap
			places = append(places, [4]float64{cx - w/2, top, cx + w/2, top + ascent + descent},
				[4]float64{cx - w/2, bottom, cx + w/2, bottom + ascent + descent})
		}
		// Left and right: across the box's height, clear of the arrow.
		if slope != 0 {
			top := py - (ascent+descent)/2
			a, b := lineX(top), lineX(top+ascent+descent)
			if l := min(a, b) - gap - w; l >= lo {
				places = append(places, [4]float64{l, top, l + w, top + ascent + descent})
			}
			if r := max(a, b) + gap; r+w <= hi {
				places = append(places, [4]float64{r, top, r + w, top + ascent + descent})
			}
		}
	}
	if len(places) == 0 { // no room between the lanes: above, as wide as it is
		top := py0 - gap - descent - ascent - w*abs(slope)/2
		places = append(places, [4]float64{px0 - w/2, top, px0 + w/2, top + ascent + descent})
	}
	cost := func(b [4]float64) float64 {
		c := abs((b[0]+b[2])/2-px0) + abs((b[1]+b[3])/2-py0)
		for _, q := range placed {
			if b[0] < q[2] && q[0] < b[2] && b[1] < q[3] && q[1] < b[3] {
				c += 1000
			}
		}
		for _, o := range others {
			if segmentHitsBox(o, b) {
				c += 150
			}
		}
		return c
	}
	box = places[0]
	for _, b := range places[1:] {
		if cost(b) < cost(box) {
			box = b
		}
	}
	return (box[0] + box[2]) / 2, box[3] - descent, "middle", box
}

// segmentHitsBox reports whether the segment s (x1, y1, x2, y2) crosses
// or touches the box b (left, top, right, bottom).
func segmentHitsBox(s, b [4]float64) bool {
	// Clip the segment to the box's x range, then compare y ranges.
	x1, y1, x2, y2 := s[0], s[1], s[2], s[3]
	if x1 > x2 {
		x1, y1, x2, y2 = x2, y2, x1, y1
	}
	l, r := max(x1, b[0]), min(x2, b[2])
	if l > r {
		return false
	}
	at := func(x float64) float64 {
		if x2 == x1 {
			return y1
		}
		return y1 + (x-x1)*(y2-y1)/(x2-x1)
	}
	ya, yb := at(l), at(r)
	return max(ya, yb) >= b[1] && min(ya, yb) <= b[3]
}

// abs is |f|.
func abs(f float64) float64 { return max(f, -f) }

// tickStep is the time between two ticks of the time axis: about every
// 60 units of the page.
func tickStep(end time.Duration, scale float64) time.Duration {
	for _, s := range []time.Duration{25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000, 60000} {
		if float64(s)*scale >= 60 || s*time.Millisecond >= end {
			return s * time.Millisecond
		}
	}
	return time.Minute
}

// esc escapes text for SVG.
func esc(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}
