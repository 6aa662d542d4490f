package tui

import (
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"gridlag/client"
	"gridlag/grid"
)

// CorrectionMarkTime is how long the board marks the cell where a
// prediction was wrong.
const CorrectionMarkTime = time.Second

// Board draws one client's view of the map into any rectangle: floor and
// walls, the player's own beam while it flashes, the mark of a recent
// correction, the ghost where the server has the player, the other
// players by the first letter of their names in their colours, bots on a
// block of theirs (where interpolation puts them), and the player's
// avatar, an arrow the way it faces, where prediction puts it. It is a tview
// primitive, so several boards can share a screen. The map is centred in
// the board's rectangle, two columns a cell when they fit; a cell's mark
// sits in its first column.
type Board struct {
	*tview.Box
	view func() *client.View

	// Where the last Draw put the map: its top-left corner and the columns
	// of one cell.
	mapX, mapY, cellW int
}

// NewBoard returns a board that draws the view returned by view.
func NewBoard(view func() *client.View) *Board {
	return &Board{Box: tview.NewBox(), view: view, cellW: 1}
}

// Draw draws the view's map and everyone on it, or a line saying why
// there is no map yet.
func (b *Board) Draw(screen tcell.Screen) {
	v := b.view()
	x, y, w, h := b.GetInnerRect()
	m := v.Map
	if m == nil {
		msg := "waiting for the server…"
		if v.Err != nil {
			msg = "not connected"
		}
		putText(screen, x+(w-textWidth(msg))/2, y+h/2, w, msg, styleDim)
		return
	}
	b.cellW = 1
	if m.Width()*2 <= w {
		b.cellW = 2
	}
	b.mapX, b.mapY = x+(w-m.Width()*b.cellW)/2, y+(h-m.Height())/2
	// Everything sits in a cell's first column (floor, avatars, players);
	// only walls fill the cell.
	wall := strings.Repeat("█", b.cellW)
	for y := 0; y < m.Height(); y++ {
		for x := 0; x < m.Width(); x++ {
			p := grid.Pos{X: x, Y: y}
			if m.Wall(p) {
				b.put(screen, p, wall, styleWall)
			} else {
				b.put(screen, p, "·", styleFloor)
			}
		}
	}
	b.drawBeam(screen, v.Beam, v.Facing, styleBeam)
	if v.HasState && v.Server != v.Predicted && m.Inside(v.Server) {
		b.put(screen, v.Server, "@", styleGhost)
	}
	for _, o := range v.Others {
		if !m.Inside(o.Pos) {
			continue
		}
		b.put(screen, o.Pos, playerGlyph(o.Name, b.cellW), otherStyle(o))
	}
	if c := v.LastCorrection; correctionVisible(v) && m.Inside(c.From) {
		b.drawCorrectionMark(screen, v, c.From)
	}
	if v.HasState && m.Inside(v.Predicted) {
		b.put(screen, v.Predicted, avatarGlyph(v.Facing), styleMe)
	}
}

// drawCorrectionMark marks the cell where a prediction was wrong: a red
// cross on an empty cell, or a red background under the player who took
// the cell first.
func (b *Board) drawCorrectionMark(screen tcell.Screen, v *client.View, p grid.Pos) {
	for _, o := range v.Others {
		if o.Pos == p {
			st := tcell.StyleDefault.Foreground(tcell.ColorWhite).Background(styleCorrectionBg).Bold(true)
			b.put(screen, p, playerGlyph(o.Name, b.cellW), st)
			return
		}
	}
	b.put(screen, p, "×", styleCorrection)
}

// put draws one map cell: s in style st, padded with plain spaces to the
// cell's width, so that neighbouring players stay apart.
func (b *Board) put(screen tcell.Screen, p grid.Pos, s string, st tcell.Style) {
	x, y := b.screenPos(p)
	n := putText(screen, x, y, b.cellW, s, st)
	for ; n < b.cellW; n++ {
		screen.Put(x+n, y, " ", tcell.StyleDefault)
	}
}

// screenPos returns where the last Draw put map cell p.
func (b *Board) screenPos(p grid.Pos) (x, y int) {
	return b.mapX + p.X*b.cellW, b.mapY + p.Y
}

// Cell returns where the last Draw put map cell p: the screen column and
// row of its first character. ok is false when the view has no map, p is
// off the map or the cell is outside the board's rectangle.
func (b *Board) Cell(p grid.Pos) (x, y int, ok bool) {
	if m := b.view().Map; m == nil || !m.Inside(p) {
		return 0, 0, false
	}
	x, y = b.screenPos(p)
	return x, y, b.InRect(x, y)
}

// correctionVisible reports whether the last correction is recent enough
// to be marked on the board.
func correctionVisible(v *client.View) bool {
	c := v.LastCorrection
	return c != nil && v.Now >= c.At && v.Now-c.At < CorrectionMarkTime
}
