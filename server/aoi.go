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

// marks tells, in O(1), whether a player is among the ones marked since
// the last clear. Clearing is a counter's step.
type marks struct {
	at  []uint32 // by player ID: the round it was marked in
	now uint32
}

// clear unmarks everyone.
func (m *marks) clear() { m.now++ }

// set marks id.
func (m *marks) set(id grid.PlayerID) {
	if int(id) >= len(m.at) {
		m.at = append(m.at, make([]uint32, int(id)+1-len(m.at))...)
	}
	m.at[id] = m.now
}

// has reports whether id is marked.
func (m *marks) has(id grid.PlayerID) bool { return int(id) < len(m.at) && m.at[id] == m.now }

// update moves the area of a client, its player me at cell at, to the
// moment ix indexes, and appends the news to u's slices. Those it knew
// stay while within the area plus its margin, and are news if they moved;
// those newly within the area arrive (up to MaxAreaPlayers). arrivals and
// seen are scratch.
func (a *area) update(u *areaUpdate, me grid.PlayerID, at grid.Pos, ix *areaIndex, seen *marks, arrivals []grid.PlayerPos) []grid.PlayerPos {
	u.full = a.fresh || a.jumped(at)
	old := a.known
	if u.full {
		old = nil // a full picture: everything is news, nothing is gone
	}
	seen.clear()
	first := len(u.changed)
	next := a.spare[:0]
	for _, k := range old {
		p, ok := ix.where(k.ID)
		if !ok || !within(p, at, protocol.AreaHalfWidth+protocol.AreaMargin, protocol.AreaHalfHeight+protocol.AreaMargin) {
			u.gone = append(u.gone, k.ID)
			continue
		}
		seen.set(k.ID)
		if p != k.Pos {
			u.changed = append(u.changed, grid.PlayerPos{ID: k.ID, Pos: p})
		}
		next = append(next, grid.PlayerPos{ID: k.ID, Pos: p})
	}
	arrivals = ix.near(arrivals[:0], at, protocol.AreaHalfWidth, protocol.AreaHalfHeight)
	kept := len(next)
	for _, p := range arrivals {
		if seen.has(p.ID) || p.ID != me && len(next) >= protocol.MaxAreaPlayers {
			continue // known, or the area is full
		}
		if p.ID != me && !a.knows(p.ID) {
			u.met = append(u.met, p.ID)
		}
		u.changed = append(u.changed, p)
		next = append(next, p)
	}
	if len(next) > kept { // arrivals: back in ID order
		slices.SortFunc(next, cmpID)
		slices.SortFunc(u.changed[first:], cmpID)
		slices.Sort(u.met)
	}
	a.spare, a.known = a.known[:0], next
	a.at, a.fresh = at, false
	return arrivals
}

// cmpID orders players by ID.
func cmpID(a, b grid.PlayerPos) int { return int(a.ID) - int(b.ID) }
