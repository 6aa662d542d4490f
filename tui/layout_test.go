package tui

import (
	"testing"

	"gridlag/server/world"
)

// TestMaxBoardHoldsTheArea: the largest board is half as large again as
// the half sides of the server's area of interest, so that the farthest
// players a player is told of reach its edges: tui keeps its own copy of
// those half sides (it never imports the server), and a change of the
// area in server/world fails here until the screen follows.
func TestMaxBoardHoldsTheArea(t *testing.T) {
	if areaHalfWidth != world.AreaHalfWidth || areaHalfHeight != world.AreaHalfHeight {
		t.Fatalf("tui's area is %dx%d half sides, the server's %dx%d", areaHalfWidth, areaHalfHeight, world.AreaHalfWidth, world.AreaHalfHeight)
	}
	if MaxBoardWidth != 3*world.AreaHalfWidth/2 || MaxBoardHeight != 3*world.AreaHalfHeight/2 {
		t.Fatalf("the largest board is %dx%d, want %dx%d", MaxBoardWidth, MaxBoardHeight, 3*world.AreaHalfWidth/2, 3*world.AreaHalfHeight/2)
	}
}
