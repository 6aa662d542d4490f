package tui

import (
	"strconv"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
)

// The instruments (issue 22) are overlays a key opens over the board and
// the panel, on the game's screen and the lab's: the waterfall of the last
// inputs' lives (waterfall.go), the net graph (netgraph.go) and the
// latency budget (budget.go). Each draws what package client measures
// (client.Instruments), which the screen takes only while one is open;
// the waterfall asks the server for its stages of the inputs
// (client.Instrumented.SetTrace) while it is open, and only then. Each is
// a function of a rectangle and the data it draws, so that a screen base
// can place it anywhere.

// instrument is an overlay of the instruments.
type instrument uint8

// The overlays.
const (
	noInstrument instrument = iota
	waterfallView
	netGraphView
	budgetView
)

// instruments is a screen's state of its overlays: the one open, and what
// the sessions measured as of the last frame.
type instruments struct {
	open instrument
	data [2]client.Instruments
}

// toggle opens overlay kind, or closes it if it is the one open; the
// sessions are asked for the server's stages while the waterfall is open.
func (in *instruments) toggle(kind instrument, sessions ...client.Session) {
	was := in.open
	in.open = kind
	if was == kind {
		in.open = noInstrument
	}
	if (was == waterfallView) != (in.open == waterfallView) {
		for _, s := range sessions {
			if i, ok := s.(client.Instrumented); ok {
				i.SetTrace(in.open == waterfallView)
			}
		}
	}
}

// take takes the sessions' instruments for the next frame, if an overlay
// is open (and costs nothing otherwise).
func (in *instruments) take(sessions ...client.Session) {
	if in.open == noInstrument {
		return
	}
	for i, s := range sessions {
		if is, ok := s.(client.Instrumented); ok && i < len(in.data) {
			is.Instruments(&in.data[i])
		}
	}
}

// instrumentKeys is the help's row of the instruments' keys.
const instrumentKeys = "t g b"

// instrumentHelp is what the instruments' keys do, for the help.
const instrumentHelp = "the waterfall of your inputs, the net graph, the latency budget"

// The colours of the stages of an input's life and of the parts of a
// budget: one each, told apart on dark and light terminals; the text on
// them is black.
var (
	colorLimit  = tcell.ColorMediumPurple // the speed limit's wait
	colorHeld   = tcell.ColorRed          // what the link held back (a lost segment, head-of-line blocking)
	colorUp     = tcell.ColorDeepSkyBlue  // one way up
	colorServer = tcell.ColorOrange       // at the server: applying it, waiting for the tick, sending the State
	colorDown   = tcell.ColorLimeGreen    // one way back
	colorInterp = tcell.ColorTurquoise    // the interpolation delay
	colorTrip   = tcell.ColorSilver       // a trip whose stages the server did not tell
)

// segment is one coloured stretch of a bar, and the milliseconds written
// on it.
type segment struct {
	color tcell.Color
	ms    int64
}

// drawBar draws segments as one bar of w columns from (x, y), each as long
// as its share of total (total 0: nothing), with its milliseconds written
// on it when they fit. Every segment of at least half a column gets one.
func drawBar(screen tcell.Screen, x, y, w int, segs []segment, total int64) {
	if total <= 0 || w <= 0 {
		return
	}
	var at int64
	for _, sg := range segs {
		from := int((at*int64(w) + total/2) / total)
		at += sg.ms
		to := min(int((at*int64(w)+total/2)/total), w)
		if to <= from {
			continue
		}
		st := tcell.StyleDefault.Background(sg.color).Foreground(tcell.ColorBlack)
		fill(screen, x+from, y, to-from, 1, st)
		if label := msText(sg.ms); textWidth(label) < to-from {
			putText(screen, x+from+(to-from-textWidth(label))/2, y, to-from, label, st)
		}
	}
}

// msText writes a span of milliseconds as a bar shows it: "125".
func msText(ms int64) string { return strconv.FormatInt(ms, 10) }

// swatch draws a legend's key: a coloured block, then name; it returns
// the columns used.
func swatch(screen tcell.Screen, x, y, w int, c tcell.Color, name string) int {
	if w < 3 {
		return 0
	}
	screen.Put(x, y, "█", tcell.StyleDefault.Foreground(c))
	return 2 + putText(screen, x+2, y, w-2, name, styleText)
}

// drawOverlayBox clears r for an overlay and draws its title on the top
// row, with the key that closes it.
func drawOverlayBox(screen tcell.Screen, r rect, title, closeKey string) {
	fill(screen, r.x, r.y, r.w, r.h, styleText)
	n := putText(screen, r.x, r.y, r.w, title, styleHeading)
	putText(screen, r.x+n, r.y, r.w-n, "  ("+closeKey+" closes)", styleDim)
}
