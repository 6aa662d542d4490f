package world

import (
	"slices"

	"gridlag/grid"
	"gridlag/protocol"
)

// area is what a client was last told of its area of interest: a
// rectangle of buckets around its player, every player in those buckets
// at the last broadcast's cells. It is the base of the next State's
// delta (TCP delivers every State, in order).
//
// The rectangle covers at least the cells within AreaHalfWidth
// columns and AreaHalfHeight rows of the player: when the player
// walks to where that is no longer so, the area moves to cover the cells
// within AreaMargin more, so that it moves once every few buckets walked,
// not at every step. An area holds at most MaxAreaPlayers: in a
// crowd it shrinks, down to the player's own bucket.
type area struct {
	r     rect // the buckets it was told of; none if it was told nothing
	fresh bool // it was told nothing yet: the next State is a full picture
	// A client told of its area between broadcasts (a join, a resume) was
	// told of the players there at that moment, early, by ID: the next
	// broadcast gives it a full picture again, with Joins for the others.
	early []grid.PlayerID
	again bool
}

// reset makes the next State a full picture, as after a join or a resume.
func (a *area) reset() { a.r, a.fresh, a.again, a.early = none, true, false, a.early[:0] }

// areaUpdate is the news of one client's area: what its State carries, and
// the players it must be introduced to (with a Join) before that State.
type areaUpdate struct {
	full    bool
	changed []grid.PlayerPos
	moved   []protocol.Run // more changed: runs of the broadcast's news.moved
	gone    []grid.PlayerID
	left    []grid.PlayerID // left the game
	met     []grid.PlayerID
}

// view holds what an area's update reads: the last broadcast's index
// (base), this one's (cur) and the news from one to the other. Between
// broadcasts, a full picture is taken from base, with cur nil.
type view struct {
	base, cur *areaIndex
	news      *news
	departed  []crossing // the players that left the game since base, by the bucket they stood in
}

// fit returns the area around cell at in ix: the buckets within the
// area's half sizes plus its margin, shrunk while they hold more than
// MaxAreaPlayers, never below at's own bucket.
func fit(ix *areaIndex, at grid.Pos) rect {
	hw, hh := ix.halves()
	r := ix.cover(at, hw+AreaMargin, hh+AreaMargin)
	own := ix.cover(at, 0, 0)
	for ix.count(r) > MaxAreaPlayers && r != own {
		// Take off the row or column of buckets farthest from at's, in
		// cells (a bucket is twice as wide as it is high); a side with no
		// bucket beyond at's is never taken.
		d := [4]int{(own.x0 - r.x0) * bucketW, (r.x1 - own.x1) * bucketW, (own.y0 - r.y0) * bucketH, (r.y1 - own.y1) * bucketH}
		far := -1
		for i := range d {
			if d[i] > 0 && (far < 0 || d[i] > d[far]) {
				far = i
			}
		}
		switch far {
		case 0:
			r.x0++
		case 1:
			r.x1--
		case 2:
			r.y0++
		default:
			r.y1--
		}
	}
	return r
}

// update moves the area of a client, its player me at cell at, to the
// moment v.cur indexes, and appends the news to u's slices: the players
// that moved or came into the area (in changed, and as runs of
// v.news.moved), the ones that left it, and the ones it has not met.
func (a *area) update(u *areaUpdate, me grid.PlayerID, at grid.Pos, v view) {
	a.departures(u, v.departed, v.base.cols)
	ix := v.cur
	old := a.r
	u.full = a.fresh || a.again || !old.has(int32(ix.bucket(at)), ix.cols) // joined, resumed, or respawned far
	r := old
	if u.full || !a.fits(ix, at) {
		r = fit(ix, at)
	}
	if u.full {
		a.picture(u, me, r, ix, v.base)
		a.r, a.fresh, a.again, a.early = r, false, false, a.early[:0]
		return
	}
	kept, nw := old.and(r), v.news
	for y := kept.y0; y <= kept.y1; y++ {
		lo, hi := bucketRun(nw.movedStart, ix.cols, y, kept.x0, kept.x1)
		if lo < hi {
			u.moved = append(u.moved, protocol.Run{Lo: lo, Hi: hi})
		}
		lo, hi = bucketRun(nw.cameStart, ix.cols, y, kept.x0, kept.x1)
		for _, c := range nw.came[lo:hi] {
			if c.id != me && !old.has(c.bucket, ix.cols) {
				u.met = append(u.met, c.id)
			}
		}
		lo, hi = bucketRun(nw.wentStart, ix.cols, y, kept.x0, kept.x1)
		for _, c := range nw.went[lo:hi] {
			if c.bucket >= 0 && !r.has(c.bucket, ix.cols) {
				u.gone = append(u.gone, c.id)
			}
		}
	}
	if r == old {
		return
	}
	for y := r.y0; y <= r.y1; y++ { // buckets new to the area: everyone in them
		r.outside(kept, y, func(x0, x1 int) {
			lo, hi := ix.run(y, x0, x1)
			for _, p := range ix.players[lo:hi] {
				u.changed = append(u.changed, p)
				if p.ID != me && !old.has(v.base.bucketOf(p.ID), ix.cols) {
					u.met = append(u.met, p.ID)
				}
			}
		})
	}
	base := v.base
	for y := old.y0; y <= old.y1; y++ { // buckets the area left: who is not in it now
		old.outside(kept, y, func(x0, x1 int) {
			lo, hi := base.run(y, x0, x1)
			for i := lo; i < hi; i++ {
				if !base.present(i) {
					continue
				}
				if b := ix.bucketOf(base.players[i].ID); b >= 0 && !r.has(b, ix.cols) {
					u.gone = append(u.gone, base.players[i].ID)
				}
			}
		})
	}
	a.r = r
}

// departures appends to u.left the players that left the game that the
// client knew: those it was told of early, else those that stood in its
// buckets. departed is sorted by bucket.
func (a *area) departures(u *areaUpdate, departed []crossing, cols int) {
	switch {
	case len(departed) == 0 || a.fresh:
	case a.again:
		for _, d := range departed {
			if _, ok := slices.BinarySearch(a.early, d.id); ok {
				u.left = append(u.left, d.id)
			}
		}
	default:
		for y := a.r.y0; y <= a.r.y1; y++ {
			lo, hi := int32(y*cols+a.r.x0), int32(y*cols+a.r.x1)
			i, _ := slices.BinarySearchFunc(departed, lo, func(d crossing, b int32) int { return int(d.bucket) - int(b) })
			for ; i < len(departed) && departed[i].bucket <= hi; i++ {
				u.left = append(u.left, departed[i].id)
			}
		}
	}
}

// fits reports whether the area's buckets may stay as they are for a
// client at cell at: they hold every cell within the area's half sizes,
// none beyond twice its margin more than needed, and not too many players.
//
// An area shrunk by a crowd (it does not hold all it needs) stays as it
// is while it still holds its player's bucket and the buckets around it
// and the crowd is still there (more than crowdedShare of
// MaxAreaPlayers): else its edge rows would come and go with the counts
// at every tick, each time with their Joins and Gones.
func (a *area) fits(ix *areaIndex, at grid.Pos) bool {
	hw, hh := ix.halves()
	need := ix.cover(at, hw, hh)
	loose := ix.cover(at, hw+2*AreaMargin, hh+2*AreaMargin)
	n := ix.count(a.r)
	if !loose.covers(a.r) || n > MaxAreaPlayers {
		return false
	}
	if a.r.covers(need) {
		return true
	}
	around := ix.cover(at, bucketW, bucketH).and(need)
	return a.r.covers(around) && n > MaxAreaPlayers*crowdedShare/8
}

// crowdedShare, in eighths, is how full of MaxAreaPlayers a shrunk area
// must stay to be kept (see fits).
const crowdedShare = 6

// picture appends a full picture of the buckets of r in ix to u: every
// player in them, and those the client did not know as met: all when its
// area is fresh, those it was not told of early when it was, else those
// that were not in its buckets in base.
func (a *area) picture(u *areaUpdate, me grid.PlayerID, r rect, ix, base *areaIndex) {
	for y := r.y0; y <= r.y1; y++ {
		lo, hi := ix.run(y, r.x0, r.x1)
		for _, p := range ix.players[lo:hi] {
			u.changed = append(u.changed, p)
			if p.ID != me && !a.knew(p.ID, base) {
				u.met = append(u.met, p.ID)
			}
		}
	}
}

// knew reports whether the client was told of player id before this
// update.
func (a *area) knew(id grid.PlayerID, base *areaIndex) bool {
	return !a.fresh && a.told(id, base.bucketOf(id), base.cols)
}

// told reports whether the client knows of player id, which stood in
// bucket was at the last broadcast (-1 if absent).
func (a *area) told(id grid.PlayerID, was int32, cols int) bool {
	if a.again {
		_, ok := slices.BinarySearch(a.early, id)
		return ok
	}
	return a.r.has(was, cols)
}

// tellEarly makes u a full picture of the area around cell at between
// broadcasts, from ix, an index of the world as it is now, and notes
// whom it told of for the next broadcast's full picture.
func (a *area) tellEarly(u *areaUpdate, me grid.PlayerID, at grid.Pos, ix *areaIndex) {
	r := fit(ix, at)
	first := len(u.changed)
	u.full = true
	a.picture(u, me, r, ix, ix)
	a.early = a.early[:0]
	for _, p := range u.changed[first:] {
		if p.ID != me {
			a.early = append(a.early, p.ID)
		}
	}
	slices.Sort(a.early)
	a.r, a.fresh, a.again = r, false, true
}
