package server

import (
	"maps"
	"slices"

	"gridlag/grid"
	"gridlag/protocol"
)

// picture is what one client was told of the players in its area, kept as
// a client keeps it: a full picture replaces it, a State's changes and
// departures and a Leave update it.
type picture map[grid.PlayerID]grid.Pos

// take applies m, if it is a State or a Leave.
func (p *picture) take(m protocol.Message) {
	switch m := m.(type) {
	case *protocol.State:
		for _, id := range m.Left {
			delete(*p, id)
		}
		if *p == nil || m.Full {
			*p = picture{}
		}
		for _, q := range m.AllPlayers(nil) {
			(*p)[q.ID] = q.Pos
		}
		for _, id := range m.Gone {
			delete(*p, id)
		}
	case *protocol.Leave:
		delete(*p, m.ID)
	}
}

// players returns the picture sorted by ID.
func (p picture) players() []grid.PlayerPos {
	var ps []grid.PlayerPos
	for _, id := range slices.Sorted(maps.Keys(p)) {
		ps = append(ps, grid.PlayerPos{ID: id, Pos: p[id]})
	}
	return ps
}

// views follows the picture of each client through every batch, in order.
type views map[ConnID]*picture

// apply takes in the messages of one batch.
func (v views) apply(out []Envelope) {
	for _, e := range out {
		if v[e.To] == nil {
			v[e.To] = &picture{}
		}
		v[e.To].take(e.Msg)
	}
}

// players returns what conn was told, sorted by ID.
func (v views) players(conn ConnID) []grid.PlayerPos {
	if v[conn] == nil {
		return nil
	}
	return v[conn].players()
}
