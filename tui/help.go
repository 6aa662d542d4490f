package tui

import (
	"slices"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
)

// helpRow is one row of the help: a key (or a symbol of the board) in its
// style, and what it does (or means).
type helpRow struct {
	key   string
	style tcell.Style
	text  string
}

// legendHelp explains the board's symbols, each drawn as the board draws
// it.
var legendHelp = []helpRow{
	{"@ ▶", styleMe, "you, where prediction puts you; the arrow: your facing"},
	{"─ │", styleBeam, "your zap's beam (a hit is the server's word)"},
	{"@", styleGhost, "you, where the server last said you are"},
	{"A", otherStyle(client.Other{Name: "Ada", Color: 1}), "another player: its mark (first letter, or where names differ), own colour"},
	{"b", otherStyle(client.Other{Name: "bot", Color: 2}), "a bot: its mark on a block of its colour"},
	{"A", protectedStyle(otherStyle(client.Other{Name: "Ada", Color: 1}), true), "underlined: just joined or respawned, safe for now"},
	{"× →", styleCorrection, "a prediction the server corrected, the way it moved you"},
}

// projectorLegend explains the projector's board (the spectator's).
var projectorLegend = []helpRow{
	{"2", tcell.StyleDefault.Background(PlayerColor(1)).Foreground(tcell.ColorBlack).Bold(true), "a player where the server has it: its mark on a block of its colour"},
	{"1", otherStyle(client.Other{Name: "bot", Color: 2}), "a bot: its mark on a cell of its colour"},
	{"▶", playerStyle(1, false), "the student the teacher follows, where it sees itself (its facing)"},
	{"2", ghostStyle(1), "that student where the server last told it it is"},
	{"2", protectedStyle(tcell.StyleDefault.Background(PlayerColor(1)).Foreground(tcell.ColorBlack).Bold(true), true), "underlined: just joined or respawned, safe for now"},
}

// teachLegendHelp explains the teacher's screen: the room's board as the
// server has it (no avatar of one's own, no ghost: every student where the
// server says, but the student followed, drawn as the projectors draw
// it, which the f row names: at 80x24 the help has no row to spare), the
// class list's columns and a switch held for everyone.
var teachLegendHelp = []helpRow{
	{"A b", otherStyle(client.Other{Name: "Ada", Color: 1}), "a student, a bot (on a block): where the server has it"},
	{"A", protectedStyle(otherStyle(client.Other{Name: "Ada", Color: 1}), true), "underlined: just joined or respawned, safe for now"},
	{"Class", styleHeading, "per student: round trip (~: server's), inputs pending, corrections"},
	{"[off]", styleWarn, "held for everyone: the class cannot change it"},
}

// legendRows returns the game's legend if legend is set, else none.
func legendRows(legend bool) []helpRow {
	if legend {
		return legendHelp
	}
	return nil
}

// helpRows returns the help box's rows for the keys of table: a row a
// binding, and the heading of a state before its rows (see
// binding.state).
func helpRows[T any](table []binding[T]) []helpRow {
	var rows []helpRow
	state := ""
	for _, b := range table {
		if b.state != state {
			state = b.state
			rows = append(rows, helpRow{}, helpRow{text: state + ":"})
		}
		rows = append(rows, helpRow{b.label, styleKey, b.help})
	}
	return rows
}

// helpRowsByState returns the rows of the help of each state of table:
// the state's own, under its heading when it is not the usual state.
func helpRowsByState[T any](table []binding[T]) map[string][]helpRow {
	m := map[string][]helpRow{}
	for _, b := range table {
		if m[b.state] == nil && b.state != "" {
			m[b.state] = []helpRow{{text: b.state + ":"}}
		}
		m[b.state] = append(m[b.state], helpRow{b.label, styleKey, b.help})
	}
	return m
}

// drawHelpOverlay draws the help box in the middle of the screen: the
// title, every key of keys, the board's legend if there is one, and
// where the log goes.
func drawHelpOverlay(screen tcell.Screen, w, h int, logPath, title string, keys, legend []helpRow) {
	lines := make([]helpRow, 0, len(keys)+len(legend)+4) // one allocation a frame
	lines = append(append(lines, helpRow{text: title}), keys...)
	if len(legend) > 0 {
		lines = append(lines, helpRow{})
		lines = append(lines, legend...)
	}
	if logPath == "" {
		logPath = "(not written)"
	}
	lines = append(lines, helpRow{}, helpRow{"log", styleKey, logPath})
	if len(lines)+2 > h {
		// Too tall for the screen: the blank rows go first.
		lines = slices.DeleteFunc(lines, func(r helpRow) bool { return r.key == "" && r.text == "" })
	}

	const keyCol = keyLabelWidth
	boxW := 0
	for _, ln := range lines {
		boxW = max(boxW, keyCol+textWidth(ln.text))
	}
	boxW = min(boxW+4, w)
	boxH := min(len(lines)+2, h)
	x0, y0 := (w-boxW)/2, (h-boxH)/2
	fill(screen, x0, y0, boxW, boxH, styleText)
	for col := x0; col < x0+boxW; col++ {
		screen.Put(col, y0, "─", styleDim)
		screen.Put(col, y0+boxH-1, "─", styleDim)
	}
	for row := y0; row < y0+boxH; row++ {
		screen.Put(x0, row, "│", styleDim)
		screen.Put(x0+boxW-1, row, "│", styleDim)
	}
	screen.Put(x0, y0, "┌", styleDim)
	screen.Put(x0+boxW-1, y0, "┐", styleDim)
	screen.Put(x0, y0+boxH-1, "└", styleDim)
	screen.Put(x0+boxW-1, y0+boxH-1, "┘", styleDim)
	inner := boxW - 4
	for i, ln := range lines {
		row := y0 + 1 + i
		if row >= y0+boxH-1 {
			break
		}
		if i == 0 || ln.key == "" { // the title, a state's heading
			putText(screen, x0+2, row, inner, ln.text, styleHeading)
			continue
		}
		putText(screen, x0+2, row, min(keyCol, inner), ln.key, ln.style)
		if inner > keyCol {
			putText(screen, x0+2+keyCol, row, inner-keyCol, ln.text, styleText)
		}
	}
}
