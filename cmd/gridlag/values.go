package main

import (
	"errors"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"gridlag/grid"
	"gridlag/scenario"
	"gridlag/server"
)

// durationValue is a duration flag of a kind.
type durationValue struct {
	p *time.Duration
	r durationRange
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
	if err := v.r.check(d); err != nil {
		return err
	}
	*v.p = d
	return nil
}

// intValue is a whole-number flag of a kind.
type intValue[T int | int64] struct {
	p *T
	r intRange
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
	if err := v.r.check(n); err != nil {
		return err
	}
	*v.p = T(n)
	return nil
}

// posValue is a cell flag, x,y.
type posValue struct{ p *grid.Pos }

// String is the cell, x,y.
func (v *posValue) String() string {
	if v.p == nil {
		return ""
	}
	return fmt.Sprintf("%d,%d", v.p.X, v.p.Y)
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

// prefixesValue is a list of IP addresses and networks, comma-separated
// (-bot-addrs 127.0.0.1,10.0.0.0/8); an address alone is a network of
// one.
type prefixesValue struct{ p *[]netip.Prefix }

// String is the list as given, networks in CIDR form.
func (v *prefixesValue) String() string {
	if v.p == nil {
		return ""
	}
	var s []string
	for _, p := range *v.p {
		s = append(s, p.String())
	}
	return strings.Join(s, ",")
}

// Set reads the list, refusing anything that is not an address or a
// network.
func (v *prefixesValue) Set(s string) error {
	var list []netip.Prefix
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if p, err := netip.ParsePrefix(f); err == nil {
			list = append(list, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return fmt.Errorf("%q is not an IP address or network (127.0.0.1, 10.0.0.0/8)", f)
		}
		list = append(list, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	*v.p = list
	return nil
}

// memorySize: -memory-limit's sizes.
var memorySize = sizeRange{lo: 64 << 20, hi: 1 << 40}

// memLimitValue is -memory-limit: auto, off, or a size.
type memLimitValue struct{ p *server.MemoryLimit }

func (v *memLimitValue) String() string {
	switch {
	case v.p == nil || v.p.Auto:
		return "auto"
	case v.p.Off:
		return "off"
	}
	return showSize(v.p.Bytes)
}

// Set reads auto, off or a size of memorySize's range.
func (v *memLimitValue) Set(s string) error {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "auto":
		*v.p = server.MemoryLimit{Auto: true}
		return nil
	case "off":
		*v.p = server.MemoryLimit{Off: true}
		return nil
	}
	n := int64(0)
	if err := (&sizeValue{p: &n, r: memorySize}).Set(s); err != nil {
		return fmt.Errorf("%v: auto, off or a size", err)
	}
	*v.p = server.MemoryLimit{Bytes: n}
	return nil
}
