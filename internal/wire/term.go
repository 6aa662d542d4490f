package wire

import "sync/atomic"

// Term counts a terminal's traffic: the keys the player's terminal sends
// (up) and what the screen writes to it (down), and of that, the cells
// it draws (one a printed character) and the bytes that draw them; the
// rest is escape sequences and controls (moving the cursor, colours,
// modes). Keys may be counted from one goroutine and output from another,
// but each from one at a time; readings are safe from any.
type Term struct {
	Counter
	cells, glyph atomic.Int64
	st           scanState // the scanner's state between writes; the writer's own
}

// Keys counts n bytes of the player's input.
func (t *Term) Keys(n int) {
	if t != nil {
		t.AddUp(n)
	}
}

// Output counts p, written toward the player's terminal.
func (t *Term) Output(p []byte) {
	if t == nil || len(p) == 0 {
		return
	}
	t.AddDown(len(p))
	cells, glyph := t.st.scan(p)
	t.cells.Add(cells)
	t.glyph.Add(glyph)
}

// Cells is the cells drawn so far, and the bytes of the characters drawn
// in them.
func (t *Term) Cells() (cells, glyphBytes int64) {
	if t == nil {
		return 0, 0
	}
	return t.cells.Load(), t.glyph.Load()
}

// scanState is where a scan of terminal output stands: printing, or
// within an escape sequence.
type scanState uint8

const (
	ground    scanState = iota
	escape              // after ESC
	escInter            // ESC, then intermediate bytes
	csi                 // ESC [ ..., until its final byte
	str                 // OSC, DCS, APC, PM, SOS: until BEL or ESC \
	strEscape           // ESC within a string: \ ends it
)

// scan scans p from state s, returning the characters printed (one a
// cell) and their bytes (UTF-8's continuation bytes included); the
// rest is escape sequences and controls.
func (s *scanState) scan(p []byte) (cells, glyph int64) {
	st := *s
	for _, b := range p {
		switch st {
		case ground:
			switch {
			case b == 0x1b:
				st = escape
			case b < 0x20 || b == 0x7f:
				// a control: CR, LF, BS, BEL
			case b >= 0x80 && b < 0xc0:
				glyph++ // the rest of a character
			default:
				cells++
				glyph++
			}
		case escape:
			switch {
			case b == '[':
				st = csi
			case b == ']' || b == 'P' || b == '_' || b == '^' || b == 'X':
				st = str
			case b >= 0x20 && b < 0x30:
				st = escInter
			default:
				st = ground
			}
		case escInter:
			if b >= 0x30 {
				st = ground
			}
		case csi:
			if b >= 0x40 && b <= 0x7e {
				st = ground
			}
		case str:
			switch b {
			case 0x07:
				st = ground
			case 0x1b:
				st = strEscape
			}
		case strEscape:
			if b == '\\' {
				st = ground
			} else {
				st = str
			}
		}
	}
	*s = st
	return cells, glyph
}
