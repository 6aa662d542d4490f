package server

import "gridlag/grid"

// bucketSide is the side in cells of the square buckets of an areaIndex.
const bucketSide = 32

// areaIndex buckets the players of one moment by where they stand, so that
// finding the players around a cell looks at a few buckets instead of the
// whole world: a tick costs O(players x players in view), not O(players^2).
type areaIndex struct {
	cols, rows int
	start      []int            // bucket b holds players[start[b]:start[b+1]]
	players    []grid.PlayerPos // by bucket, by ID within a bucket
	fill       []int            // scratch of build
	cells      []grid.Pos       // by player ID: its cell, if present
	present    []uint32         // by player ID: the build it was present in
	builds     uint32
}

// build indexes ps on a w x h map. The index copies what it needs.
func (ix *areaIndex) build(w, h int, ps []grid.PlayerPos) {
	ix.cols, ix.rows = (w+bucketSide-1)/bucketSide, (h+bucketSide-1)/bucketSide
	n := ix.cols * ix.rows
	ix.start = resize(ix.start, n+1)
	ix.fill = resize(ix.fill, n)
	clear(ix.start)
	for _, p := range ps {
		ix.start[ix.bucket(p.Pos)+1]++
	}
	for b := 1; b <= n; b++ {
		ix.start[b] += ix.start[b-1]
	}
	copy(ix.fill, ix.start[:n])
	ix.players = resize(ix.players, len(ps))
	ix.builds++
	for _, p := range ps {
		b := ix.bucket(p.Pos)
		ix.players[ix.fill[b]] = p
		ix.fill[b]++
		if int(p.ID) >= len(ix.cells) {
			ix.cells = append(ix.cells, make([]grid.Pos, int(p.ID)+1-len(ix.cells))...)
			ix.present = append(ix.present, make([]uint32, int(p.ID)+1-len(ix.present))...)
		}
		ix.cells[p.ID], ix.present[p.ID] = p.Pos, ix.builds
	}
}

// where returns the cell of player id, if it was in the indexed moment.
func (ix *areaIndex) where(id grid.PlayerID) (grid.Pos, bool) {
	if int(id) >= len(ix.present) || ix.present[id] != ix.builds {
		return grid.Pos{}, false
	}
	return ix.cells[id], true
}

// bucket returns the bucket of cell p.
func (ix *areaIndex) bucket(p grid.Pos) int { return p.Y/bucketSide*ix.cols + p.X/bucketSide }

// near appends to dst the players within hw columns and hh rows of c.
func (ix *areaIndex) near(dst []grid.PlayerPos, c grid.Pos, hw, hh int) []grid.PlayerPos {
	bx0, bx1 := max(c.X-hw, 0)/bucketSide, min(c.X+hw, ix.cols*bucketSide-1)/bucketSide
	by0, by1 := max(c.Y-hh, 0)/bucketSide, min(c.Y+hh, ix.rows*bucketSide-1)/bucketSide
	for by := by0; by <= by1; by++ {
		for bx := bx0; bx <= bx1; bx++ {
			b := by*ix.cols + bx
			for _, p := range ix.players[ix.start[b]:ix.start[b+1]] {
				if within(p.Pos, c, hw, hh) {
					dst = append(dst, p)
				}
			}
		}
	}
	return dst
}

// within reports whether p is within hw columns and hh rows of c.
func within(p, c grid.Pos, hw, hh int) bool {
	return p.X >= c.X-hw && p.X <= c.X+hw && p.Y >= c.Y-hh && p.Y <= c.Y+hh
}

// resize returns s with length n, reusing its array when it is big enough
// and growing it as append does when not, so that a world growing by one
// player at a time does not reallocate at each.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return append(s[:cap(s)], make([]T, n-cap(s))...)
	}
	return s[:n]
}
