package server

import "gridlag/protocol"

// keptFrames are the frames of the messages a room sends again and again
// unchanged: its map's chunks or bits, which every Welcome and Spectating
// of a big map shares (Core.chunks, Core.bits). Each is encoded the first
// time it is sent and kept as long as the room, so a join storm on a big
// map encodes the map once. A frame is never written to once encoded:
// every connection's queue may hold the same bytes.
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
