package tui

import (
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// textLine is a one-row primitive showing a line of text that may depend
// on its width, such as the title or the status line.
type textLine struct {
	*tview.Box
	text   func(width int) string
	style  tcell.Style
	indent int  // columns left blank before the text
	fill   bool // paint the whole row in style (e.g. reversed, for the title)
}

// newTextLine returns a line drawing text(width) in style.
func newTextLine(text func(width int) string, style tcell.Style) *textLine {
	return &textLine{Box: tview.NewBox(), text: text, style: style}
}

// Draw draws the line.
func (l *textLine) Draw(screen tcell.Screen) {
	x, y, w, _ := l.GetInnerRect()
	if l.fill {
		fill(screen, x, y, w, 1, l.style)
	}
	w -= 2 * l.indent
	putText(screen, x+l.indent, y, w, l.text(w), l.style)
}
