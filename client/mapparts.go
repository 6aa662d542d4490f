package client

import (
	"fmt"

	"gridlag/grid"
	"gridlag/protocol"
)

// mapParts puts together a map too big for its Welcome or Spectating from
// what follows it: MapBits, a compressed bitmap decoded once the last
// piece is in (protocol version 4), or MapChunks of whole rows, in row
// order (what a version 3 server sends). One map comes in one form.
type mapParts struct {
	width, height int
	wait          bool
	form          protocol.Type           // the form of the first part, 0 before it
	cells         []byte                  // the chunks' rows so far
	bits          *protocol.MapBitsBuffer // the bits so far
}

// expecting starts waiting for a width x height map.
func (p *mapParts) expecting(width, height uint16) {
	*p = mapParts{width: int(width), height: int(height), wait: true}
}

// waiting reports whether the map's parts are expected.
func (p *mapParts) waiting() bool { return p.wait }

// first takes the form of the map's first part, and reports whether a
// part of form f may come now.
func (p *mapParts) first(f protocol.Type) bool {
	if !p.wait || p.form != 0 && p.form != f {
		return false
	}
	if p.form == 0 {
		p.form = f
		if f == protocol.TypeMapChunk {
			p.cells = make([]byte, 0, p.width*p.height)
		} else {
			p.bits = protocol.NewMapBitsBuffer(uint16(p.width), uint16(p.height))
		}
	}
	return true
}

// done stops waiting, and drops what was kept.
func (p *mapParts) done() { *p = mapParts{} }

// add takes the next chunk; with the last it returns the whole map.
func (p *mapParts) add(ch *protocol.MapChunk) (*grid.Map, error) {
	if !p.first(protocol.TypeMapChunk) || int(ch.Width) != p.width || int(ch.Y)*p.width != len(p.cells) || len(p.cells)+len(ch.Cells) > cap(p.cells) {
		return nil, fmt.Errorf("client: unexpected map chunk at row %d", ch.Y)
	}
	p.cells = append(p.cells, ch.Cells...)
	if len(p.cells) < cap(p.cells) {
		return nil, nil
	}
	m, err := grid.NewMapFromCells(p.width, p.height, p.cells)
	p.done()
	return m, err
}

// addBits takes the next piece of the map's bits; with the last it
// decodes and returns the whole map.
func (p *mapParts) addBits(b *protocol.MapBits) (*grid.Map, error) {
	if !p.first(protocol.TypeMapBits) {
		return nil, fmt.Errorf("client: unexpected map bits at %d of %d", b.Offset, b.Total)
	}
	m, err := p.bits.Add(b)
	if err != nil {
		p.done()
		return nil, fmt.Errorf("client: the map: %w", err)
	}
	if m != nil {
		p.done()
	}
	return m, nil
}
