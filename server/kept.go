package server

import "gridlag/protocol"

// keptFrames are the frames of the messages a room sends again and again
// unchanged: its map's chunks, which every Welcome and Spectating of a big
// map shares (Core.chunks). Each is encoded the first time it is sent and
// kept as long as the room, so a join storm on a big map encodes the map
// once. A frame is never written to once encoded: every connection's
// queue may hold the same bytes.
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
