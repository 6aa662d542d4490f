package remote

import (
	"bytes"
	"strconv"

	"github.com/gdamore/tcell/v2"
	"github.com/gdamore/tcell/v2/terminfo"
)

// A terminal larger than the screen (see clampWindow) shows the screen in
// its middle: the screen's cursor addressing is shifted by the margins on
// the way out, and the mouse's reports by the same on the way in, so that
// the interface, which centres what it draws on the screen, is centred on
// the terminal too. tcell places every cell with the terminal's cursor
// addressing (CUP, ESC [ row ; col H) and moves by writing otherwise, so
// shifting CUP shifts everything; it is done only for terminals whose
// cursor addressing is that sequence (the xterm family and most others),
// and the mouse reports shifted are the SGR ones tcell asks for. Elsewhere
// the screen stays in the top-left corner.

// point is a margin: columns and rows.
type point struct{ x, y int }

// Window is what a client's terminal size comes to: the screen's size,
// clamped, and the margins that centre it on the terminal. Two are equal
// when the screen would not change between them.
type Window struct {
	size tcell.WindowSize
	off  point
}

// WindowOf is the window of a cols x rows terminal.
func WindowOf(cols, rows int) Window {
	size := clampWindow(cols, rows)
	return Window{size: size, off: point{max(cols-size.Width, 0) / 2, max(rows-size.Height, 0) / 2}}
}

// CanShift reports whether a terminal's cursor addressing is the one
// shiftOutput rewrites.
func CanShift(ti *terminfo.Terminfo) bool {
	return ti.SetCursor == "\x1b[%i%p1%d;%p2%dH"
}

// shiftOutput appends p to dst with every cursor address shifted by off,
// and returns it with the tail of p that may be the start of an escape
// sequence cut by the end of p (to come again, before what follows).
func shiftOutput(dst, p []byte, off point) (out, rest []byte) {
	for {
		i := bytes.IndexByte(p, 0x1b)
		if i < 0 {
			return append(dst, p...), nil
		}
		dst = append(dst, p[:i]...)
		p = p[i:]
		if len(p) < 2 {
			return dst, p
		}
		if p[1] != '[' {
			dst = append(dst, p[0])
			p = p[1:]
			continue
		}
		// A control sequence: parameters, intermediates, a final byte.
		j := 2
		for j < len(p) && p[j] >= 0x20 && p[j] <= 0x3f {
			j++
		}
		if j == len(p) {
			if j > 32 {
				return append(dst, p...), nil // not a sequence tcell writes
			}
			return dst, p
		}
		row, col, ok := cursorAddress(p[2:j], p[j])
		if !ok {
			dst = append(dst, p[:j+1]...)
			p = p[j+1:]
			continue
		}
		dst = append(dst, "\x1b["...)
		dst = strconv.AppendInt(dst, int64(row+off.y), 10)
		dst = append(dst, ';')
		dst = strconv.AppendInt(dst, int64(col+off.x), 10)
		dst = append(dst, 'H')
		p = p[j+1:]
	}
}

// cursorAddress reads the parameters of a CUP sequence (final byte H):
// row and column, from 1, either one missing meaning 1.
func cursorAddress(params []byte, final byte) (row, col int, ok bool) {
	if final != 'H' {
		return 0, 0, false
	}
	r, c, _ := bytes.Cut(params, []byte{';'})
	row, ok1 := number(r)
	col, ok2 := number(c)
	return row, col, ok1 && ok2
}

// number reads a parameter: digits, or none for 1.
func number(b []byte) (int, bool) {
	if len(b) == 0 {
		return 1, true
	}
	if len(b) > 6 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = 10*n + int(c-'0')
	}
	return max(n, 1), true
}

// shiftInput appends p to dst with every SGR mouse report (ESC [ < b ; x
// ; y M or m) shifted back by off, dropping those outside a screen of
// size, and returns it with the tail of p that may be the start of a
// report cut by the end of p.
func shiftInput(dst, p []byte, off point, size tcell.WindowSize) (out, rest []byte) {
	for {
		i := bytes.Index(p, []byte("\x1b[<"))
		if i < 0 {
			// A report cut after its ESC or ESC [ is left to tcell's
			// own parser: an Escape key alone must not wait.
			return append(dst, p...), nil
		}
		dst = append(dst, p[:i]...)
		p = p[i:]
		j := 3
		for j < len(p) && (p[j] >= '0' && p[j] <= '9' || p[j] == ';') {
			j++
		}
		if j == len(p) {
			if j > 32 {
				return append(dst, p...), nil
			}
			return dst, p
		}
		fields := bytes.Split(p[3:j], []byte{';'})
		if (p[j] != 'M' && p[j] != 'm') || len(fields) != 3 {
			dst = append(dst, p[:j+1]...)
			p = p[j+1:]
			continue
		}
		x, okx := number(fields[1])
		y, oky := number(fields[2])
		x, y = x-off.x, y-off.y
		if okx && oky && x >= 1 && y >= 1 && (size.Width == 0 || x <= size.Width) && (size.Height == 0 || y <= size.Height) {
			dst = append(dst, "\x1b[<"...)
			dst = append(dst, fields[0]...)
			dst = append(dst, ';')
			dst = strconv.AppendInt(dst, int64(x), 10)
			dst = append(dst, ';')
			dst = strconv.AppendInt(dst, int64(y), 10)
			dst = append(dst, p[j])
		}
		p = p[j+1:]
	}
}
