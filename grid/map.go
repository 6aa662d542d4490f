package grid

import (
	_ "embed"
	"errors"
	"fmt"
	"strings"
)

// Cell characters of the plain-text map format.
const (
	WallCell  = '#'
	FloorCell = '.'
)

// MaxMapSide is the largest width or height a map may have.
const MaxMapSide = 1024

//go:embed maps/default.map
var defaultMapText string

// DefaultSpawn is where the first human player appears on the default map.
var DefaultSpawn = Pos{10, 10}

// Map is an immutable rectangle of wall and floor cells.
type Map struct {
	w, h  int
	cells []byte // row-major, WallCell or FloorCell
}

// ParseMap reads a map in the plain-text format: one line per row, '#' for a
// wall and '.' for floor. All rows must have the same width. Trailing blank
// lines and a final newline are ignored; carriage returns are tolerated.
// A text whose first row is not a map's is refused with a *NotMapError,
// which quotes nothing of it (it may be any file); a mistake further on
// quotes the cell, escaped.
func ParseMap(text string) (*Map, error) {
	text = strings.ReplaceAll(text, "\r", "")
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if len(lines) == 0 || lines[0] == "" {
		return nil, errors.New("grid: empty map")
	}
	w := len(lines[0])
	if w > MaxMapSide || len(lines) > MaxMapSide {
		return nil, fmt.Errorf("grid: map is %dx%d, larger than %dx%d", w, len(lines), MaxMapSide, MaxMapSide)
	}
	m := &Map{w: w, h: len(lines), cells: make([]byte, 0, w*len(lines))}
	for y, line := range lines {
		if len(line) != w {
			return nil, fmt.Errorf("grid: map row %d is %d cells wide, row 0 is %d", y, len(line), w)
		}
		for x := 0; x < len(line); x++ {
			c := line[x]
			switch {
			case c == WallCell || c == FloorCell:
			case y == 0:
				return nil, &NotMapError{Column: x + 1}
			default:
				return nil, fmt.Errorf("grid: map cell (%d,%d) is %q, want '#' or '.'", x, y, c)
			}
		}
		m.cells = append(m.cells, line...)
	}
	return m, nil
}

// NotMapError is a text refused as a map at its first row: it is not a
// map at all. It says where, and nothing of what the text holds.
type NotMapError struct {
	Column int // the first column, from 1, neither '#' nor '.'
}

func (e *NotMapError) Error() string {
	return fmt.Sprintf("grid: not a map: its first line holds a character other than '#' and '.' (column %d)", e.Column)
}

// DefaultMap returns the map embedded in the binary. On it the first player
// spawns at (10,10); row 10 from x=5 to x=25 and the 11x11 square centred on
// (10,10) are open floor.
func DefaultMap() *Map {
	m, err := ParseMap(defaultMapText)
	if err != nil {
		panic("grid: embedded default map is invalid: " + err.Error())
	}
	return m
}

// NewMapFromCells builds a map from its width, height and row-major cells
// (WallCell or FloorCell), the form the wire protocol carries.
func NewMapFromCells(w, h int, cells []byte) (*Map, error) {
	if w <= 0 || h <= 0 || w > MaxMapSide || h > MaxMapSide {
		return nil, fmt.Errorf("grid: bad map size %dx%d", w, h)
	}
	if len(cells) != w*h {
		return nil, fmt.Errorf("grid: map %dx%d needs %d cells, got %d", w, h, w*h, len(cells))
	}
	for i, c := range cells {
		if c != WallCell && c != FloorCell {
			return nil, fmt.Errorf("grid: map cell (%d,%d) is %q, want '#' or '.'", i%w, i/w, c)
		}
	}
	return &Map{w: w, h: h, cells: append([]byte(nil), cells...)}, nil
}

// Width returns the number of columns.
func (m *Map) Width() int { return m.w }

// Height returns the number of rows.
func (m *Map) Height() int { return m.h }

// Cells returns a copy of the row-major cells (WallCell or FloorCell).
func (m *Map) Cells() []byte { return append([]byte(nil), m.cells...) }

// Inside reports whether p lies within the map's edges.
func (m *Map) Inside(p Pos) bool { return p.X >= 0 && p.Y >= 0 && p.X < m.w && p.Y < m.h }

// Wall reports whether p is a wall. Cells outside the map count as walls.
func (m *Map) Wall(p Pos) bool { return !m.Inside(p) || m.cells[p.Y*m.w+p.X] == WallCell }

// String returns the map in its plain-text format, one line per row.
func (m *Map) String() string {
	var b strings.Builder
	b.Grow((m.w + 1) * m.h)
	for y := 0; y < m.h; y++ {
		b.Write(m.cells[y*m.w : (y+1)*m.w])
		b.WriteByte('\n')
	}
	return b.String()
}
