package server

import (
	"slices"

	"gridlag/grid"
	"gridlag/protocol"
)

// area is what a client was last told of its area of interest: the base
// of the next State's delta (TCP delivers every State, in order).
type area struct {
	known []grid.PlayerPos // the players it was told of, at the cells it was told, sorted by ID
	spare []grid.PlayerPos // the previous known's array, reused by the next update
	at    grid.Pos         // its own cell in the last State
	fresh bool             // it was told nothing yet: the next State is a full picture
}

// reset makes the next State a full picture, as after a join or a resume.
func (a *area) reset() {
	a.known = a.known[:0]
	a.fresh = true
}

// knows reports whether the client was told of player id.
func (a *area) knows(id grid.PlayerID) bool {
	_, ok := slices.BinarySearchFunc(a.known, id, byID)
	return ok
}

// forget drops player id, who left the game (its Leave tells the client).
func (a *area) forget(id grid.PlayerID) {
	if i, ok := slices.BinarySearchFunc(a.known, id, byID); ok {
		a.known = slices.Delete(a.known, i, i+1)
	}
}

// byID compares a player's ID with id.
func byID(p grid.PlayerPos, id grid.PlayerID) int { return int(p.ID) - int(id) }

// jumped reports whether a client's own cell moved so far since the last
// State (a respawn) that its new area does not overlap the old one.
func (a *area) jumped(me grid.Pos) bool {
	return !within(me, a.at, 2*protocol.AreaHalfWidth, 2*protocol.AreaHalfHeight)
}

// areaUpdate is the news of one client's area: what its State carries, and
// the players it must be introduced to (with a Join) before that State.
type areaUpdate struct {
	full    bool
	changed []grid.PlayerPos
	gone    []grid.PlayerID
	met     []grid.PlayerID
}

// update moves the area to the players near, sorted by ID (everyone within
// the area plus its margin around me, the client's own player at cell at),
// and appends the news to u's slices.
func (a *area) update(u *areaUpdate, me grid.PlayerID, at grid.Pos, near []grid.PlayerPos) {
	u.full = a.fresh || a.jumped(at)
	old := a.known
	if u.full {
		old = old[:0] // a full picture: everything is news, nothing is gone
	}
	next := a.spare[:0]
	i := 0
	for _, p := range near {
		for ; i < len(old) && old[i].ID < p.ID; i++ {
			u.gone = append(u.gone, old[i].ID)
		}
		if i < len(old) && old[i].ID == p.ID {
			if old[i].Pos != p.Pos || u.full {
				u.changed = append(u.changed, p)
			}
			next = append(next, p)
			i++
			continue
		}
		if p.ID != me && (!within(p.Pos, at, protocol.AreaHalfWidth, protocol.AreaHalfHeight) ||
			len(next)+len(old)-i >= protocol.MaxAreaPlayers) {
			continue // not in view yet, or the area is full
		}
		if p.ID != me && !a.knows(p.ID) {
			u.met = append(u.met, p.ID)
		}
		u.changed = append(u.changed, p)
		next = append(next, p)
	}
	for ; i < len(old); i++ {
		u.gone = append(u.gone, old[i].ID)
	}
	a.spare, a.known = a.known[:0], next
	a.at, a.fresh = at, false
}
