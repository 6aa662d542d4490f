package client

import (
	"gridlag/grid"
	"gridlag/protocol"
)

// applyState returns the players of the client's area after State s, in
// dst (reused): s's players replace the area if s is a full picture, else
// they are merged into area (by ID, both sorted) and s's gone players are
// dropped. area and dst must not share an array.
func applyState(dst, area []grid.PlayerPos, s *protocol.State) []grid.PlayerPos {
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
