package hub

import "maps"

// Trim lets go of what the hub and its rooms' worlds grew to for a crowd
// (world.Core.Trim): the batches' buffers, kept for reuse, and the maps
// of connections and addresses, which never shrink. The server calls it
// once its connections fell far below their peak. It does nothing while
// a batch is not handed over yet; like any method, it ends the validity
// of what the last Outbox returned.
func (h *Hub) Trim() {
	if !h.drained {
		return
	}
	h.begin()
	h.drained = true // nothing new: the next producing call starts a batch as before
	for _, r := range h.order {
		r.core.Trim()
		r.watchers = maps.Clone(r.watchers)
	}
	h.out, h.later, h.notes, h.batch = nil, nil, nil, Out{}
	h.upward, h.downward = nil, nil
	h.conns, h.gone, h.roomsBy = maps.Clone(h.conns), maps.Clone(h.gone), maps.Clone(h.roomsBy)
	h.players.hosts, h.players.count = maps.Clone(h.players.hosts), maps.Clone(h.players.count)
	h.players.free = maps.Clone(h.players.free)
	for _, a := range h.rates() {
		if a != nil {
			a.Trim()
		}
	}
}
