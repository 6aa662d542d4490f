package main

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"gridlag/bot"
	"gridlag/grid"
	"gridlag/link"
	"gridlag/scenario"
	"gridlag/server"
)

// The kinds of number the flags take. Every mode uses these, so that a
// value is refused the same way wherever it is given.
var (
	// roundTrip: -latency, -latency2: the latency slider's range.
	roundTrip = durationRange{max: link.MaxRTT}
	// jitterRange: -jitter, at most the slider's range too.
	jitterRange = durationRange{max: link.MaxRTT}
	// moveTime: -move-time, what a Welcome frame carries.
	moveTime = durationRange{min: time.Millisecond, max: server.MaxMoveTime, unit: time.Millisecond}
	// length: -until, -duration: how long something runs; 0 says "auto"
	// or "until interrupted".
	length = durationRange{}
	// timeout: -ssh-idle, -ssh-handshake.
	timeout = durationRange{min: time.Second}

	// rate: -rate, in Hz.
	rate = intRange{lo: 0, hi: server.MaxRate}
	// botCount: -bots, 0 for none.
	botCount = intRange{lo: 0, hi: bot.MaxBots}
	// botRun: bots' -n, at least one.
	botRun = intRange{lo: 1, hi: bot.MaxBots}
	// sessionCount: -ssh-per-addr, -ssh-max: each session is a player.
	sessionCount = intRange{lo: 1, hi: server.MaxPlayersCap}
	// seed: -seed, any 64-bit number.
	seed = intRange{lo: math.MinInt64, hi: math.MaxInt64}
)

// durationRange is a kind of duration flag: from min to max (no upper
// bound if max is 0), a whole number of unit if unit is not 0.
type durationRange struct {
	min, max, unit time.Duration
}

func (r durationRange) String() string {
	switch {
	case r.max > 0:
		return fmt.Sprintf("%s to %v", showDuration(r.min), r.max)
	case r.min > 0:
		return fmt.Sprintf("at least %v", r.min)
	}
	return "0 or more"
}

// showDuration writes d as Go does, but 0 as "0".
func showDuration(d time.Duration) string {
	if d == 0 {
		return "0"
	}
	return d.String()
}

// check refuses d if it is not of the kind.
func (r durationRange) check(d time.Duration) error {
	switch {
	case d < r.min || (r.max > 0 && d > r.max):
		return fmt.Errorf("out of range (%v)", r)
	case r.unit > 0 && d%r.unit != 0:
		return fmt.Errorf("not a whole number of %v", r.unit)
	}
	return nil
}

// parse reads a Go duration. A number without a unit is refused with a
// hint: the number in milliseconds, or in seconds if that is too short.
func (r durationRange) parse(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err == nil {
		return d, nil
	}
	n, nerr := strconv.ParseFloat(s, 64)
	if nerr != nil {
		return 0, errors.New("not a duration, e.g. 250ms or 1.5s")
	}
	unit := "ms"
	if time.Duration(n*float64(time.Millisecond)) < r.min {
		unit = "s"
	}
	return 0, fmt.Errorf("a duration needs a unit, e.g. %s%s", s, unit)
}

// durationValue is a duration flag of a kind.
type durationValue struct {
	p *time.Duration
	r durationRange
}

func (v *durationValue) String() string {
	if v.p == nil {
		return ""
	}
	return v.p.String()
}

func (v *durationValue) Set(s string) error {
	d, err := v.r.parse(s)
	if err != nil {
		return err
	}
	if err := v.r.check(d); err != nil {
		return err
	}
	*v.p = d
	return nil
}

// intRange is a kind of whole-number flag: lo to hi.
type intRange struct{ lo, hi int64 }

func (r intRange) String() string { return fmt.Sprintf("%d to %d", r.lo, r.hi) }

// intValue is a whole-number flag of a kind.
type intValue[T int | int64] struct {
	p *T
	r intRange
}

func (v *intValue[T]) String() string {
	if v.p == nil {
		return ""
	}
	return strconv.FormatInt(int64(*v.p), 10)
}

func (v *intValue[T]) Set(s string) error {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	switch {
	case err != nil && errors.Is(err, strconv.ErrRange):
		return fmt.Errorf("out of range (%v)", v.r)
	case err != nil:
		return errors.New("not a whole number")
	case n < v.r.lo || n > v.r.hi:
		return fmt.Errorf("out of range (%v)", v.r)
	}
	*v.p = T(n)
	return nil
}

// posValue is a cell flag, x,y.
type posValue struct{ p *grid.Pos }

func (v *posValue) String() string {
	if v.p == nil {
		return ""
	}
	return fmt.Sprintf("%d,%d", v.p.X, v.p.Y)
}

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

func (v *pressesValue) String() string { return v.text }

func (v *pressesValue) Set(s string) error {
	presses, err := scenario.ParsePresses(s)
	if err != nil {
		return err
	}
	*v.p, v.text = presses, s
	return nil
}
