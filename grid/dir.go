package grid

import "fmt"

// Dir is a direction of movement. The zero value None means "no move".
type Dir uint8

// The four directions a player can move in, with their wire values.
const (
	None Dir = iota
	Up
	Down
	Left
	Right
)

// Valid reports whether d is one of Up, Down, Left or Right.
func (d Dir) Valid() bool { return d >= Up && d <= Right }

// Delta returns the change in x and y that one move in direction d makes.
func (d Dir) Delta() (dx, dy int) {
	switch d {
	case Up:
		return 0, -1
	case Down:
		return 0, 1
	case Left:
		return -1, 0
	case Right:
		return 1, 0
	}
	return 0, 0
}

// Opposite returns the direction that undoes d (None for None).
func (d Dir) Opposite() Dir {
	switch d {
	case Up:
		return Down
	case Down:
		return Up
	case Left:
		return Right
	case Right:
		return Left
	}
	return None
}

// String returns the upper-case name of the direction, e.g. "RIGHT".
func (d Dir) String() string {
	switch d {
	case None:
		return "NONE"
	case Up:
		return "UP"
	case Down:
		return "DOWN"
	case Left:
		return "LEFT"
	case Right:
		return "RIGHT"
	}
	return fmt.Sprintf("Dir(%d)", uint8(d))
}

// Arrow returns a one-character arrow for the direction, e.g. "→".
func (d Dir) Arrow() string {
	switch d {
	case Up:
		return "↑"
	case Down:
		return "↓"
	case Left:
		return "←"
	case Right:
		return "→"
	}
	return "·"
}

// ParseDir reads a direction name, case-insensitively: "up", "down", "left",
// "right", or their first letters.
func ParseDir(s string) (Dir, error) {
	switch lower(s) {
	case "up", "u":
		return Up, nil
	case "down", "d":
		return Down, nil
	case "left", "l":
		return Left, nil
	case "right", "r":
		return Right, nil
	}
	return None, fmt.Errorf("grid: unknown direction %q (want up, down, left or right)", s)
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
