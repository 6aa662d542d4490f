package main

import (
	"errors"
	"strconv"
	"strings"

	"gridlag/internal/link"
)

// lossValue is a loss flag: the probability, 0 to 1, that a message is
// lost and retransmitted as TCP does. It also takes a percentage, "2%".
type lossValue struct{ p *float64 }

// String is the probability.
func (v *lossValue) String() string {
	if v.p == nil {
		return ""
	}
	return strconv.FormatFloat(*v.p, 'g', -1, 64)
}

// Set reads a probability from 0 to 1, or a percentage from 0% to 100%.
func (v *lossValue) Set(s string) error {
	t, scale := strings.TrimSpace(s), 1.0
	if pct, ok := strings.CutSuffix(t, "%"); ok {
		t, scale = pct, 100
	}
	p, err := strconv.ParseFloat(t, 64)
	switch {
	case err != nil:
		return errors.New("not a probability, e.g. 0.02 or 2%")
	case p < 0 || p/scale > 1:
		return errors.New("out of range (0 to 1, or 0% to 100%)")
	}
	*v.p = p / scale
	return nil
}

// loss defines a loss flag.
func (fs *flagSet) loss(p *float64, name, usage string) {
	fs.value(&lossValue{p}, name, usage+" (a `probability` from 0 to 1, or a percentage; lost messages are retransmitted after "+link.MinRTO.String()+" or more, and hold up what follows)")
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
