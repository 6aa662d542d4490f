package world

import (
	"gridlag/grid"
	"gridlag/server/world/worldtest"
)

// views follows the picture of each client through every batch, in order.
type views map[ConnID]*worldtest.Picture

// apply takes in the messages of one batch.
func (v views) apply(out []Envelope) {
	for _, e := range out {
		if v[e.To] == nil {
			v[e.To] = &worldtest.Picture{}
		}
		v[e.To].Take(e.Msg)
	}
}

// players returns what conn was told, sorted by ID.
func (v views) players(conn ConnID) []grid.PlayerPos {
	if v[conn] == nil {
		return nil
	}
	return v[conn].Players()
}
