package protocol

import (
	"encoding/binary"
	"fmt"

	"gridlag/grid"
)

// MaxInlineMapCells is the largest map (width x height) that travels inside
// a Welcome or a Spectating frame, with room for their other fields. A
// larger map (up to grid.MaxMapSide a side) follows in MapChunks.
const MaxInlineMapCells = MaxFrame - 128

// MaxChunkCells is the most cells one MapChunk carries: even a map with no
// two neighbours alike (one byte a cell) fits in one frame.
const MaxChunkCells = MaxFrame - 16

// inlineMap reports whether a map of these dimensions travels inline.
func inlineMap(width, height uint16) bool { return int(width)*int(height) <= MaxInlineMapCells }

// MapChunk carries whole rows of a map too large for its Welcome or
// Spectating: rows Y to Y+len(Cells)/Width-1. The chunks follow the
// Welcome in row order, before anything else. On the wire the cells are
// run-length encoded (rooms and corridors compress well: a generated
// 1024x1024 map is about 220 KB instead of 1 MB). This is the form a
// client of protocol version 3 gets; from version 4 on, MapBits.
type MapChunk struct {
	Width uint16 // the map's width: Cells holds whole rows
	Y     uint16 // the first row
	Cells []byte // whole rows, row-major, '#' or '.'
}

// Type implements Message.
func (*MapChunk) Type() Type { return TypeMapChunk }

// MapChunks splits a map's cells into the chunks that carry it; none
// (nil) for a map that travels inline in its Welcome or Spectating.
func MapChunks(m *grid.Map) []*MapChunk {
	if inlineMap(uint16(m.Width()), uint16(m.Height())) {
		return nil
	}
	cells := m.Cells()
	rows := max(1, MaxChunkCells/m.Width())
	var out []*MapChunk
	for y := 0; y < m.Height(); y += rows {
		end := min(y+rows, m.Height())
		out = append(out, &MapChunk{Width: uint16(m.Width()), Y: uint16(y), Cells: cells[y*m.Width() : end*m.Width()]})
	}
	return out
}

// A run on the wire is one uvarint: its length shifted left by one, the
// low bit set for a run of wall.
func (m *MapChunk) appendPayload(b []byte) ([]byte, error) {
	w := int(m.Width)
	if w == 0 || w > grid.MaxMapSide || len(m.Cells) == 0 || len(m.Cells)%w != 0 ||
		len(m.Cells) > MaxChunkCells || int(m.Y)+len(m.Cells)/w > grid.MaxMapSide {
		return b, fmt.Errorf("chunk of %d cells, %d wide, at row %d: %w", len(m.Cells), w, m.Y, ErrBadValue)
	}
	b = binary.BigEndian.AppendUint16(b, m.Width)
	b = binary.BigEndian.AppendUint16(b, m.Y)
	b = binary.BigEndian.AppendUint16(b, uint16(len(m.Cells)/w))
	for i := 0; i < len(m.Cells); {
		c := m.Cells[i]
		if c != grid.WallCell && c != grid.FloorCell {
			return b, fmt.Errorf("cell %q: %w", c, ErrBadValue)
		}
		j := i + 1
		for j < len(m.Cells) && m.Cells[j] == c {
			j++
		}
		run := uint64(j-i) << 1
		if c == grid.WallCell {
			run |= 1
		}
		b = binary.AppendUvarint(b, run)
		i = j
	}
	return b, nil
}

func (m *MapChunk) decodePayload(r *reader) error {
	m.Width, m.Y = r.u16(), r.u16()
	rows := int(r.u16())
	n := int(m.Width) * rows
	if r.err == nil && (m.Width == 0 || m.Width > grid.MaxMapSide || rows == 0 || n > MaxChunkCells || int(m.Y)+rows > grid.MaxMapSide) {
		r.fail(ErrBadValue)
	}
	if r.err != nil {
		return r.err
	}
	m.Cells = make([]byte, 0, n)
	for len(m.Cells) < n && r.err == nil {
		c, length := decodeRun(r, m.Cells, n-len(m.Cells))
		for range length {
			m.Cells = append(m.Cells, c)
		}
	}
	return r.done()
}

// decodeRun reads one run of at most room cells following cells. Only the
// encoding appendPayload writes is accepted: the shortest uvarint, and no
// run of the same kind as the one before.
func decodeRun(r *reader, cells []byte, room int) (c byte, length int) {
	run := r.uvarint()
	if r.err != nil {
		return 0, 0
	}
	c = grid.FloorCell
	if run&1 == 1 {
		c = grid.WallCell
	}
	n := run >> 1
	if n == 0 || n > uint64(room) || len(cells) > 0 && cells[len(cells)-1] == c {
		r.fail(ErrBadValue)
		return 0, 0
	}
	return c, int(n)
}
