package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/lab/record"
	"gridlag/tui"
)

// recordFlags are -record FILE and -record-max SIZE, shared by scenario,
// lab and the game, and -cast FILE where a mode draws a screen.
type recordFlags struct {
	path string
	max  int64
	cast string
}

// define adds -record and -record-max (and -cast if cast) to fs; what
// says what is recorded.
func (r *recordFlags) define(fs *flagSet, what string, cast bool) {
	fs.StringVar(&r.path, "record", "", "record "+what+" into `FILE`, for gridlag replay")
	r.max = record.DefaultMax
	fs.value(&sizeValue{p: &r.max, r: recordSize}, "record-max", fmt.Sprintf("the largest recording (a `size`, %v): recording stops there, saying so, and what was recorded replays", recordSize))
	if cast {
		fs.StringVar(&r.cast, "cast", "", "record the screen into `FILE`, an asciicast v2 that asciinema plays (bounded by -record-max too)")
	}
}

// version is the build's version, as a recording's header keeps it.
func recordVersion() string {
	b := readBuild()
	if b.stamp != "" {
		return b.version + " " + b.stamp
	}
	return b.version
}

// stopped says, on standard error, that a recording reached its bound.
func sayFull(path string, max int64, at time.Duration) {
	fmt.Fprintf(os.Stderr, "gridlag: the recording %s stopped at its size limit (-record-max %s) at t=%.3fs; what came before replays\n", path, showSize(max), at.Seconds())
}

// sayRecorded says, on standard error, where a recording is and how to
// replay it.
func sayRecorded(path string, size int64, end time.Duration) {
	fmt.Fprintf(os.Stderr, "gridlag: recorded %.1fs into %s (%s); replay it with: gridlag replay %s\n", end.Seconds(), path, showSize(size), path)
}

// castScreen wraps screen to record it into the -cast file, if any; done
// closes the file and says if it stopped early.
func (r *recordFlags) castScreen(screen tcell.Screen, title string) (tcell.Screen, func(), error) {
	if r.cast == "" {
		return screen, func() {}, nil
	}
	f, err := os.OpenFile(r.cast, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("-cast: %w", err)
	}
	c := tui.NewCast(screen, f, title, time.Now, r.max)
	return c, func() {
		err := c.Close()
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		switch {
		case err != nil:
			fmt.Fprintf(os.Stderr, "gridlag: -cast %s: %v\n", r.cast, err)
		case c.Err() != nil:
			fmt.Fprintf(os.Stderr, "gridlag: -cast %s: %v; what came before plays\n", r.cast, c.Err())
		default:
			fmt.Fprintf(os.Stderr, "gridlag: the screen is in %s; play it with: asciinema play %s\n", r.cast, r.cast)
		}
	}, nil
}

// sizeRange is a kind of size flag, in bytes.
type sizeRange struct{ lo, hi int64 }

// recordSize: -record-max, -max-size.
var recordSize = sizeRange{lo: 4 << 10, hi: 4 << 30}

func (r sizeRange) String() string { return showSize(r.lo) + " to " + showSize(r.hi) }

// sizeValue is a size flag: bytes, or with a unit (KB, KiB, MB, MiB, GB,
// GiB).
type sizeValue struct {
	p *int64
	r sizeRange
}

func (v *sizeValue) String() string {
	if v.p == nil {
		return ""
	}
	return showSize(*v.p)
}

// Set reads a size and refuses it out of range.
func (v *sizeValue) Set(s string) error {
	n, err := parseSize(s)
	if err != nil {
		return err
	}
	if n < v.r.lo || n > v.r.hi {
		return fmt.Errorf("out of range (%v)", v.r)
	}
	*v.p = n
	return nil
}

// sizeUnits are the units a size takes, longest first.
var sizeUnits = []struct {
	name string
	n    int64
}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"B", 1}}

// parseSize reads "64MiB", "8MB", "1048576".
func parseSize(s string) (int64, error) {
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

// showSize writes a size with a binary unit when it is a whole one.
func showSize(n int64) string {
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
