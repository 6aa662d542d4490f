package protocol

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"gridlag/grid"
)

// MapBits is how a map too large for its Welcome or Spectating follows it
// from protocol version 4 on (version 3 clients get MapChunks): the map as
// a bitmap, compressed once with zlib (RFC 1950), the stream cut into
// pieces of at most MaxMapBitsPiece bytes that follow the Welcome in
// order, before anything else.
//
// The bitmap has one bit a cell, 1 for wall, row by row from the top; each
// row starts on a byte (MapRowBytes bytes a row), its first cell in the
// byte's high bit, and the bits past the row's end are 0. A generated
// 1024x1024 map is about 36 KB on the wire instead of 225 KB of MapChunks
// (and 1 MiB of cells).
//
// A MapBits is one frame: the map's size (which must be its Welcome's),
// the whole stream's length, where the piece starts in it, then the
// piece. A MapBitsBuffer puts the pieces back together and decodes the
// map once, never inflating past the map's declared size.
type MapBits struct {
	Width, Height uint16 // the map's size, as its Welcome or Spectating says
	Total         uint32 // the compressed stream's length, every piece together
	Offset        uint32 // where Data starts in the stream
	Data          []byte // the piece: Total bytes in all, in order
}

// Type implements Message.
func (*MapBits) Type() Type { return TypeMapBits }

// MaxMapBitsPiece is the most bytes of the stream one MapBits carries.
const MaxMapBitsPiece = MaxFrame - 16

// MapRowBytes is how many bytes a row of a map width cells wide takes in
// the bitmap.
func MapRowBytes(width int) int { return (width + 7) / 8 }

// MaxMapBitsLen bounds the compressed stream of a width x height map: its
// bitmap and what zlib adds to data it cannot shrink (5 bytes a stored
// block of 64 KB, a 2-byte header and a 4-byte checksum), with room to
// spare. A MapBits whose Total is larger does not decode.
func MaxMapBitsLen(width, height int) int {
	n := MapRowBytes(width) * height
	return n + n/64 + 64
}

// mapSizeOK reports whether width x height is a size a map can have.
func mapSizeOK(width, height uint16) bool {
	return width > 0 && height > 0 && width <= grid.MaxMapSide && height <= grid.MaxMapSide
}

func (m *MapBits) appendPayload(b []byte) ([]byte, error) {
	if err := m.check(); err != nil {
		return b, err
	}
	b = binary.BigEndian.AppendUint16(b, m.Width)
	b = binary.BigEndian.AppendUint16(b, m.Height)
	b = binary.BigEndian.AppendUint32(b, m.Total)
	b = binary.BigEndian.AppendUint32(b, m.Offset)
	return append(b, m.Data...), nil
}

func (m *MapBits) decodePayload(r *reader) error {
	m.Width, m.Height = r.u16(), r.u16()
	m.Total, m.Offset = r.u32(), r.u32()
	if r.err != nil {
		return r.err
	}
	m.Data = append([]byte(nil), r.take(len(r.b))...)
	if err := m.check(); err != nil {
		r.fail(err)
	}
	return r.done()
}

// check refuses a piece that no map's stream has: a size no map has, a
// stream longer than MaxMapBitsLen, a piece empty, too long or past the
// stream's end.
func (m *MapBits) check() error {
	switch {
	case !mapSizeOK(m.Width, m.Height):
		return fmt.Errorf("map bits of a %dx%d map: %w", m.Width, m.Height, ErrBadValue)
	case m.Total == 0 || int64(m.Total) > int64(MaxMapBitsLen(int(m.Width), int(m.Height))):
		return fmt.Errorf("map bits of %d bytes for a %dx%d map (at most %d): %w",
			m.Total, m.Width, m.Height, MaxMapBitsLen(int(m.Width), int(m.Height)), ErrBadValue)
	case len(m.Data) == 0 || len(m.Data) > MaxMapBitsPiece || int64(m.Offset)+int64(len(m.Data)) > int64(m.Total):
		return fmt.Errorf("map bits piece of %d bytes at %d of %d: %w", len(m.Data), m.Offset, m.Total, ErrBadValue)
	}
	return nil
}

// MapBitsOf encodes m for the clients of version 4: its bitmap, compressed,
// in the pieces that carry it; none (nil) for a map that travels inline in
// its Welcome or Spectating. A server encodes its map once and sends the
// same pieces to every client.
func MapBitsOf(m *grid.Map) []*MapBits {
	w, h := m.Width(), m.Height()
	if inlineMap(uint16(w), uint16(h)) {
		return nil
	}
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write(bitmap(m)) // a bytes.Buffer takes everything
	zw.Close()
	stream := z.Bytes()
	var out []*MapBits
	for off := 0; off < len(stream); off += MaxMapBitsPiece {
		piece := stream[off:min(off+MaxMapBitsPiece, len(stream))]
		out = append(out, &MapBits{Width: uint16(w), Height: uint16(h), Total: uint32(len(stream)), Offset: uint32(off), Data: piece})
	}
	return out
}

// bitmap returns m's cells as the bitmap MapBits carries, uncompressed.
func bitmap(m *grid.Map) []byte {
	w, h := m.Width(), m.Height()
	rowBytes := MapRowBytes(w)
	bits := make([]byte, rowBytes*h)
	for y := range h {
		row := bits[y*rowBytes:]
		for x := range w {
			if m.Wall(grid.Pos{X: x, Y: y}) {
				row[x/8] |= 0x80 >> (x % 8)
			}
		}
	}
	return bits
}

// MapBitsBuffer puts a map's MapBits back together, in order, and decodes
// the map once the last has come. Its memory is bounded by the map's size,
// given first: the stream it keeps is at most MaxMapBitsLen bytes, and
// the bitmap it inflates is exactly the map's, however the stream claims
// to inflate (a stream that would inflate to more is refused, not
// followed).
type MapBitsBuffer struct {
	width, height uint16
	stream        []byte // the pieces so far; cap is the stream's Total once known
}

// NewMapBitsBuffer returns a buffer expecting the pieces of a width x
// height map, the size its Welcome or Spectating gave.
func NewMapBitsBuffer(width, height uint16) *MapBitsBuffer {
	return &MapBitsBuffer{width: width, height: height}
}

// Add takes the next piece; with the last it returns the map. A piece of
// another map's size, out of order, or claiming another total than the
// first is an error, and so is a stream that does not decode to exactly
// the map's bitmap.
func (b *MapBitsBuffer) Add(m *MapBits) (*grid.Map, error) {
	if m.Width != b.width || m.Height != b.height {
		return nil, fmt.Errorf("protocol: map bits of a %dx%d map, expecting %dx%d", m.Width, m.Height, b.width, b.height)
	}
	if err := m.check(); err != nil {
		return nil, fmt.Errorf("protocol: %w", err)
	}
	if b.stream == nil {
		b.stream = make([]byte, 0, m.Total) // checked against the map's size
	}
	if int(m.Total) != cap(b.stream) || int(m.Offset) != len(b.stream) {
		return nil, fmt.Errorf("protocol: map bits at %d of %d, expecting the piece at %d of %d", m.Offset, m.Total, len(b.stream), cap(b.stream))
	}
	b.stream = append(b.stream, m.Data...)
	if len(b.stream) < cap(b.stream) {
		return nil, nil
	}
	cells, err := DecodeMapBits(int(b.width), int(b.height), b.stream)
	b.stream = nil
	if err != nil {
		return nil, err
	}
	return grid.NewMapFromCells(int(b.width), int(b.height), cells)
}

// ErrMapBits is the error of a map's stream that does not decode to its
// bitmap.
var ErrMapBits = errors.New("protocol: the map's bits do not decode to its bitmap")

// DecodeMapBits inflates a width x height map's whole compressed stream
// into its cells, row-major, '#' or '.'. It reads at most the map's bitmap
// and one byte more, whatever the stream holds: a stream that inflates to
// more or less than the bitmap, fails its checksum, has bytes after its
// end or sets a bit past a row's end is refused.
func DecodeMapBits(width, height int, stream []byte) ([]byte, error) {
	if width < 1 || height < 1 || width > grid.MaxMapSide || height > grid.MaxMapSide {
		return nil, fmt.Errorf("%w: a %dx%d map", ErrMapBits, width, height)
	}
	if len(stream) > MaxMapBitsLen(width, height) {
		return nil, fmt.Errorf("%w: %d bytes for a %dx%d map", ErrMapBits, len(stream), width, height)
	}
	src := bytes.NewReader(stream)
	zr, err := zlib.NewReader(src)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrMapBits, err)
	}
	rowBytes := MapRowBytes(width)
	bits := make([]byte, rowBytes*height)
	if _, err := io.ReadFull(zr, bits); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrMapBits, err)
	}
	// The stream must end here: one byte more is past the map, and
	// reading to the end checks the checksum.
	if n, err := zr.Read(make([]byte, 1)); n != 0 || err != io.EOF {
		if err == nil || err == io.EOF {
			err = errors.New("it inflates past the map's size")
		}
		return nil, fmt.Errorf("%w: %w", ErrMapBits, err)
	}
	if src.Len() != 0 {
		return nil, fmt.Errorf("%w: %d bytes after the stream's end", ErrMapBits, src.Len())
	}
	cells := make([]byte, width*height)
	pad := byte(0xff >> (width % 8)) // the bits of a row's last byte past its end
	if width%8 == 0 {
		pad = 0
	}
	for y := range height {
		row := bits[y*rowBytes : (y+1)*rowBytes]
		if row[rowBytes-1]&pad != 0 {
			return nil, fmt.Errorf("%w: row %d has bits past its end", ErrMapBits, y)
		}
		out := cells[y*width : (y+1)*width]
		for i, b := range row {
			copy(out[i*8:], byteCells[b][:])
		}
	}
	return cells, nil
}

// byteCells are the cells of each byte of a bitmap, its high bit first.
var byteCells = func() (t [256][8]byte) {
	for b := range t {
		for i := range 8 {
			t[b][i] = grid.FloorCell
			if b&(0x80>>i) != 0 {
				t[b][i] = grid.WallCell
			}
		}
	}
	return t
}()
