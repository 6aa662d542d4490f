package tui

import (
	"strconv"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
)

// The instruments (issue 22) are overlays a key opens over what a screen
// shows, on every screen that has players (the game's and the lab's): the
// waterfall of the last inputs' lives (waterfall.go), the net graph
// (netgraph.go) and the latency budget (budget.go). Each draws what
// package client measures (client.Instruments), which the screen base
// takes only while one is open; the waterfall asks the server for its
// stages of the inputs (client.Instrumented.SetTrace) while it is open,
// and only then. They live in the screen base (screenBase.tools), with
// their keys (instrumentBinding) and smoothing's (smoothBinding) in every
// such screen's key table: a screen names its players and says where the
// overlay goes (instruments.draw), and leaves out what it covers. The
// spectator's, the teacher's and the replay's screens have none: no
// player of their own (a replay's players are its recording's, played
// again by its model), and their keys g and t say other things there.

// instrument is an overlay of the instruments.
type instrument uint8

// The overlays.
const (
	noInstrument instrument = iota
	waterfallView
	netGraphView
	budgetView
	wireView // the game's screen only: see wire.go
)

// instruments is a screen's state of its overlays: its players, the
// overlay open, and what the players' sessions measured as of the last
// frame.
type instruments struct {
	// players are the screen's players (one in the game, two in the lab);
	// none: the screen has no instruments.
	players []client.Session
	// names name the players on the overlays (the lab's "Player 1");
	// none: the one player is "you".
	names []string
	// predictKeys are the keys that turn each player's prediction on and
	// off, which the budget names.
	predictKeys []string

	open instrument
	data [2]client.Instruments
	wire wireHistory // the wire overlay's readings (its meter: Options.Wire)
}

// shown reports whether an overlay is open: the screen leaves out what it
// covers.
func (in *instruments) shown() bool { return in.open != noInstrument }

// toggle opens overlay kind, or closes it if it is the one open; the
// players' sessions are asked for the server's stages while the waterfall
// is open.
func (in *instruments) toggle(kind instrument) {
	if len(in.players) == 0 {
		return
	}
	was := in.open
	in.open = kind
	if was == kind {
		in.open = noInstrument
	}
	if in.open == wireView {
		in.wire.reset()
	}
	if (was == waterfallView) != (in.open == waterfallView) {
		for _, s := range in.players {
			if i, ok := s.(client.Instrumented); ok {
				i.SetTrace(in.open == waterfallView)
			}
		}
	}
}

// take takes the players' instruments for the next frame, if an overlay
// is open (and costs nothing otherwise).
func (in *instruments) take(now time.Time) {
	if in.open == noInstrument {
		return
	}
	if in.open == wireView {
		in.wire.sample(now, acked(in.players))
		return
	}
	for i, s := range in.players {
		if is, ok := s.(client.Instrumented); ok && i < len(in.data) {
			is.Instruments(&in.data[i])
		}
	}
}

// smoothing reports whether the first player's corrections slide.
func (in *instruments) smoothing() bool {
	if len(in.players) == 0 {
		return false
	}
	return in.players[0].View().Smooth
}

// toggleSmooth turns smoothing of corrections on or off for every player
// of the screen, from the first one's state.
func (in *instruments) toggleSmooth() {
	on := !in.smoothing()
	for _, p := range in.players {
		setSmooth(p, on)
	}
}

// nextChange is how soon the overlay open changes with time alone: the
// net graph's seconds roll by; 0 for the others, which change only when
// something arrives.
func (in *instruments) nextChange() time.Duration {
	if in.open == netGraphView || in.open == wireView {
		return time.Second / 4
	}
	return 0
}

// draw draws the overlay open (if one is) over r: the one player's over
// all of it, two players' in halves, the first above (or on the left,
// when wide).
func (in *instruments) draw(screen tcell.Screen, r rect) {
	if in.open == noInstrument || len(in.players) == 0 {
		return
	}
	if len(in.players) == 1 {
		ins := &in.data[0]
		switch in.open {
		case waterfallView:
			drawWaterfall(screen, r, "Waterfall: your last inputs, key to server's word", "t", ins)
		case netGraphView:
			drawNetGraph(screen, r, "Net graph: the last 30 s", "g", ins)
		case budgetView:
			drawBudgets(screen, r, "Latency budget", "b", []string{ownBudgetHeading}, []client.Budget{ins.Budget}, in.predictKey(0))
		case wireView:
			drawWire(screen, r, &in.wire)
		}
		return
	}
	halves := [2]rect{{r.x, r.y, r.w, r.h / 2}, {r.x, r.y + r.h/2, r.w, r.h - r.h/2}}
	if r.w >= 160 {
		halves = [2]rect{{r.x, r.y, r.w / 2, r.h}, {r.x + r.w/2 + 1, r.y, r.w - r.w/2 - 1, r.h}}
	}
	for i, half := range halves {
		ins := &in.data[i]
		name := in.name(i)
		switch in.open {
		case waterfallView:
			drawWaterfall(screen, half, name+": waterfall of the last inputs", "t", ins)
		case netGraphView:
			drawNetGraph(screen, half, name+": net graph, the last 30 s", "g", ins)
		case budgetView:
			seer := in.name(1 - i)
			b := client.NewBudget(ins.Side, in.data[1-i].Side, seer+"'s ")
			drawBudgets(screen, half, name+": latency budget", "b",
				[]string{"from " + name + "'s press to " + seer + " seeing it"}, []client.Budget{b}, in.predictKey(i))
		}
	}
}

// name is how the overlays name player i.
func (in *instruments) name(i int) string {
	if i < len(in.names) {
		return in.names[i]
	}
	return "Player " + strconv.Itoa(i+1)
}

// predictKey is the key that turns player i's prediction on and off.
func (in *instruments) predictKey(i int) string {
	if i < len(in.predictKeys) {
		return in.predictKeys[i]
	}
	return toggleLabel(predictToggle)
}

// instrumentBinding is the row of a key table that opens and closes the
// instruments' overlays, on a screen with players.
func instrumentBinding[T baser]() binding[T] {
	open := func(kind instrument) func(T) { return func(s T) { s.base().tools.toggle(kind) } }
	return binding[T]{label: "t g b", help: "the last inputs' waterfall, the net graph, the latency budget",
		keys: concat(runeKeys("t", open(waterfallView)), runeKeys("g", open(netGraphView)), runeKeys("b", open(budgetView)))}
}

// smoothBinding is the row of a key table that turns smoothing of
// corrections on and off, for every player of the screen.
func smoothBinding[T baser]() binding[T] {
	return binding[T]{label: "m", help: "smoothing on/off: a correction slides over a move time, not snaps", toggle: smoothToggle,
		keys: runeKeys("m", func(s T) { s.base().tools.toggleSmooth() })}
}

// instrumentRowBinding is instrumentBinding's and smoothBinding's keys
// on one row, for a table whose help has no room for two (the lab's at
// 80x24); smoothing's switch is then the header's, not a panel's.
func instrumentRowBinding[T baser]() binding[T] {
	i, m := instrumentBinding[T](), smoothBinding[T]()
	return binding[T]{label: i.label + " " + m.label, help: "the last inputs' waterfall, net graph, latency budget; m smoothing",
		keys: concat(i.keys, m.keys)}
}

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
