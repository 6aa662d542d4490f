package server

import (
	"gridlag/protocol"
	"gridlag/server/world"
)

// keptFrames are the frames of the messages every room sends again and
// again unchanged: its map's chunks or bits, which every Welcome and
// Spectating of a big map shares (world.MapShare). Each is encoded once,
// when the server starts, so a join storm on a big map encodes nothing. A
// frame is never written to once encoded: every connection's queue may
// hold the same bytes.
type keptFrames map[protocol.Message][]byte

// keepPieces encodes the pieces of ms.
func keepPieces(ms *world.MapShare) (keptFrames, error) {
	k := make(keptFrames)
	for _, m := range ms.Pieces() {
		b, err := protocol.Marshal(m)
		if err != nil {
			return nil, err
		}
		k[m] = b
	}
	return k, nil
}

// frame returns m's frame: the one kept, else encoded now (and not kept:
// the shards read the kept frames at once, and nothing writes them once
// the server runs).
func (k keptFrames) frame(m protocol.Message) (frame, error) {
	if b, ok := k[m]; ok {
		return frame{head: b, shared: true}, nil
	}
	b, err := protocol.Marshal(m)
	return frame{head: b}, err
}
