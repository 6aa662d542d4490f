package tui

import (
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"
)

// putText writes s at (x, y) in style st, one grapheme cluster at a time,
// never past column x+maxWidth. Control characters are dropped, so no text
// can move the cursor or change the terminal's state. It returns the number
// of columns written.
func putText(screen tcell.Screen, x, y, maxWidth int, s string, st tcell.Style) int {
	used := 0
	for s != "" && used < maxWidth {
		var cluster string
		var width int
		cluster, s, width = firstCluster(s)
		if width == 0 || hasControl(cluster) {
			continue
		}
		if used+width > maxWidth {
			break
		}
		screen.Put(x+used, y, cluster, st)
		used += width
	}
	return used
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
