package world

import (
	"maps"

	"gridlag/protocol"
)

// Trim lets go of what the Core's batches grew to: the envelopes, events,
// States and their players' lists that a crowd's broadcasts needed, kept
// for reuse (a steady tick allocates nothing), and its maps of clients,
// which never shrink. The next batches grow them again to what they
// need. The server calls it once its connections fell far below their
// peak, so that a crowd gone leaves no crowd-sized buffers behind. It
// does nothing while a batch is not handed over yet; like any method, it
// ends the validity of what the last Outbox returned.
func (c *Core) Trim() {
	if !c.drained {
		return
	}
	c.reset()
	c.out, c.events = nil, nil
	c.lefts, c.deltas, c.runs, c.gones, c.met = nil, nil, nil, nil, nil
	c.stageBuf, c.facts, c.targets, c.positions = nil, nil, nil, nil
	c.ranking, c.scores = nil, nil
	c.shared, c.states, c.pongs = pool[protocol.SharedPlayers]{}, pool[protocol.State]{}, pool[protocol.Pong]{}
	c.stages, c.pings, c.overviews = pool[protocol.Stages]{}, pool[protocol.Ping]{}, pool[protocol.Overview]{}
	c.conns, c.names, c.tokens = maps.Clone(c.conns), maps.Clone(c.names), maps.Clone(c.tokens)
}
