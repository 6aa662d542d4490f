package server

import (
	"gridlag/grid"
	"gridlag/protocol"
)

// MapShare is a map and what a Core sends of it, built once and shared,
// never written to: the cells that travel inside a Welcome or Spectating
// (a small map), or what follows them (a big one): its MapChunks for
// version 3 clients and its MapBits for the later versions, and their
// encoded frames. A server builds one for its map and gives it to every
// room's Core, so that a room costs its players and its world, not
// another copy of the map, of its 225 KB of chunks and of its compressed
// bits (a 1024x1024 map), and opening one encodes and compresses
// nothing. NewCore builds its own.
type MapShare struct {
	m      *grid.Map
	cells  []byte               // the map's cells, shared by every Welcome, if small enough for one
	chunks []*protocol.MapChunk // the map's chunks, shared by every Welcome of a big map to a version 3 client
	bits   []*protocol.MapBits  // the map's compressed bits, shared by every Welcome of a big map to the later versions
	frames keptFrames           // the chunks' and the bits' frames
}

// NewMapShare splits m into what travels of it, compresses a big map's
// bits and encodes its chunks and bits.
func NewMapShare(m *grid.Map) (*MapShare, error) {
	ms := &MapShare{m: m, frames: make(keptFrames)}
	if ms.chunks = protocol.MapChunks(m); ms.chunks == nil {
		ms.cells = m.Cells()
	} else {
		ms.bits = protocol.MapBitsOf(m)
	}
	for _, ch := range ms.chunks {
		if _, err := ms.frames.frame(ch); err != nil {
			return nil, err
		}
	}
	for _, mb := range ms.bits {
		if _, err := ms.frames.frame(mb); err != nil {
			return nil, err
		}
	}
	return ms, nil
}

// Map returns the map.
func (ms *MapShare) Map() *grid.Map { return ms.m }

// keptFrames are the frames of the messages every room sends again and
// again unchanged: its map's chunks or bits, which every Welcome and
// Spectating of a big map shares (Core.chunks, Core.bits). Each is
// encoded once, when the MapShare is built, so a join storm on a big map
// encodes nothing. A frame is never written to once encoded: every
// connection's queue may hold the same bytes.
type keptFrames map[protocol.Message][]byte

// frame returns m's frame, encoding it the first time.
func (k keptFrames) frame(m protocol.Message) (frame, error) {
	if b, ok := k[m]; ok {
		return frame{head: b}, nil
	}
	b, err := protocol.Marshal(m)
	if err != nil {
		return frame{}, err
	}
	k[m] = b
	return frame{head: b}, nil
}
