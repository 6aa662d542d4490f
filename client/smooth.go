package client

import (
	"math"
	"time"

	"gridlag/grid"
)

// Smoothing of corrections (issue 22), as Source's cl_smooth: off, a
// correction snaps the avatar to where the server's word puts it, as the
// articles show it; on, the avatar slides there over one move time, the
// error shrinking as time goes, so that a learner can see both. Only the
// drawing slides: the prediction itself is corrected at once.

// SetSmooth turns smoothing of corrections on or off (off by default).
func (c *Core) SetSmooth(on bool) { c.smooth = on }

// shownAt returns where the avatar is drawn at now when prediction has it
// at predicted: there, unless smoothing slides the last correction. A
// correction by (dx, dy) made at At shows predicted + (dx, dy) × (1 − f)
// at a fraction f of the move time after, rounded to the nearest cell: a
// one-cell correction shows the old cell for half a move time, as
// interpolation switches a one-cell move at its midpoint. A cell on the
// way that is a wall snaps to predicted.
func (c *Core) shownAt(now time.Duration, predicted grid.Pos) grid.Pos {
	k := c.lastCorr
	if !c.smooth || k == nil || !c.predict || c.moveTime <= 0 || c.m == nil {
		return predicted
	}
	el := now - k.At
	if el < 0 || el >= c.moveTime {
		return predicted
	}
	left := 1 - float64(el)/float64(c.moveTime)
	p := grid.Pos{X: predicted.X + roundDown(float64(k.From.X-k.To.X)*left), Y: predicted.Y + roundDown(float64(k.From.Y-k.To.Y)*left)}
	if !c.m.Inside(p) || c.m.Wall(p) {
		return predicted
	}
	return p
}

// roundDown rounds v to the nearest integer, halves towards zero: a cell
// switches once past the middle.
func roundDown(v float64) int {
	if v < 0 {
		return -int(math.Ceil(-v - 0.5))
	}
	return int(math.Ceil(v - 0.5))
}

// manhattan is the distance from a to b in cells, one step at a time.
func manhattan(a, b grid.Pos) int {
	return abs(a.X-b.X) + abs(a.Y-b.Y)
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
