package server

import (
	"fmt"
	"os"

	"gridlag/grid"
)

// LoadMap reads a map file for Config.Map: one line per row, '#' for a wall
// and '.' for floor (see grid.ParseMap). The empty path is the embedded
// default map, which Config takes as a nil Map, so LoadMap returns nil for
// it. A map without a floor cell is refused: nobody could play on it.
func LoadMap(path string) (*grid.Map, error) {
	if path == "" {
		return nil, nil
	}
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m, err := grid.ParseMap(string(text))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if _, ok := nearestFloor(m, grid.DefaultSpawn); !ok {
		return nil, fmt.Errorf("%s: the map has no floor", path)
	}
	return m, nil
}
