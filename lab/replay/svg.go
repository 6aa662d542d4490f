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
	svgTop    = 70  // the lanes' headings above
	svgBottom = 40  // below the last moment
	svgSeeL   = 118 // the right edge of the first player's column
	svgLane1  = 150
	svgLaneS  = 380
	svgLane2  = 610
	svgSeeR   = 640 // the left edge of the second player's column
	svgMinGap = 13  // the least room between two labels in one column

	svgHeadChar = 8   // about the width of a character of the title
	svgLabelAt  = 0.3 // where along its arrow a message's label sits, from the player's lane
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
	y := func(t time.Duration) float64 { return svgTop + float64(t)/float64(time.Millisecond)*scale }
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
.srv{fill:#444;font-size:9px;paint-order:stroke;stroke:#fff;stroke-width:3px}
.head{font-size:12px;font-weight:bold}
.note{fill:#666;font-size:9px}
</style>
<defs>
`)
	for _, m := range []struct{ id, color string }{{"arrow", "#1f5fbf"}, {"arrowg", "#2e7d32"}, {"arrowr", "#c62828"}, {"arrowo", "#ef6c00"}} {
		p(`<marker id="%s" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="%s"/></marker>`+"\n", m.id, m.color)
	}
	p("</defs>\n")
	fit := "" // a long title (a command line) is narrowed to the page
	if len(title)*svgHeadChar > svgWidth-20 {
		fit = fmt.Sprintf(` textLength="%d" lengthAdjust="spacingAndGlyphs"`, svgWidth-20)
	}
	p(`<text x="%d" y="18" class="head"%s>%s</text>`+"\n", 10, fit, esc(title))
	p(`<text x="%d" y="32" class="note">time goes down (%.2f px a ms); an arrow per message, from when it left to when it arrived;</text>`+"\n", 10, scale)
	p(`<text x="%d" y="43" class="note">red dashed: lost and sent again; orange: held behind a lost one or a lag spike; ✗: lost for good; beside each player: what it sees</text>`+"\n", 10)
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
		p(`<text x="%d" y="%d" text-anchor="middle" class="head">%s</text>`+"\n", h.x, svgTop-12, esc(h.name))
		p(`<line class="lane" x1="%d" y1="%d" x2="%d" y2="%d"/>`+"\n", h.x, svgTop-6, h.x, height-svgBottom/2)
	}
	step := tickStep(end, scale)
	for t := time.Duration(0); t <= end; t += step {
		p(`<line class="tick" x1="0" y1="%.1f" x2="%d" y2="%.1f"/><text x="2" y="%.1f" class="note">%d ms</text>`+"\n",
			y(t), svgWidth, y(t), y(t)-2, t.Milliseconds())
	}
	for _, w := range r.Wires {
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
		p(`<g class="%s"><line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`, class, x1, y1, x2, y2)
		// The label sits nearer the player's lane than the server's, where
		// the server's notes are: a message up and one down that cross
		// have their labels apart.
		at := svgLabelAt
		if !w.Up {
			at = 1 - at
		}
		lx, ly := x1+(x2-x1)*at, y1+(y2-y1)*at
		if w.Dropped {
			lx, ly = (x1+x2)/2, (y1+y2)/2
		}
		p(`<text x="%.1f" y="%.1f" text-anchor="middle">%s</text></g>`+"\n", lx, ly-3, esc(w.Label+note))
	}
	writeColumns(p, r, y, second)
	p("</svg>\n")
	return b.Flush()
}

// writeColumns writes what each player sees at each of its moments
// beside its lane, and what the server did beside its own.
func writeColumns(p func(string, ...any), r *scenario.Result, y func(time.Duration) float64, second string) {
	next := map[string]float64{}
	place := func(col string, at float64) float64 {
		at = max(at, next[col])
		next[col] = at + svgMinGap
		return at
	}
	for i, l := range r.Lines {
		if l.Link != nil || l.Loss != nil {
			continue // the datagram link's summary, a loss (its arrow is red): in the timeline
		}
		at := time.Duration(l.T)
		if strings.HasPrefix(l.Event, "server: ") {
			_, what, _ := strings.Cut(l.Event, "server: ")
			yy := place("server", y(at)+4)
			p(`<circle cx="%d" cy="%.1f" r="2.5" fill="#444"/><text x="%d" y="%.1f" class="srv">%s</text>`+"\n",
				svgLaneS, y(at), svgLaneS+6, yy, esc(shorten(what, 38)))
			continue
		}
		if i+1 < len(r.Lines) && slices.ContainsFunc(r.Lines[i+1:], func(n scenario.Line) bool {
			return n.TMS == l.TMS && n.Player == l.Player && !strings.HasPrefix(n.Event, "server: ")
		}) {
			continue // the moment's last line says what the player sees
		}
		text := fmt.Sprintf("(%d,%d)", l.Client[0], l.Client[1])
		if len(l.Pending) > 0 {
			text += " #" + strings.Trim(strings.ReplaceAll(fmt.Sprint(l.Pending), " ", ",#"), "[]")
		}
		class := "sees"
		if strings.Contains(l.Event, "CORRECTION") || l.Differs {
			class = "corr"
		}
		if l.Differs && l.Original != nil {
			text += fmt.Sprintf(" (was (%d,%d))", l.Original.Client[0], l.Original.Client[1])
		}
		yy := place(l.Player, y(at)+4)
		if l.Player == second {
			p(`<text x="%d" y="%.1f" class="%s">%s</text>`+"\n", svgSeeR, yy, class, esc(text))
		} else {
			p(`<text x="%d" y="%.1f" text-anchor="end" class="%s">%s</text>`+"\n", svgSeeL, yy, class, esc(text))
		}
	}
}

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

// shorten cuts s to n characters, with an ellipsis.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// esc escapes text for SVG.
func esc(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}
