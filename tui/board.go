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
// players by their room marks (see roomMarks) in their colours, bots on
// a block of theirs (where interpolation puts them), and the player's
// avatar, an arrow the way it faces, where prediction puts it; a player
// under spawn protection is underlined. It is a tview
// primitive, so several boards can share a screen. The map is centred in
// the board's rectangle, two columns a cell when they fit; a cell's mark
// sits in its first column. A map larger than the board is seen through a
// camera that follows the player (see follow).
type Board struct {
	*tview.Box
	view func() *client.View
	// names, when set, are the marks of the room's players (see
	// roomMarks) the board shares with the rest of its screen; nil: the
	// board makes them from its own view (own).
	names *marks
	own   marks
	// self, when set, draws the board's own player with its room mark in
	// palette colour self(), as the others (the lab's boards); nil draws
	// the game's arrow.
	self func() uint8

	// Where the last Draw put the map: its top-left corner (off the board
	// when the camera shows part of it) and the columns of one cell.
	mapX, mapY, cellW int
	// The camera: the first map column and row shown, and how many.
	camX, camY, cols, rows int
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
	b.camX, b.cols = follow(b.camX, v.Predicted.X, w/b.cellW, m.Width())
	b.camY, b.rows = follow(b.camY, v.Predicted.Y, h, m.Height())
	b.mapX = x + (w-b.cols*b.cellW)/2 - b.camX*b.cellW
	b.mapY = y + (h-b.rows)/2 - b.camY
	// Everything sits in a cell's first column (floor, avatars, players);
	// only walls fill the cell.
	wall := strings.Repeat("█", b.cellW)
	for y := b.camY; y < b.camY+b.rows; y++ {
		for x := b.camX; x < b.camX+b.cols; x++ {
			p := grid.Pos{X: x, Y: y}
			if m.Wall(p) {
				b.put(screen, p, wall, styleWall)
			} else {
				b.put(screen, p, "·", styleFloor)
			}
		}
	}
	b.drawBeam(screen, v)
	if b.names == nil {
		b.own.takeView(v)
	}
	me, ghost, meStyle := "@", styleGhost, styleMe
	if b.self != nil {
		color := b.self()
		me, ghost, meStyle = b.mark(v.Me, v.Name), ghostStyle(color), playerStyle(color, false)
	}
	if v.HasState && v.Server != v.Predicted && b.shows(m, v.Server) {
		b.put(screen, v.Server, me, ghost)
	}
	for _, o := range v.Others {
		if !b.shows(m, o.Pos) {
			continue
		}
		b.put(screen, o.Pos, b.mark(o.ID, o.Name), protectedStyle(otherStyle(o), o.Protected))
	}
	if c := v.LastCorrection; correctionVisible(v) {
		b.drawCorrectionTrail(screen, v, c)
		if b.shows(m, c.From) {
			b.drawCorrectionMark(screen, v, c.From)
		}
	}
	if b.self == nil {
		me = avatarGlyph(v.Facing)
	}
	if shown := avatarCell(v); v.HasState && b.shows(m, shown) {
		b.put(screen, shown, me, protectedStyle(meStyle, v.Protected))
	}
}

// avatarCell is where the avatar is drawn: where prediction puts it, or
// where smoothing slides it from a correction (View.Shown).
func avatarCell(v *client.View) grid.Pos {
	if v.Smooth {
		return v.Shown
	}
	return v.Predicted
}

// drawCorrectionTrail draws the way a correction moved the avatar, from
// where prediction had it (its mark) to where the server's word put it:
// on each cell between, an arrow the way it went on from there (along
// the row, then the column), over floor only.
func (b *Board) drawCorrectionTrail(screen tcell.Screen, v *client.View, c *client.Correction) {
	m := v.Map
	for p := c.From; p != c.To; {
		d := grid.Right
		switch {
		case p.X > c.To.X:
			d = grid.Left
		case p.X == c.To.X && p.Y > c.To.Y:
			d = grid.Up
		case p.X == c.To.X:
			d = grid.Down
		}
		if p != c.From && b.shows(m, p) && !m.Wall(p) {
			b.put(screen, p, d.Arrow(), styleCorrectionTrail)
		}
		p = p.Add(d)
	}
}

// mark returns the mark of player id, called name, on the board: its
// room mark (see roomMarks).
func (b *Board) mark(id grid.PlayerID, name string) string {
	if b.names != nil {
		return b.names.of(id, name)
	}
	return b.own.of(id, name)
}

// protectedStyle is st, underlined while its player is under spawn
// protection: on every board, for everyone, whatever its colour.
func protectedStyle(st tcell.Style, protected bool) tcell.Style {
	if protected {
		return st.Underline(true)
	}
	return st
}

// follow places the camera along one axis of size cells on a board of
// view cells, the player at cell p, the camera at cam before: it returns
// the first cell shown and how many are shown. A map that fits is shown
// whole (the board centres it). A larger one is followed
// with a dead zone: while the player stays in the middle third of the
// board the camera stays put; when the player leaves it, the camera jumps
// by a chunk (about a third of the board) that puts the player at the
// other end of the dead zone, so that the board is not redrawn shifted at
// every step. The camera never shows past the map's edges.
func follow(cam, p, view, size int) (first, n int) {
	if size <= view {
		return 0, size
	}
	third := max(view/3, 1)
	switch {
	case p < cam+third: // left the dead zone backwards: to its far end
		cam = p - (view - third - 1)
	case p >= cam+view-third: // forwards: to its near end
		cam = p - third
	}
	return min(max(cam, 0), size-view), view
}

// shows reports whether map cell p is on the board.
func (b *Board) shows(m *grid.Map, p grid.Pos) bool {
	return m.Inside(p) && p.X >= b.camX && p.X < b.camX+b.cols && p.Y >= b.camY && p.Y < b.camY+b.rows
}

// drawCorrectionMark marks the cell where a prediction was wrong: a red
// cross on an empty cell, or a red background under the player who took
// the cell first.
func (b *Board) drawCorrectionMark(screen tcell.Screen, v *client.View, p grid.Pos) {
	for _, o := range v.Others {
		if o.Pos == p {
			st := tcell.StyleDefault.Foreground(tcell.ColorWhite).Background(styleCorrectionBg).Bold(true)
			b.put(screen, p, b.mark(o.ID, o.Name), st)
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
	if m := b.view().Map; m == nil || !b.shows(m, p) {
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
