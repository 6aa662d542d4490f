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
		if _, err := k.frame(m); err != nil {
			return nil, err
		}
	}
	return k, nil
}

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
