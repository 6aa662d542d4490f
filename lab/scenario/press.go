package scenario

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"gridlag/client"
	"gridlag/grid"
)

// Press is one key press at a time from the start of the scenario: a move
// in Dir, or a zap (Zap, Dir None).
type Press struct {
	At  time.Duration
	Dir grid.Dir
	Zap bool
}

// On plays the press on session s.
func (p Press) On(s client.Session) {
	if p.Zap {
		s.Zap()
		return
	}
	s.Press(p.Dir)
}

// ParsePresses reads a list like "right@0ms,right@100ms,zap@300ms":
// directions (up, down, left, right or u, d, l, r), or zap (in the
// direction the player faces), with the time of the press as a Go
// duration. The result is sorted by time; presses at the same time keep
// their order. An error names the press and says what is wrong with it.
func ParsePresses(s string) ([]Press, error) {
	var out []Press
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	for _, part := range strings.Split(s, ",") {
		p, err := parsePress(strings.TrimSpace(part))
		if err != nil {
			return nil, fmt.Errorf("press %q: %w", part, err)
		}
		out = append(out, p)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].At < out[j].At })
	return out, nil
}

// parsePress reads one press, DIRECTION@TIME.
func parsePress(s string) (Press, error) {
	name, when, ok := strings.Cut(s, "@")
	if !ok {
		return Press{}, errors.New("want DIRECTION@TIME, e.g. right@100ms")
	}
	name, when = strings.TrimSpace(name), strings.TrimSpace(when)
	zap := strings.EqualFold(name, "zap")
	d, err := grid.ParseDir(name)
	if err != nil && !zap {
		return Press{}, fmt.Errorf("%q is not a direction: up, down, left or right, or zap", name)
	}
	at, err := time.ParseDuration(when)
	switch {
	case err != nil && isNumber(when):
		return Press{}, fmt.Errorf("%q needs a unit, e.g. %s@%sms", when, name, when)
	case err != nil:
		return Press{}, fmt.Errorf("%q is not a time, e.g. %s@100ms", when, name)
	case at < 0:
		return Press{}, fmt.Errorf("%q is before the start", when)
	}
	return Press{At: at, Dir: d, Zap: zap}, nil
}

func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// ParsePos reads a cell written "x,y" (parentheses allowed); the error
// says what is wanted (the caller names what it read).
func ParsePos(s string) (grid.Pos, error) {
	x, y, ok := strings.Cut(strings.Trim(strings.TrimSpace(s), "()"), ",")
	var errX, errY error
	var p grid.Pos
	if ok {
		p.X, errX = strconv.Atoi(strings.TrimSpace(x))
		p.Y, errY = strconv.Atoi(strings.TrimSpace(y))
	}
	if !ok || errX != nil || errY != nil {
		return grid.Pos{}, errors.New("want x,y, e.g. 10,10")
	}
	return p, nil
}

// FormatPresses writes presses as ParsePresses reads them:
// "right@0s,zap@150ms".
func FormatPresses(ps []Press) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		name := strings.ToLower(p.Dir.String())
		if p.Zap {
			name = "zap"
		}
		parts[i] = name + "@" + p.At.String()
	}
	return strings.Join(parts, ",")
}
