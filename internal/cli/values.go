package cli

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// stringValue is a string flag.
type stringValue string

func (v *stringValue) String() string {
	if v == nil {
		return ""
	}
	return string(*v)
}

func (v *stringValue) Set(s string) error { *v = stringValue(s); return nil }

// boolValue is a boolean flag, -x or -x=false.
type boolValue bool

func (v *boolValue) String() string {
	if v == nil {
		return "false"
	}
	return strconv.FormatBool(bool(*v))
}

func (v *boolValue) Set(s string) error {
	b, err := strconv.ParseBool(s)
	if err != nil {
		return errors.New("parse error")
	}
	*v = boolValue(b)
	return nil
}

// IsBoolFlag says that the flag takes no value after it.
func (v *boolValue) IsBoolFlag() bool { return true }

// durationValue is a duration flag of a kind.
type durationValue struct {
	p *time.Duration
	r DurationRange
}

// String is the duration, as Go writes it.
func (v *durationValue) String() string {
	if v.p == nil {
		return ""
	}
	return v.p.String()
}

// Set reads a duration and refuses it if it is not of the flag's kind.
func (v *durationValue) Set(s string) error {
	d, err := v.r.parse(s)
	if err != nil {
		return err
	}
	if err := v.r.Check(d); err != nil {
		return err
	}
	*v.p = d
	return nil
}

// intValue is a whole-number flag of a kind.
type intValue[T int | int64] struct {
	p *T
	r IntRange
}

// String is the number.
func (v *intValue[T]) String() string {
	if v.p == nil {
		return ""
	}
	return strconv.FormatInt(int64(*v.p), 10)
}

// Set reads a whole number and refuses it if it is out of the flag's range.
func (v *intValue[T]) Set(s string) error {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	switch {
	case errors.Is(err, strconv.ErrRange):
		return fmt.Errorf("out of range (%v)", v.r)
	case err != nil:
		return errors.New("not a whole number")
	}
	if err := v.r.Check(n); err != nil {
		return err
	}
	*v.p = T(n)
	return nil
}

// sizeValue is a size flag: bytes, or with a unit (KB, KiB, MB, MiB, GB,
// GiB).
type sizeValue struct {
	p *int64
	r SizeRange
}

func (v *sizeValue) String() string {
	if v.p == nil {
		return ""
	}
	return ShowSize(*v.p)
}

// Set reads a size and refuses it out of range.
func (v *sizeValue) Set(s string) error {
	n, err := ParseSize(s)
	if err != nil {
		return err
	}
	if n < v.r.Lo || n > v.r.Hi {
		return fmt.Errorf("out of range (%v)", v.r)
	}
	*v.p = n
	return nil
}

// probabilityValue is a probability flag, 0 to 1; it also takes a
// percentage, "2%".
type probabilityValue struct{ p *float64 }

// String is the probability.
func (v *probabilityValue) String() string {
	if v.p == nil {
		return ""
	}
	return strconv.FormatFloat(*v.p, 'g', -1, 64)
}

func (v *probabilityValue) kind() string { return "probability" }

// Set reads a probability from 0 to 1, or a percentage from 0% to 100%.
func (v *probabilityValue) Set(s string) error {
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
