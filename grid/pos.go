package grid

import "strconv"

// Pos is a cell of the grid.
type Pos struct {
	X, Y int
}

// Add returns the cell one move away from p in direction d.
func (p Pos) Add(d Dir) Pos {
	dx, dy := d.Delta()
	return Pos{p.X + dx, p.Y + dy}
}

// String writes the cell as "(x,y)", the form the whole interface uses.
func (p Pos) String() string {
	return "(" + strconv.Itoa(p.X) + "," + strconv.Itoa(p.Y) + ")"
}
