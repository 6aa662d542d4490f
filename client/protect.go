package client

import (
	"time"

	"gridlag/grid"
	"gridlag/protocol"
)

// protection is what a client was told of spawn protection (protocol
// version 4): until when, on the server's clock, each player cannot be
// tagged. A player is drawn protected while the world it is drawn in (the
// render time, for others) is before that: what the server judges a zap
// against.
type protection map[grid.PlayerID]time.Duration

// set takes a Protect.
func (p protection) set(m *protocol.Protect) { p[m.ID] = time.Duration(m.UntilNS) }

// at reports whether player id is protected in the world of server time t.
func (p protection) at(id grid.PlayerID, t time.Duration) bool {
	until, ok := p[id]
	return ok && t < until
}

// prune forgets the protections over by server time t.
func (p protection) prune(t time.Duration) {
	for id, until := range p {
		if until <= t {
			delete(p, id)
		}
	}
}
