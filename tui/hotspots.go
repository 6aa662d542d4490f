package tui

import "github.com/gdamore/tcell/v2"

// hotspots are the clickable pieces of text of the last frame: buttons
// and switches drawn as text, each with what a click on it does. A screen
// resets them before it draws a frame and looks a click up in them.
type hotspots []hotspot

// hotspot is one clickable piece of text on one row.
type hotspot struct {
	x, y, w int
	do      func()
}

// put writes text at (x, y), at most maxWidth columns, and makes it
// clickable; it returns the columns written.
func (h *hotspots) put(screen tcell.Screen, x, y, maxWidth int, text string, st tcell.Style, do func()) int {
	n := putText(screen, x, y, maxWidth, text, st)
	if n > 0 {
		*h = append(*h, hotspot{x: x, y: y, w: n, do: do})
	}
	return n
}

// click does what the piece of text at (x, y) does, and reports whether
// there was one.
func (h hotspots) click(x, y int) bool {
	for _, s := range h {
		if y == s.y && x >= s.x && x < s.x+s.w {
			s.do()
			return true
		}
	}
	return false
}

// rowWriter writes pieces of text, plain or clickable, left to right on
// one row, never past end.
type rowWriter struct {
	screen tcell.Screen
	hs     *hotspots
	x, y   int
	end    int
}

// text writes plain text.
func (r *rowWriter) text(s string, st tcell.Style) {
	r.x += putText(r.screen, r.x, r.y, r.end-r.x, s, st)
}

// button writes clickable text that does do.
func (r *rowWriter) button(s string, st tcell.Style, do func()) {
	r.x += r.hs.put(r.screen, r.x, r.y, r.end-r.x, s, st, do)
}
