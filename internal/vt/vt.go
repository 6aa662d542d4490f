// Package vt is test support: a small terminal emulator that replays what
// a tcell screen writes onto a grid of cells, which a test reads as a
// player would (the SSH and web front ends' tests).
package vt

import (
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"

	"gridlag/internal/notify"
)

// Term is a small terminal emulator for tests: enough of ECMA-48 and
// xterm to replay what tcell writes (cursor addressing, erasing, text)
// onto a grid of cells that a test reads like a player would. Everything
// else (colours, modes, titles) is parsed and ignored. It is safe for
// concurrent use.
type Term struct {
	mu        sync.Mutex
	w, h      int
	cells     [][]rune
	x, y      int
	sx, sy    int // saved cursor
	pend      []byte
	total     int64 // bytes fed
	changes   int
	changed   chan struct{}
	altScreen bool
	everAlt   bool
}

// New returns a blank terminal of w columns and h rows.
func New(w, h int) *Term {
	v := &Term{changed: make(chan struct{}, 1)}
	v.Resize(w, h)
	return v
}

// Resize blanks the terminal at a new size, as a window change does
// before the program redraws.
func (v *Term) Resize(w, h int) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.w, v.h = w, h
	v.cells = make([][]rune, h)
	for i := range v.cells {
		v.cells[i] = []rune(strings.Repeat(" ", w))
	}
	v.x, v.y = 0, 0
}

// Write feeds terminal output.
func (v *Term) Write(p []byte) (int, error) {
	v.mu.Lock()
	v.total += int64(len(p))
	v.pend = append(v.pend, p...)
	for len(v.pend) > 0 {
		n := v.step(v.pend)
		if n == 0 {
			break // incomplete sequence: wait for more
		}
		v.pend = v.pend[n:]
	}
	v.changes++
	v.mu.Unlock()
	notify.Poke(v.changed)
	return len(p), nil
}

// step consumes one character or sequence from b; 0 means incomplete.
func (v *Term) step(b []byte) int {
	switch c := b[0]; {
	case c == 0x1b:
		return v.escape(b)
	case c == '\r':
		v.x = 0
	case c == '\n':
		v.lineFeed()
	case c == '\b':
		v.x = max(v.x-1, 0)
	case c == '\t':
		v.x = min((v.x/8+1)*8, v.w-1)
	case c < 0x20 || c == 0x7f:
		// other controls (BEL, SO, SI) draw nothing
	default:
		if !utf8.FullRune(b) {
			return 0
		}
		r, n := utf8.DecodeRune(b)
		v.put(r)
		return n
	}
	return 1
}

func (v *Term) lineFeed() {
	if v.y < v.h-1 {
		v.y++
		return
	}
	copy(v.cells, v.cells[1:])
	v.cells[v.h-1] = []rune(strings.Repeat(" ", v.w))
}

func (v *Term) put(r rune) {
	wd := runewidth.RuneWidth(r)
	if wd == 0 {
		return
	}
	if v.x >= v.w {
		v.x = v.w - 1 // tcell turns auto-margin off
	}
	v.cells[v.y][v.x] = r
	if wd == 2 && v.x+1 < v.w {
		v.cells[v.y][v.x+1] = 0
	}
	v.x = min(v.x+wd, v.w)
}

func (v *Term) escape(b []byte) int {
	if len(b) < 2 {
		return 0
	}
	switch b[1] {
	case '[':
		return v.csi(b)
	case ']', 'P', '_', '^': // OSC, DCS, APC, PM: up to BEL or ST
		for i := 2; i < len(b); i++ {
			if b[i] == 0x07 {
				return i + 1
			}
			if b[i] == 0x1b && i+1 < len(b) && b[i+1] == '\\' {
				return i + 2
			}
		}
		return 0
	case '(', ')', '*', '+', '#', '%':
		if len(b) < 3 {
			return 0
		}
		return 3
	case '7':
		v.sx, v.sy = v.x, v.y
	case '8':
		v.x, v.y = v.sx, v.sy
	case 'c':
		v.clear(0, 0, v.w, v.h)
		v.x, v.y = 0, 0
	}
	return 2
}

func (v *Term) csi(b []byte) int {
	i := 2
	for i < len(b) && (b[i] < 0x40 || b[i] > 0x7e) {
		i++
	}
	if i >= len(b) {
		return 0
	}
	final := b[i]
	raw := string(b[2:i])
	private := strings.HasPrefix(raw, "?") || strings.HasPrefix(raw, ">") || strings.HasPrefix(raw, "<") || strings.HasPrefix(raw, "=")
	params := strings.Split(strings.TrimLeft(raw, "?><="), ";")
	arg := func(k, def int) int {
		if k >= len(params) {
			return def
		}
		s := params[k]
		if j := strings.IndexByte(s, ':'); j >= 0 {
			s = s[:j]
		}
		n, err := strconv.Atoi(s)
		if err != nil || n == 0 {
			return def
		}
		return n
	}
	if private {
		if final == 'h' || final == 'l' {
			for _, p := range params {
				if p == "1049" || p == "47" || p == "1047" {
					v.altScreen = final == 'h'
					if v.altScreen {
						v.everAlt = true
					}
				}
			}
		}
		return i + 1
	}
	switch final {
	case 'H', 'f':
		v.y = min(max(arg(0, 1)-1, 0), v.h-1)
		v.x = min(max(arg(1, 1)-1, 0), v.w-1)
	case 'A':
		v.y = max(v.y-arg(0, 1), 0)
	case 'B':
		v.y = min(v.y+arg(0, 1), v.h-1)
	case 'C':
		v.x = min(v.x+arg(0, 1), v.w-1)
	case 'D':
		v.x = max(v.x-arg(0, 1), 0)
	case 'G', '`':
		v.x = min(max(arg(0, 1)-1, 0), v.w-1)
	case 'd':
		v.y = min(max(arg(0, 1)-1, 0), v.h-1)
	case 'J':
		switch arg(0, 0) {
		case 0:
			v.clear(v.x, v.y, v.w, v.y+1)
			v.clear(0, v.y+1, v.w, v.h)
		case 1:
			v.clear(0, 0, v.w, v.y)
			v.clear(0, v.y, v.x+1, v.y+1)
		default:
			v.clear(0, 0, v.w, v.h)
		}
	case 'K':
		switch arg(0, 0) {
		case 0:
			v.clear(v.x, v.y, v.w, v.y+1)
		case 1:
			v.clear(0, v.y, v.x+1, v.y+1)
		default:
			v.clear(0, v.y, v.w, v.y+1)
		}
	case 'X':
		v.clear(v.x, v.y, min(v.x+arg(0, 1), v.w), v.y+1)
	}
	return i + 1
}

func (v *Term) clear(x0, y0, x1, y1 int) {
	for y := max(y0, 0); y < min(y1, v.h); y++ {
		for x := max(x0, 0); x < min(x1, v.w); x++ {
			v.cells[y][x] = ' '
		}
	}
}

// Text is the screen as lines of text.
func (v *Term) Text() string {
	v.mu.Lock()
	defer v.mu.Unlock()
	var sb strings.Builder
	for _, row := range v.cells {
		for _, r := range row {
			if r != 0 {
				sb.WriteRune(r)
			}
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// Changed receives a value (capacity 1) after each Write.
func (v *Term) Changed() <-chan struct{} { return v.changed }

// AltScreen reports whether the alternate screen is on, and whether it
// ever was.
func (v *Term) AltScreen() (on, ever bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.altScreen, v.everAlt
}

// Bytes is the number of bytes fed so far.
func (v *Term) Bytes() int64 {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.total
}
