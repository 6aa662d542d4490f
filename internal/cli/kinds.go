package cli

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// The kinds of number every command shares. A package keeps its own
// kinds beside its defaults (world.RateRange, client.LatencyRange).
var (
	// Length: how long something runs or waits, -until, -duration,
	// -summary; 0 says "auto", "until interrupted" or "off".
	Length = DurationRange{}
	// Timeout: -ssh-idle, -ssh-handshake, -agones-timeout: at least a
	// second.
	Timeout = DurationRange{Min: time.Second}
	// SeedRange: -seed, any 64-bit number.
	SeedRange = IntRange{Lo: math.MinInt64, Hi: math.MaxInt64}
	// Sessions: -max-players, -ssh-max, -web-per-addr...: players and
	// sessions at once, each a player, whose ID is 16 bits on the wire.
	Sessions = IntRange{Lo: 1, Hi: math.MaxUint16}
)

// DurationRange is a kind of duration flag: from Min to Max (no upper
// bound if Max is 0), a whole number of Unit if Unit is not 0.
type DurationRange struct {
	Min, Max, Unit time.Duration
}

// String is the range, as errors and -help show it.
func (r DurationRange) String() string {
	switch {
	case r.Max > 0:
		return fmt.Sprintf("%s to %s", ShowDuration(r.Min), ShowDuration(r.Max))
	case r.Min > 0:
		return fmt.Sprintf("at least %s", ShowDuration(r.Min))
	}
	return "0 or more"
}

// ShowDuration writes d as Go does, but 0 as "0" and without the zero
// minutes and seconds Go writes after hours ("100h", not "100h0m0s";
// "25m", not "25m0s"): as a person writes it, and as a flag takes it.
func ShowDuration(d time.Duration) string {
	if d == 0 {
		return "0"
	}
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// Check refuses d if it is not of the kind.
func (r DurationRange) Check(d time.Duration) error {
	switch {
	case d < r.Min || (r.Max > 0 && d > r.Max):
		return fmt.Errorf("out of range (%v)", r)
	case r.Unit > 0 && d%r.Unit != 0:
		return fmt.Errorf("not a whole number of %v", r.Unit)
	}
	return nil
}

// parse reads a Go duration. A number without a unit is refused with a
// hint: the number in milliseconds, or in seconds if that is too short.
func (r DurationRange) parse(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err == nil {
		return d, nil
	}
	n, nerr := strconv.ParseFloat(s, 64)
	if nerr != nil {
		return 0, errors.New("not a duration, e.g. 250ms or 1.5s")
	}
	unit := "ms"
	if time.Duration(n*float64(time.Millisecond)) < r.Min {
		unit = "s"
	}
	return 0, fmt.Errorf("a duration needs a unit, e.g. %s%s", s, unit)
}

// IntRange is a kind of whole-number flag: Lo to Hi.
type IntRange struct{ Lo, Hi int64 }

// String is the range, as errors and -help show it.
func (r IntRange) String() string { return fmt.Sprintf("%d to %d", r.Lo, r.Hi) }

// Check refuses n if it is out of the range.
func (r IntRange) Check(n int64) error {
	if n < r.Lo || n > r.Hi {
		return fmt.Errorf("out of range (%v)", r)
	}
	return nil
}

// SizeRange is a kind of size flag, in bytes.
type SizeRange struct{ Lo, Hi int64 }

// String is the range, as errors and -help show it.
func (r SizeRange) String() string { return ShowSize(r.Lo) + " to " + ShowSize(r.Hi) }

// sizeUnits are the units a size takes, longest first.
var sizeUnits = []struct {
	name string
	n    int64
}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"B", 1}}

// ParseSize reads "64MiB", "8MB", "1048576".
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	unit := int64(1)
	for _, u := range sizeUnits {
		if strings.HasSuffix(t, u.name) {
			t, unit = strings.TrimSpace(strings.TrimSuffix(t, u.name)), u.n
			break
		}
	}
	n, err := strconv.ParseFloat(t, 64)
	if err != nil || n < 0 {
		return 0, errors.New("not a size, e.g. 64MiB, 500KB or 1048576")
	}
	return int64(n * float64(unit)), nil
}

// ShowSize writes a size with a binary unit when it is a whole one.
func ShowSize(n int64) string {
	for _, u := range []struct {
		name string
		n    int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.n && n%u.n == 0 {
			return strconv.FormatInt(n/u.n, 10) + u.name
		}
	}
	return strconv.FormatInt(n, 10) + "B"
}

// Thousands writes n with a comma between groups of three digits, as
// gridlag's sentences write a count or a time: "3,412", "-1,250".
func Thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	digits := strings.TrimPrefix(s, "-")
	for i := len(digits) - 3; i > 0; i -= 3 {
		digits = digits[:i] + "," + digits[i:]
	}
	if n < 0 {
		return "-" + digits
	}
	return digits
}
