package client

import (
	"fmt"

	"gridlag/grid"
	"gridlag/protocol"
)

// mapParts puts together a map too big for its Welcome or Spectating from
// the MapChunks that follow, in row order.
type mapParts struct {
	width, height int
	cells         []byte
}

// expecting starts waiting for a width x height map.
func (p *mapParts) expecting(width, height uint16) {
	p.width, p.height = int(width), int(height)
	p.cells = make([]byte, 0, p.width*p.height)
}

// waiting reports whether chunks are expected.
func (p *mapParts) waiting() bool { return p.cells != nil }

// add takes the next chunk; with the last it returns the whole map.
func (p *mapParts) add(ch *protocol.MapChunk) (*grid.Map, error) {
	if !p.waiting() || int(ch.Width) != p.width || int(ch.Y)*p.width != len(p.cells) || len(p.cells)+len(ch.Cells) > cap(p.cells) {
		return nil, fmt.Errorf("client: unexpected map chunk at row %d", ch.Y)
	}
	p.cells = append(p.cells, ch.Cells...)
	if len(p.cells) < cap(p.cells) {
		return nil, nil
	}
	m, err := grid.NewMapFromCells(p.width, p.height, p.cells)
	p.cells = nil
	return m, err
}
