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
	// self, when set, draws the board's own player in palette colour
	// self(): its ghost with its room mark, and its avatar with its mark
	// too (the lab's boards), or with the game's arrow when arrow is set
	// (the projector's followed student); nil draws the game's yellow
	// arrow and olive ghost.
	self  func() uint8
	arrow bool
	// sx and sy, when set (Scale), are the columns and rows of one map
	// cell (the projector's board, scaled to its rectangle), and people
	// are drawn as blocks of their colour, bots as a cell of theirs in
	// the middle of their block; 0: one row, two columns when they fit.
	sx, sy int
	// bots memoises isBot by name: a name's check (protocol's rules,
	// Unicode's normalisation and confusables) costs too much to repeat
	// for every player on every frame. Emptied when it holds
	// maxBotMemo names, so that it never grows with the names seen.
	bots map[string]bool

	// Where the last Draw put the map: its top-left corner (off the board
	// when the camera shows part of it) and the columns and rows of one
	// cell.
	mapX, mapY, cellW, cellH int
	// The camera: the first map column and row shown, and how many.
	camX, camY, cols, rows int
}

// NewBoard returns a board that draws the view returned by view.
func NewBoard(view func() *client.View) *Board {
	return &Board{Box: tview.NewBox(), view: view, cellW: 1, cellH: 1}
}

// Scale draws each map cell on cols columns and rows rows of the
// screen, people as blocks of their colour (see Board.sx); 0, 0 goes
// back to the game's cells. ScaleFor finds the largest that fits.
func (b *Board) Scale(cols, rows int) { b.sx, b.sy = max(cols, 0), max(rows, 0) }

// ScaleFor returns the largest scale (columns and rows of the screen a
// map cell) at which a map of mw x mh cells fits w x h, a cell at least
// as many columns as rows and at most twice as many and one (a
// terminal's character is about twice as tall as it is wide, so two
// columns a row is square); 1, 1 when even that does not fit.
func ScaleFor(mw, mh, w, h int) (cols, rows int) {
	cols, rows = 1, 1
	if mw <= 0 || mh <= 0 {
		return cols, rows
	}
	best := 0
	for sy := 1; sy*mh <= h; sy++ {
		for sx := sy; sx <= 2*sy+1 && sx*mw <= w; sx++ {
			area := sx * sy
			// The larger, then the squarer (two columns a row).
			if area > best || area == best && abs(sx-2*sy) < abs(cols-2*rows) {
				best, cols, rows = area, sx, sy
			}
		}
	}
	return cols, rows
}

// abs returns |n|.
func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
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
	b.cellW, b.cellH = 1, 1
	switch {
	case b.sx > 0 && b.sy > 0:
		b.cellW, b.cellH = b.sx, b.sy
	case m.Width()*2 <= w:
		b.cellW = 2
	}
	b.camX, b.cols = follow(b.camX, v.Predicted.X, w/b.cellW, m.Width())
	b.camY, b.rows = follow(b.camY, v.Predicted.Y, h/b.cellH, m.Height())
	b.mapX = x + (w-b.cols*b.cellW)/2 - b.camX*b.cellW
	b.mapY = y + (h-b.rows*b.cellH)/2 - b.camY*b.cellH
	// Everything sits in a cell's middle (its first column on the game's
	// board: floor, avatars, players); only walls fill the cell.
	wall := strings.Repeat("█", b.cellW)
	for y := b.camY; y < b.camY+b.rows; y++ {
		for x := b.camX; x < b.camX+b.cols; x++ {
			p := grid.Pos{X: x, Y: y}
			if m.Wall(p) {
				b.fill(screen, p, wall, styleWall)
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
		bot := b.isBot(o.Name)
		mark, st := b.mark(o.ID, o.Name), protectedStyle(playerStyle(o.Color, bot), o.Protected)
		if b.scaled() && !bot {
			// A person is a block of its colour, its mark dark in the middle.
			block := tcell.StyleDefault.Background(PlayerColor(o.Color))
			b.fill(screen, o.Pos, strings.Repeat(" ", b.cellW), block)
			st = protectedStyle(block.Foreground(tcell.ColorBlack).Bold(true), o.Protected)
		}
		b.put(screen, o.Pos, mark, st)
	}
	if c := v.LastCorrection; correctionVisible(v) {
		b.drawCorrectionTrail(screen, v, c)
		if b.shows(m, c.From) {
			b.drawCorrectionMark(screen, v, c.From)
		}
	}
	if b.self == nil || b.arrow {
		me = avatarGlyph(v.Facing)
	}
	if shown := avatarCell(v); v.HasState && b.shows(m, shown) {
		b.put(screen, shown, me, protectedStyle(meStyle, v.Protected))
	}
}

// maxBotMemo bounds Board.bots: more names than a board shows at once.
const maxBotMemo = 1024

// isBot is isBot(name), remembered.
func (b *Board) isBot(name string) bool {
	bot, ok := b.bots[name]
	if !ok {
		if b.bots == nil || len(b.bots) >= maxBotMemo {
			b.bots = make(map[string]bool)
		}
		bot = isBot(name)
		b.bots[name] = bot
	}
	return bot
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
// cell's width, so that neighbouring players stay apart. On a scaled
// board (Scale) s sits in the middle of the cell, on the background
// already drawn there.
func (b *Board) put(screen tcell.Screen, p grid.Pos, s string, st tcell.Style) {
	x, y := b.screenPos(p)
	if b.scaled() {
		mx, my := b.middle()
		putText(screen, x+mx, y+my, b.cellW-mx, s, st)
		return
	}
	n := putText(screen, x, y, b.cellW, s, st)
	for ; n < b.cellW; n++ {
		screen.Put(x+n, y, " ", tcell.StyleDefault)
	}
}

// fill draws a whole map cell with row, a row of its width, in style st
// on each of its rows.
func (b *Board) fill(screen tcell.Screen, p grid.Pos, row string, st tcell.Style) {
	x, y := b.screenPos(p)
	for r := range b.cellH {
		putText(screen, x, y+r, b.cellW, row, st)
	}
}

// scaled reports whether the last Draw scaled the map (see Scale).
func (b *Board) scaled() bool { return b.sx > 0 && b.sy > 0 }

// middle returns the column and row of a cell where its mark goes: its
// middle on a scaled board, its first column otherwise.
func (b *Board) middle() (x, y int) {
	if !b.scaled() {
		return 0, 0
	}
	return (b.cellW - 1) / 2, (b.cellH - 1) / 2
}

// screenPos returns where the last Draw put map cell p's top-left
// corner.
func (b *Board) screenPos(p grid.Pos) (x, y int) {
	return b.mapX + p.X*b.cellW, b.mapY + p.Y*b.cellH
}

// Cell returns where the last Draw put map cell p: the screen column and
// row of its mark (its first character; its middle on a scaled board).
// ok is false when the view has no map, p is off the map or the cell is
// outside the board's rectangle.
func (b *Board) Cell(p grid.Pos) (x, y int, ok bool) {
	if m := b.view().Map; m == nil || !b.shows(m, p) {
		return 0, 0, false
	}
	x, y = b.screenPos(p)
	mx, my := b.middle()
	x, y = x+mx, y+my
	return x, y, b.InRect(x, y)
}

// correctionVisible reports whether the last correction is recent enough
// to be marked on the board.
func correctionVisible(v *client.View) bool {
	c := v.LastCorrection
	return c != nil && v.Now >= c.At && v.Now-c.At < CorrectionMarkTime
}
