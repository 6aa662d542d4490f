package main

import (
	"fmt"
	"os"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/internal/cli"
	"gridlag/lab/record"
	"gridlag/tui"
)

// recordFlags are -record FILE and -record-max SIZE (record.File),
// shared by scenario, lab and play, and -cast FILE where a command draws
// a screen.
type recordFlags struct {
	record.File
	cast string
}

// define adds -record and -record-max (and -cast if cast) to fs; what
// says what is recorded.
func (r *recordFlags) define(fs *cli.FlagSet, what string, cast bool) {
	r.RegisterFlags(fs, what)
	if cast {
		fs.StringVar(&r.cast, "cast", "", "record the screen into `FILE`, an asciicast v2 that asciinema plays (bounded by -record-max too)")
	}
}

// defineCast adds -cast, recording what the screen shows, and -record-max
// bounding it, where nothing else is recorded.
func (r *recordFlags) defineCast(fs *cli.FlagSet, what string) {
	fs.StringVar(&r.cast, "cast", "", "record "+what+" into `FILE`, an asciicast v2 that asciinema plays")
	fs.Size(&r.Max, "record-max", record.DefaultMax, record.SizeRange, "the largest -cast file")
}

// version is the build's version, as a recording's header keeps it.
func recordVersion() string {
	b := readBuild()
	if b.stamp != "" {
		return b.version + " " + b.stamp
	}
	return b.version
}

// sayFull says, on standard error, that a recording reached its bound.
func sayFull(path string, max int64, at time.Duration) {
	fmt.Fprintf(os.Stderr, "gridlag: the recording %s stopped at its size limit (-record-max %s) at t=%.3fs; what came before replays\n", path, cli.ShowSize(max), at.Seconds())
}

// sayRecorded says, on standard error, where a recording is and how to
// replay it.
func sayRecorded(path string, size int64, end time.Duration) {
	fmt.Fprintf(os.Stderr, "gridlag: recorded %.1fs into %s (%s); replay it with: gridlag replay %s\n", end.Seconds(), path, cli.ShowSize(size), path)
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
	c := tui.NewCast(screen, f, title, time.Now, r.Max)
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
