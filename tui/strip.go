package tui

import (
	"fmt"
	"math"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// styleHeld marks a message held behind a lost one or by a lag spike.
var styleHeld = tcell.StyleDefault.Foreground(tcell.ColorYellow)

// Strip draws the messages on one player's link while they travel between
// that player's board and the server's: the top half lists what goes up
// to the server (inputs as `#N →`), the bottom half what comes down (states
// as `ack #N`), one message a row, each placed along its row by how far
// along its trip it is, in the player's colour. A lost message is marked
// ✗ in red, at the sender while it waits for its retransmission, then
// travelling as ↻ (the copy sent again); a message sent after it reaches
// the far end and waits there, marked … (TCP holds it in the receiver's
// buffer), so head-of-line blocking shows as messages arrived and stuck
// behind one still on its way. One held by a lag spike is marked … in
// yellow as it travels. The player's end is on the left or the right, as
// the boards are laid out.
type Strip struct {
	*tview.Box
	flights    func() []Flight
	player     string // the player's name, for the heading of the way down
	playerLeft bool   // the player's board is left of the strip
	// color returns the player's palette colour, as its boards draw it
	// (0 for the default style).
	color func() uint8
}

// NewStrip returns a strip for the flights of the named player, whose
// board is left of the strip if playerLeft.
func NewStrip(player string, playerLeft bool, flights func() []Flight) *Strip {
	return &Strip{Box: tview.NewBox(), flights: flights, player: player, playerLeft: playerLeft, color: func() uint8 { return 0 }}
}

// style returns the strip's style for the player's messages and headings.
func (s *Strip) style(bold bool) tcell.Style {
	c := s.color()
	if c == 0 {
		return tcell.StyleDefault.Bold(bold)
	}
	return tcell.StyleDefault.Foreground(PlayerColor(c)).Bold(bold)
}

// Draw draws the two halves: headings, then the messages each way.
func (s *Strip) Draw(screen tcell.Screen) {
	x, y, w, h := s.GetInnerRect()
	if w < 4 || h < 2 {
		return
	}
	var up, down []Flight
	for _, f := range s.flights() {
		if f.Up {
			up = append(up, f)
		} else {
			down = append(down, f)
		}
	}
	upRows, downRows := splitRows(h-2, len(up), len(down))
	upHead, downHead := "to server ▸", "◂ to "+s.player
	if !s.playerLeft {
		upHead, downHead = "◂ to server", "to "+s.player+" ▸"
	}
	s.drawWay(screen, x, y, w, upRows, upHead, up, s.playerLeft)
	s.drawWay(screen, x, y+1+upRows, w, downRows, downHead, down, !s.playerLeft)
}

// splitRows shares rows between the two ways: half each (the way down
// gets the odd row) while both fit in their halves, so that the headings
// stand still; else each way as many as it needs, the larger giving way
// first.
func splitRows(rows, up, down int) (upRows, downRows int) {
	upRows, downRows = rows/2, rows-rows/2
	if up <= upRows && down <= downRows {
		return upRows, downRows
	}
	upRows, downRows = up, down
	for upRows+downRows > rows {
		if upRows > downRows {
			upRows--
		} else {
			downRows--
		}
	}
	return max(upRows, 0), max(downRows, 0)
}

// drawWay draws one way: its heading, then one message a row (rows of
// them) moving right or left, the last row saying "+N more" when they do
// not all fit.
func (s *Strip) drawWay(screen tcell.Screen, x, y, w, rows int, head string, fs []Flight, right bool) {
	hx := x
	if !right {
		hx = x + w - textWidth(head)
	}
	putText(screen, max(hx, x), y, w, head, s.style(true))
	shown := min(len(fs), rows)
	if shown < len(fs) && rows > 1 {
		shown = rows - 1
		putText(screen, x, y+1+shown, w, fmt.Sprintf("+%d more", len(fs)-shown), styleDim)
	}
	for i := 0; i < shown; i++ {
		drawFlight(screen, x, y+1+i, w, fs[i], right, s.style(false))
	}
}

// drawFlight draws one message on its row: a dim track, and the label
// where the message is along it, in style st unless it is lost or held.
func drawFlight(screen tcell.Screen, x, y, w int, f Flight, right bool, st tcell.Style) {
	label := f.label()
	switch {
	case f.Resending:
		label, st = "✗"+label, styleWarn
	case f.Lost > 0:
		label, st = "↻"+label, styleWarn
	case f.Waiting:
		label += "…"
	case f.Held:
		label, st = label+"…", styleHeld
	}
	for i := 0; i < w; i++ {
		screen.Put(x+i, y, "·", styleFloor)
	}
	lw := min(textWidth(label), w)
	col := int(math.Round(min(max(f.Progress, 0), 1) * float64(w-lw)))
	if !right {
		col = w - lw - col
	}
	putText(screen, x+col, y, lw, label, st)
}
