package tui

import (
	"github.com/gdamore/tcell/v2"
)

// helpLine is the reminder of the main keys at the bottom of the screen.
const helpLine = "arrows/hjkl/wasd move  p r i toggles  - + [ ] latency  ? help  q quit"

// keyHelp lists every key the interface understands, for the help overlay.
var keyHelp = [][2]string{
	{"← ↑ ↓ →", "move one cell (also h j k l and w a s d)"},
	{"p", "prediction on/off (off also turns reconciliation off)"},
	{"r", "reconciliation on/off (on also turns prediction on)"},
	{"i", "interpolation of other players on/off"},
	{"- +", "injected round trip -/+ 10 ms (also _ =)"},
	{"[ ]", "injected round trip -/+ 50 ms"},
	{"mouse", "click or drag the latency slider; click a toggle"},
	{"?", "show or hide this help (Esc also hides it)"},
	{"q Ctrl-C", "quit"},
}

// legendHelp explains the board's symbols.
var legendHelp = []string{
	"@ bright: you, where prediction puts you",
	"@ dim: where the server last said you are",
	"× red: a prediction the server corrected",
	"letters: other players' initials",
}

// drawHelpLine draws the bottom line.
func drawHelpLine(screen tcell.Screen, l layout) {
	putText(screen, 0, l.helpY, l.w, helpLine, styleDim)
}

// drawHelpOverlay draws the help box in the middle of the screen, listing
// every key, the board's legend and where the log goes.
func drawHelpOverlay(screen tcell.Screen, w, h int, logPath string) {
	type helpRow struct{ key, text string }
	lines := []helpRow{{"", "gridlag: keys"}}
	for _, k := range keyHelp {
		lines = append(lines, helpRow{k[0], k[1]})
	}
	lines = append(lines, helpRow{})
	for _, s := range legendHelp {
		lines = append(lines, helpRow{"", s})
	}
	if logPath == "" {
		logPath = "(not written)"
	}
	lines = append(lines, helpRow{}, helpRow{"log", logPath})

	const keyCol = 10
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
