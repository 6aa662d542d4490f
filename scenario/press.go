package scenario

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"gridlag/grid"
)

// Press is one key press at a time from the start of the scenario.
type Press struct {
	At  time.Duration
	Dir grid.Dir
}

// ParsePresses reads a list like "right@0ms,right@100ms": directions (up,
// down, left, right or u, d, l, r) with the time of the press as a Go
// duration. The result is sorted by time; presses at the same time keep
// their order.
func ParsePresses(s string) ([]Press, error) {
	var out []Press
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		name, when, ok := strings.Cut(part, "@")
		if !ok {
			return nil, fmt.Errorf("scenario: press %q: want DIRECTION@TIME, e.g. right@100ms", part)
		}
		d, err := grid.ParseDir(strings.TrimSpace(name))
		if err != nil {
			return nil, fmt.Errorf("scenario: press %q: %w", part, err)
		}
		at, err := time.ParseDuration(strings.TrimSpace(when))
		if err != nil {
			return nil, fmt.Errorf("scenario: press %q: time: %w", part, err)
		}
		if at < 0 {
			return nil, fmt.Errorf("scenario: press %q: negative time", part)
		}
		out = append(out, Press{At: at, Dir: d})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].At < out[j].At })
	return out, nil
}

// ParsePos reads a cell written "x,y" (parentheses allowed).
func ParsePos(s string) (grid.Pos, error) {
	var p grid.Pos
	s = strings.Trim(strings.TrimSpace(s), "()")
	if _, err := fmt.Sscanf(s, "%d,%d", &p.X, &p.Y); err != nil {
		return p, fmt.Errorf("scenario: cell %q: want x,y, e.g. 10,10", s)
	}
	return p, nil
}
