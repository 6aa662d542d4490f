package main

import (
	"fmt"
	"strconv"
	"strings"

	"gridlag/grid"
	"gridlag/internal/link"
	"gridlag/lab/scenario"
	"gridlag/ops/scale"
)

// posValue is a cell flag, x,y.
type posValue struct{ p *grid.Pos }

// String is the cell, x,y.
func (v *posValue) String() string {
	if v.p == nil {
		return ""
	}
	return strconv.Itoa(v.p.X) + "," + strconv.Itoa(v.p.Y)
}

// Set reads a cell, x,y.
func (v *posValue) Set(s string) error {
	p, err := scenario.ParsePos(s)
	if err != nil {
		return err
	}
	*v.p = p
	return nil
}

// pressesValue is a flag listing key presses, DIRECTION@TIME,...
type pressesValue struct {
	p    *[]scenario.Press
	text string
}

// String is the list as it was given.
func (v *pressesValue) String() string { return v.text }

// Set reads a list of presses.
func (v *pressesValue) Set(s string) error {
	presses, err := scenario.ParsePresses(s)
	if err != nil {
		return err
	}
	*v.p, v.text = presses, s
	return nil
}

// presetValue is a link preset flag: one of link.Presets' names.
type presetValue struct{ p *string }

// String is the preset's name.
func (v *presetValue) String() string {
	if v.p == nil {
		return ""
	}
	return *v.p
}

// Set takes a preset's name.
func (v *presetValue) Set(s string) error {
	if _, err := link.PresetNamed(s); err != nil {
		return err
	}
	*v.p = s
	return nil
}

// presetNames lists the presets' names, for -help.
func presetNames() string {
	var names []string
	for _, p := range link.Presets() {
		names = append(names, p.Name)
	}
	return strings.Join(names, ", ")
}

// stepsValue is a list of rising numbers of bots, N,N,...
type stepsValue struct{ p *[]int }

// String is the list, N,N,...
func (v *stepsValue) String() string {
	if v.p == nil {
		return ""
	}
	var s []string
	for _, n := range *v.p {
		s = append(s, strconv.Itoa(n))
	}
	return strings.Join(s, ",")
}

// Set reads a list of rising numbers of bots.
func (v *stepsValue) Set(s string) error {
	var steps []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return fmt.Errorf("%q is not a number of bots", f)
		}
		steps = append(steps, n)
	}
	if err := scale.CheckSteps(steps); err != nil {
		return err
	}
	*v.p = steps
	return nil
}
