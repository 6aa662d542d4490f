package tui

import (
	"strings"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
	"gridlag/grid"
)

// avatarGlyph returns the player's avatar: an arrow the way it faces, or
// "@" before it faced any way.
func avatarGlyph(facing grid.Dir) string {
	switch facing {
	case grid.Up:
		return "▲"
	case grid.Down:
		return "▼"
	case grid.Left:
		return "◀"
	case grid.Right:
		return "▶"
	}
	return "@"
}

// drawBeam draws the view's beam, its cells nearest first, as a line:
// "─" along a row (joined across a two-column cell), "│" along a column.
// A beam of one cell runs the way the player faces. Players drawn after
// it stand on it.
func (b *Board) drawBeam(screen tcell.Screen, v *client.View) {
	if len(v.Beam) == 0 {
		return
	}
	line := "│"
	if beamAlongRow(v.Beam, v.Facing) {
		line = strings.Repeat("─", b.cellW)
	}
	for _, p := range v.Beam {
		if b.shows(v.Map, p) {
			b.put(screen, p, line, styleBeam)
		}
	}
}

// beamAlongRow reports whether a beam runs along a row: its ends share
// it, or for one cell, facing is left or right.
func beamAlongRow(beam []grid.Pos, facing grid.Dir) bool {
	if len(beam) > 1 {
		return beam[0].Y == beam[len(beam)-1].Y
	}
	return facing == grid.Left || facing == grid.Right
}
