package main

import (
	"fmt"
	"strconv"
	"strings"

	"gridlag/grid"
)

// mapSize is the size of a map to generate (-map-gen WxH); zero means
// none.
type mapSize struct{ w, h int }

// mapSizeValue is a map size flag, WxH.
type mapSizeValue struct{ p *mapSize }

// String is the size, WxH, or "" for none.
func (v *mapSizeValue) String() string {
	if v.p == nil || *v.p == (mapSize{}) {
		return ""
	}
	return fmt.Sprintf("%dx%d", v.p.w, v.p.h)
}

// Set reads a size, WxH, each side grid.MinGenSide to grid.MaxMapSide.
func (v *mapSizeValue) Set(s string) error {
	ws, hs, ok := strings.Cut(strings.ToLower(s), "x")
	w, werr := strconv.Atoi(ws)
	h, herr := strconv.Atoi(hs)
	if !ok || werr != nil || herr != nil {
		return fmt.Errorf("not a size WIDTHxHEIGHT, e.g. 200x200")
	}
	if w < grid.MinGenSide || h < grid.MinGenSide || w > grid.MaxMapSide || h > grid.MaxMapSide {
		return fmt.Errorf("out of range (each side %d to %d)", grid.MinGenSide, grid.MaxMapSide)
	}
	*v.p = mapSize{w, h}
	return nil
}
