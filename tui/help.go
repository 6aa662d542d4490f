package tui

import (
	"github.com/gdamore/tcell/v2"
)

// legendHelp explains the board's symbols.
var legendHelp = []string{
	"@ bright: you, where prediction puts you",
	"@ dim: where the server last said you are",
	"× red: a prediction the server corrected",
	"letters: other players' initials",
}

// helpRow is one row of the help box: keys and what they do.
type helpRow struct{ key, text string }

// helpRows returns the help box's rows for the keys of table.
func helpRows[T any](table []binding[T]) []helpRow {
	rows := make([]helpRow, len(table))
	for i, b := range table {
		rows[i] = helpRow{b.label, b.help}
	}
	return rows
}

// drawHelpOverlay draws the help box in the middle of the screen: the
// title, every key of keys, the board's legend and where the log goes.
func drawHelpOverlay(screen tcell.Screen, w, h int, logPath, title string, keys []helpRow) {
	lines := append([]helpRow{{"", title}}, keys...)
	lines = append(lines, helpRow{})
	for _, s := range legendHelp {
		lines = append(lines, helpRow{"", s})
	}
	if logPath == "" {
		logPath = "(not written)"
	}
	lines = append(lines, helpRow{}, helpRow{"log", logPath})

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
		if i == 0 {
			putText(screen, x0+2, row, inner, ln.text, styleHeading)
			continue
		}
		putText(screen, x0+2, row, min(keyCol, inner), ln.key, styleKey)
		if inner > keyCol {
			putText(screen, x0+2+keyCol, row, inner-keyCol, ln.text, styleText)
		}
	}
}
