package client

import (
	"slices"

	"gridlag/grid"
	"gridlag/protocol"
)

// applyState returns the players of the client's area after State s, in
// dst (reused), sorted by ID: s's players replace the area if s is a full
// picture, else they are merged into area and s's gone players are
// dropped. area and dst must not share an array. A State lists its
// players in any order (the server puts it together a part of the map at
// a time): applyState sorts s's lists, which are the client's own.
func applyState(dst, area []grid.PlayerPos, s *protocol.State) []grid.PlayerPos {
	slices.SortFunc(s.Players, func(a, b grid.PlayerPos) int { return int(a.ID) - int(b.ID) })
	slices.Sort(s.Gone)
	dst = dst[:0]
	if s.Full {
		return append(dst, s.Players...)
	}
	i, g := 0, 0
	gone := func(id grid.PlayerID) bool {
		for g < len(s.Gone) && s.Gone[g] < id {
			g++
		}
		return g < len(s.Gone) && s.Gone[g] == id
	}
	for _, p := range s.Players {
		for ; i < len(area) && area[i].ID < p.ID; i++ {
			if !gone(area[i].ID) {
				dst = append(dst, area[i])
			}
		}
		if i < len(area) && area[i].ID == p.ID {
			i++
		}
		dst = append(dst, p)
	}
	for ; i < len(area); i++ {
		if !gone(area[i].ID) {
			dst = append(dst, area[i])
		}
	}
	return dst
}
