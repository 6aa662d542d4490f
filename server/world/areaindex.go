package world

import (
	"gridlag/grid"
)

// The size in cells of the buckets of an areaIndex: the grain of the
// areas of interest they make up, wide and low like them.
const (
	bucketW = AreaGrainX
	bucketH = AreaGrainY
)

// areaIndex buckets the players of one moment by where they stand. The
// buckets are in row-major order and the players by ID within a bucket,
// so the players of one row of a rectangle of buckets are one run of
// players: an area of interest, a rectangle of buckets, is a few runs,
// whatever its size.
type areaIndex struct {
	cols, rows int
	start      []int32          // bucket b holds players[start[b]:start[b+1]]
	players    []grid.PlayerPos // by bucket, by ID within a bucket
	slot       []int32          // by player ID: its index in players, or -1 if absent
	fill       []int32          // scratch of build
	// whole turns the areas of interest off: an area is the whole map
	// (still at most MaxAreaPlayers), as a server without them sends
	// (Core.SetAreas).
	whole bool
}

// halves are the half sizes of an area, in cells: AreaHalfWidth and
// AreaHalfHeight, or the whole map's when the areas are off.
func (ix *areaIndex) halves() (hw, hh int) {
	if ix.whole {
		return ix.cols * bucketW, ix.rows * bucketH
	}
	return AreaHalfWidth, AreaHalfHeight
}

// build indexes ps, sorted by ID, on a w x h map. The index copies what it
// needs.
func (ix *areaIndex) build(w, h int, ps []grid.PlayerPos) {
	ix.cols, ix.rows = (w+bucketW-1)/bucketW, (h+bucketH-1)/bucketH
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
	top := 0
	if len(ps) > 0 {
		top = int(ps[len(ps)-1].ID)
	}
	ix.slot = resize(ix.slot, top+1)
	for i := range ix.slot {
		ix.slot[i] = -1
	}
	for _, p := range ps {
		b := ix.bucket(p.Pos)
		ix.players[ix.fill[b]] = p
		ix.slot[p.ID] = ix.fill[b]
		ix.fill[b]++
	}
}

// find returns player id's entry, if it was in the indexed moment.
func (ix *areaIndex) find(id grid.PlayerID) (grid.PlayerPos, bool) {
	if int(id) >= len(ix.slot) || ix.slot[id] < 0 {
		return grid.PlayerPos{}, false
	}
	return ix.players[ix.slot[id]], true
}

// bucketOf returns the bucket player id stood in, or -1 if it was absent.
func (ix *areaIndex) bucketOf(id grid.PlayerID) int32 {
	p, ok := ix.find(id)
	if !ok {
		return -1
	}
	return int32(ix.bucket(p.Pos))
}

// forget takes player id out of the index, as if it had been absent: it
// left the game, and its ID may come back as a newcomer's.
func (ix *areaIndex) forget(id grid.PlayerID) {
	if int(id) < len(ix.slot) {
		ix.slot[id] = -1
	}
}

// present reports whether the entry at index i of players still stands
// for its player (forget did not take it out).
func (ix *areaIndex) present(i int32) bool { return ix.slot[ix.players[i].ID] == i }

// bucket returns the bucket of cell p.
func (ix *areaIndex) bucket(p grid.Pos) int { return p.Y/bucketH*ix.cols + p.X/bucketW }

// run returns the bounds in players of the buckets x0..x1 of bucket row y.
func (ix *areaIndex) run(y, x0, x1 int) (lo, hi int32) {
	return bucketRun(ix.start, ix.cols, y, x0, x1)
}

// bucketRun returns the bounds of buckets x0..x1 of bucket row y in a
// list kept by bucket, whose bucket b starts at start[b], on a map of
// cols bucket columns.
func bucketRun(start []int32, cols, y, x0, x1 int) (lo, hi int32) {
	return start[y*cols+x0], start[y*cols+x1+1]
}

// count returns the number of players in the buckets of r.
func (ix *areaIndex) count(r rect) int {
	n := 0
	for y := r.y0; y <= r.y1; y++ {
		lo, hi := ix.run(y, r.x0, r.x1)
		n += int(hi - lo)
	}
	return n
}

// cover returns the rectangle of the buckets holding the cells within hw
// columns and hh rows of c, on the map.
func (ix *areaIndex) cover(c grid.Pos, hw, hh int) rect {
	return rect{
		x0: max(c.X-hw, 0) / bucketW, x1: min(c.X+hw, ix.cols*bucketW-1) / bucketW,
		y0: max(c.Y-hh, 0) / bucketH, y1: min(c.Y+hh, ix.rows*bucketH-1) / bucketH,
	}
}

// rect is a rectangle of buckets, x0..x1 by y0..y1, bounds included; it
// is empty when x0 > x1.
type rect struct{ x0, y0, x1, y1 int }

// none is the empty rect.
var none = rect{x0: 1, x1: 0}

// empty reports whether r holds no bucket.
func (r rect) empty() bool { return r.x0 > r.x1 || r.y0 > r.y1 }

// has reports whether bucket b of an index cols buckets wide is in r (false
// for -1, no bucket).
func (r rect) has(b int32, cols int) bool {
	if b < 0 {
		return false
	}
	x, y := int(b)%cols, int(b)/cols
	return x >= r.x0 && x <= r.x1 && y >= r.y0 && y <= r.y1
}

// covers reports whether every bucket of s is in r.
func (r rect) covers(s rect) bool {
	return s.empty() || s.x0 >= r.x0 && s.x1 <= r.x1 && s.y0 >= r.y0 && s.y1 <= r.y1
}

// and returns the buckets in both r and s.
func (r rect) and(s rect) rect {
	return rect{x0: max(r.x0, s.x0), y0: max(r.y0, s.y0), x1: min(r.x1, s.x1), y1: min(r.y1, s.y1)}
}

// outside calls f with each run of row y of r that is not in k: none, one
// or two runs of columns.
func (r rect) outside(k rect, y int, f func(x0, x1 int)) {
	if k.empty() || y < k.y0 || y > k.y1 || k.x1 < r.x0 || k.x0 > r.x1 {
		f(r.x0, r.x1)
		return
	}
	if r.x0 < k.x0 {
		f(r.x0, k.x0-1)
	}
	if k.x1 < r.x1 {
		f(k.x1+1, r.x1)
	}
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
