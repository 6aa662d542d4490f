package tui

import (
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"
)

// ellipsis ends every text cut to fit.
const ellipsis = "…"

// putText writes s at (x, y) in style st, one grapheme cluster at a time,
// never past column x+maxWidth: a text too long for that is cut and ends
// with an ellipsis. Control characters are dropped, so no text can move the
// cursor or change the terminal's state. It returns the number of columns
// written.
func putText(screen tcell.Screen, x, y, maxWidth int, s string, st tcell.Style) int {
	s = fitText(s, maxWidth)
	used := 0
	for s != "" {
		var cluster string
		var width int
		cluster, s, width = firstCluster(s)
		if width == 0 || hasControl(cluster) {
			continue
		}
		screen.Put(x+used, y, cluster, st)
		used += width
	}
	return used
}

// fitText returns s if it fits in width columns, else as much of it as
// fits with an ellipsis after it. It is the one place where the interface
// cuts text.
func fitText(s string, width int) string {
	if width <= 0 {
		return ""
	}
	if len(s) <= width || textWidth(s) <= width { // never more columns than bytes
		return s
	}
	var b strings.Builder
	used := 0
	for s != "" {
		cluster, rest, w := firstCluster(s)
		s = rest
		if w == 0 || hasControl(cluster) {
			continue
		}
		if used+w > width-1 {
			break
		}
		b.WriteString(cluster)
		used += w
	}
	return b.String() + ellipsis
}

// padText returns s fitted to width columns (see fitText) and padded with
// spaces to exactly width columns: names line up in a column by the
// columns they take on screen (a wide character takes two, a combining
// mark none), not by their bytes or runes.
func padText(s string, width int) string {
	s = fitText(s, width)
	if n := width - textWidth(s); n > 0 {
		s += strings.Repeat(" ", n)
	}
	return s
}

// textWidth returns how many columns s takes on screen.
func textWidth(s string) int { return uniseg.StringWidth(s) }

// hasControl reports whether s contains a C0 or C1 control character.
func hasControl(s string) bool {
	for _, r := range s {
		if r < 0x20 || (r >= 0x7f && r < 0xa0) {
			return true
		}
	}
	return false
}

// fill paints a rectangle with spaces in style st.
func fill(screen tcell.Screen, x, y, w, h int, st tcell.Style) {
	for row := y; row < y+h; row++ {
		for col := x; col < x+w; col++ {
			screen.Put(col, row, " ", st)
		}
	}
}
