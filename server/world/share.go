package world

import (
	"gridlag/grid"
	"gridlag/protocol"
)

// MapShare is a map and what a Core sends of it, built once and shared,
// never written to: the cells that travel inside a Welcome or Spectating
// (a small map), or what follows them (a big one): its MapChunks for
// version 3 clients and its MapBits for the later versions. A hub builds
// one for its map and gives it to every room's Core, so that a room
// costs its players and its world, not another copy of the map, of its
// 225 KB of chunks and of its compressed bits (a 1024x1024 map), and
// opening one compresses nothing; an adapter encodes its Pieces once.
// NewCore builds its own.
type MapShare struct {
	m      *grid.Map
	cells  []byte               // the map's cells, shared by every Welcome, if small enough for one
	chunks []*protocol.MapChunk // the map's chunks, shared by every Welcome of a big map to a version 3 client
	bits   []*protocol.MapBits  // the map's compressed bits, shared by every Welcome of a big map to the later versions
	reach  *grid.Reach          // how its floor connects: where players spawn
}

// NewMapShare splits m into what travels of it, compresses a big map's
// bits and finds its main floor (grid.Reach), once for every Core of it.
func NewMapShare(m *grid.Map) *MapShare {
	ms := &MapShare{m: m, reach: m.Reach()}
	if ms.chunks = protocol.MapChunks(m); ms.chunks == nil {
		ms.cells = m.Cells()
	} else {
		ms.bits = protocol.MapBitsOf(m)
	}
	return ms
}

// Map returns the map.
func (ms *MapShare) Map() *grid.Map { return ms.m }

// Reach returns how the map's floor connects, computed once.
func (ms *MapShare) Reach() *grid.Reach { return ms.reach }

// Pieces returns the messages that follow a Welcome or Spectating of a
// big map, in either form (its MapChunks, then its MapBits); none for a
// map that travels in them. Every Core of the share sends these very
// messages, so an adapter may encode each once (by its pointer) for all
// of them.
func (ms *MapShare) Pieces() []protocol.Message {
	pieces := make([]protocol.Message, 0, len(ms.chunks)+len(ms.bits))
	for _, ch := range ms.chunks {
		pieces = append(pieces, ch)
	}
	for _, mb := range ms.bits {
		pieces = append(pieces, mb)
	}
	return pieces
}
