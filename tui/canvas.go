package tui

import (
	"slices"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"
)

// canvas is an off-screen frame the interface draws into before it is
// copied to the real screen, one write per cell.
//
// Why: tcell only sends the cells that differ from what the terminal
// shows, but a cell written twice in one frame with different contents
// (a space from a clear, then the real character) is marked dirty and
// sent again even when it ends up unchanged. Drawing freely on the canvas
// and copying each cell once keeps a frame's bytes to what really changed.
//
// canvas implements tcell.Screen by embedding the real screen: the cell
// methods act on the canvas, everything else (events, cursor, size of the
// terminal) goes to the real screen. Primitives such as Slider draw
// on it unchanged.
type canvas struct {
	tcell.Screen // the real screen

	w, h   int
	cells  []canvasCell
	styles *palette // shared with the canvas it is compared with
}

// canvasCell is one cell of the canvas: a grapheme cluster, its style (an
// index in the canvas's palette: a cell costs 24 bytes, not the hundred
// a tcell.Style would make it) and its width (2 for wide characters; the
// next cell is then covered).
type canvasCell struct {
	str     string
	style   styleID
	width   uint8
	covered bool // the right half of a wide character to the left
}

// styleID is a style's index in a palette; 0 is tcell.StyleDefault.
type styleID uint16

// palette numbers the styles the canvases of one screen use, so that a
// cell holds a small index and two cells of one style compare equal. A
// screen uses a few dozen styles; past maxStyles the palette starts again
// (see full).
type palette struct {
	styles []tcell.Style
	index  map[tcell.Style]styleID
	last   tcell.Style // the style last looked up, and its ID: runs of
	lastID styleID     // cells share one
}

// maxStyles bounds a palette.
const maxStyles = 1 << 12

// id returns the ID of style, numbering it if it is new.
func (p *palette) id(style tcell.Style) styleID {
	if style == p.last {
		return p.lastID
	}
	if p.index == nil {
		p.clear()
	}
	id, ok := p.index[style]
	if !ok {
		id = styleID(len(p.styles))
		p.styles = append(p.styles, style)
		p.index[style] = id
	}
	p.last, p.lastID = style, id
	return id
}

// style returns the style of id.
func (p *palette) style(id styleID) tcell.Style { return p.styles[id] }

// full reports whether the palette holds maxStyles styles or more: before
// the next frame, it is cleared and the frame shown whole.
func (p *palette) full() bool { return len(p.styles) >= maxStyles }

// clear forgets every style but the default one.
func (p *palette) clear() {
	p.styles = append(p.styles[:0], tcell.StyleDefault)
	p.index = map[tcell.Style]styleID{tcell.StyleDefault: 0}
	p.last, p.lastID = tcell.StyleDefault, 0
}

// reset prepares an empty w x h frame (spaces in the default style) over
// screen.
func (c *canvas) reset(screen tcell.Screen, w, h int) {
	c.Screen = screen
	if c.styles == nil {
		c.styles = &palette{}
		c.styles.clear()
	}
	c.w, c.h = max(w, 0), max(h, 0)
	n := c.w * c.h
	if cap(c.cells) < n {
		c.cells = make([]canvasCell, n)
	}
	c.cells = c.cells[:n]
	if len(c.cells) > 0 {
		c.cells[0] = canvasCell{str: " ", width: 1}
		for filled := 1; filled < n; filled *= 2 {
			copy(c.cells[filled:], c.cells[:filled])
		}
	}
}

// firstCluster splits the first grapheme cluster off s and returns it, the
// rest and its width in columns. Plain ASCII, most of a frame, takes a
// shortcut.
func firstCluster(s string) (cluster, rest string, width int) {
	if n := plainGlyph(s); n > 0 && (n == len(s) || plainGlyph(s[n:]) > 0) {
		return s[:n], s[n:], 1
	}
	cluster, rest, width, _ = uniseg.FirstGraphemeClusterInString(s, -1)
	return cluster, rest, width
}

// plainGlyph returns the length in bytes of the first character of s if it
// is printable ASCII or one of the one-column symbols the interface draws
// (which never combine with what follows), else 0.
func plainGlyph(s string) int {
	if s == "" {
		return 0
	}
	if s[0] < 0x80 {
		if s[0] >= 0x20 && s[0] < 0x7f {
			return 1
		}
		return 0
	}
	r, n := utf8.DecodeRuneInString(s)
	switch r {
	case '·', '█', '×', '─', '│', '┌', '┐', '└', '┘', '├', '┤', '●', '←', '↑', '→', '↓', '—', '…', '±', '▶', '◀', '▲', '▼':
		return n
	}
	return 0
}

// flush copies to the real screen the cells that differ from what it
// shows, once each. shown is the frame the screen shows, or nil when that
// is unknown (the first frame, after a resize): each cell is then compared
// with the screen's.
func (c *canvas) flush(shown *canvas) {
	if shown != nil && (shown.w != c.w || shown.h != c.h) {
		shown = nil
	}
	for y := 0; y < c.h; y++ {
		for x := 0; x < c.w; x++ {
			i := y*c.w + x
			cell := c.cells[i]
			if cell.covered || shown != nil && shown.cells[i] == cell {
				continue
			}
			style := c.styles.style(cell.style)
			if str, onScreen, _ := c.Screen.Get(x, y); str == cell.str && onScreen == style {
				continue // already there: writing it again would change nothing
			}
			c.Screen.Put(x, y, cell.str, style)
		}
	}
}

// equal reports whether two canvases hold the same frame, cell for cell:
// a frame equal to the one last shown would change nothing on screen.
// They share a palette.
func (c *canvas) equal(o *canvas) bool {
	return c.w == o.w && c.h == o.h && c.styles == o.styles && slices.Equal(c.cells, o.cells)
}

// Size returns the canvas's size.
func (c *canvas) Size() (int, int) { return c.w, c.h }

// Put writes the first grapheme cluster of str at (x, y), like
// tcell.Screen.Put, and returns the rest of str and the width used.
func (c *canvas) Put(x, y int, str string, style tcell.Style) (string, int) {
	cluster, rest, width := firstCluster(str)
	if cluster == "" {
		cluster, width = " ", 1
	}
	if x < 0 || y < 0 || x >= c.w || y >= c.h {
		return rest, width
	}
	if width < 1 {
		width = 1
	}
	if width == 2 && x+1 >= c.w {
		cluster, width = " ", 1 // a wide character does not fit the last column
	}
	i := y*c.w + x
	fg, bg, _ := style.Decompose()
	if fg == tcell.ColorNone || bg == tcell.ColorNone {
		ofg, obg, _ := c.styles.style(c.cells[i].style).Decompose()
		if fg == tcell.ColorNone {
			style = style.Foreground(ofg)
		}
		if bg == tcell.ColorNone {
			style = style.Background(obg)
		}
	}
	id := c.styles.id(style)
	c.uncover(x, y)
	c.cells[i] = canvasCell{str: cluster, style: id, width: uint8(width)}
	if width == 2 {
		c.uncover(x+1, y)
		c.cells[i+1] = canvasCell{str: " ", style: id, width: 1, covered: true}
	}
	return rest, width
}

// uncover repairs the neighbours of a cell about to be overwritten: a wide
// character whose half is overwritten becomes a space.
func (c *canvas) uncover(x, y int) {
	i := y*c.w + x
	cell := c.cells[i]
	switch {
	case cell.covered && x > 0:
		c.cells[i-1] = canvasCell{str: " ", style: c.cells[i-1].style, width: 1}
	case cell.width == 2 && x+1 < c.w:
		c.cells[i+1] = canvasCell{str: " ", style: cell.style, width: 1}
	}
}

// PutStr writes str from (x, y) in the default style.
func (c *canvas) PutStr(x, y int, str string) { c.PutStrStyled(x, y, str, tcell.StyleDefault) }

// PutStrStyled writes str from (x, y) in style.
func (c *canvas) PutStrStyled(x, y int, str string, style tcell.Style) {
	for str != "" && x < c.w {
		var w int
		str, w = c.Put(x, y, str, style)
		x += w
	}
}

// SetContent writes one character with its combining characters.
func (c *canvas) SetContent(x, y int, primary rune, combining []rune, style tcell.Style) {
	c.Put(x, y, string(append([]rune{primary}, combining...)), style)
}

// SetCell writes one character with its combining characters.
func (c *canvas) SetCell(x, y int, style tcell.Style, ch ...rune) {
	if len(ch) > 0 {
		c.Put(x, y, string(ch), style)
	}
}

// Get returns the cell at (x, y).
func (c *canvas) Get(x, y int) (string, tcell.Style, int) {
	if x < 0 || y < 0 || x >= c.w || y >= c.h {
		return " ", tcell.StyleDefault, 1
	}
	cell := c.cells[y*c.w+x]
	return cell.str, c.styles.style(cell.style), int(cell.width)
}

// GetContent returns the cell at (x, y) as runes.
func (c *canvas) GetContent(x, y int) (rune, []rune, tcell.Style, int) {
	str, style, width := c.Get(x, y)
	runes := []rune(str)
	return runes[0], runes[1:], style, width
}

// Fill fills the canvas with r in style.
func (c *canvas) Fill(r rune, style tcell.Style) {
	for y := 0; y < c.h; y++ {
		for x := 0; x < c.w; x++ {
			c.Put(x, y, string(r), style)
		}
	}
}

// Clear fills the canvas with spaces in the default style.
func (c *canvas) Clear() { c.Fill(' ', tcell.StyleDefault) }

// Show does nothing: the canvas reaches the screen with flush.
func (c *canvas) Show() {}

// Sync does nothing: the canvas reaches the screen with flush.
func (c *canvas) Sync() {}
