package server

import (
	"gridlag/grid"
	"gridlag/protocol"
)

// MapShare is a map and what a Core sends of it, built once and shared,
// never written to: the cells that travel inside a Welcome or Spectating
// (a small map), or the chunks that follow them (a big one), and the
// chunks' encoded frames. A server builds one for its map and gives it to
// every room's Core, so that a room costs its players and its world, not
// another copy of the map and of its 225 KB of chunks (a 1024x1024 map),
// and opening one encodes nothing. NewCore builds its own.
type MapShare struct {
	m      *grid.Map
	cells  []byte               // the map's cells, shared by every Welcome, if small enough for one
	chunks []*protocol.MapChunk // the map's chunks, shared by every Welcome of a big map
	frames keptFrames           // the chunks' frames
}

// NewMapShare splits m into what travels of it and encodes its chunks.
func NewMapShare(m *grid.Map) (*MapShare, error) {
	ms := &MapShare{m: m, frames: make(keptFrames)}
	if ms.chunks = protocol.MapChunks(m); ms.chunks == nil {
		ms.cells = m.Cells()
	}
	for _, ch := range ms.chunks {
		if _, err := ms.frames.frame(ch); err != nil {
			return nil, err
		}
	}
	return ms, nil
}

// Map returns the map.
func (ms *MapShare) Map() *grid.Map { return ms.m }

// keptFrames are the frames of the messages every room sends again and
// again unchanged: its map's chunks, which every Welcome and Spectating of
// a big map shares (Core.chunks). Each is encoded once, when the MapShare
// is built (or the first time it is sent, for a Core with a map of its
// own), so a join storm on a big map encodes nothing. A frame is never
// written to once encoded: every connection's queue may hold the same
// bytes.
type keptFrames map[*protocol.MapChunk][]byte

// frame returns m's frame, encoding it the first time.
func (k keptFrames) frame(m *protocol.MapChunk) (frame, error) {
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
