// Package grid holds the rules of gridlag: the map, the players' positions,
// what a move does, how fast a player may move and how a player can walk
// from one cell to another.
//
// The package is pure and deterministic. It imports only the standard
// library, never reads a clock, starts no goroutine, logs nothing and uses no
// global random source: the same state and the same inputs always give the
// same result. The server applies these rules with authority; the client
// applies the very same rules to predict its own moves.
//
// Coordinates are (x, y) with x growing to the right and y growing downward:
// RIGHT from (10,10) is (11,10) and UP from (10,10) is (10,9).
//
// Times are plain int64 values in a unit the caller chooses (gridlag uses
// nanoseconds, so a time.Duration converts with int64(d)).
package grid
