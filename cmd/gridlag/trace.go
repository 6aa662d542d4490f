package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"gridlag/internal/link"
	"gridlag/protocol"
)

// The -trace flags (issue 35): a network that changes over time, by a
// bundled trace's name or a trace file's path (docs/traces.md). Each
// subcommand defines its own with traceFlag, one line each.

// traceValue is a -trace flag: the trace it names, loaded and parsed
// when the flag is set, so that a bad file is refused as the flags are.
type traceValue struct {
	p   **link.Trace
	at  *time.Duration // where the trace starts, NAME@TIME; nil: at its start alone
	arg string
}

// String is what the flag was given.
func (v *traceValue) String() string { return v.arg }

// Set loads the trace s names: a bundled trace, else a file.
func (v *traceValue) Set(s string) error {
	if v.at == nil {
		tr, err := link.LoadTrace(s, openTrace)
		if err != nil {
			return err
		}
		*v.p, v.arg = tr, s
		return nil
	}
	tr, at, err := link.LoadTraceAt(s, openTrace)
	if err != nil {
		return err
	}
	*v.p, *v.at, v.arg = tr, at, s
	return nil
}

// openTrace opens a trace file.
func openTrace(path string) (io.ReadCloser, error) { return os.Open(path) }

// traceFlag defines a -trace flag of fs called name, for whose link; at,
// if not nil, takes NAME@TIME, the time into the trace the link starts
// at.
func traceFlag(fs *flagSet, p **link.Trace, at *time.Duration, name, whose string) {
	usage := whose + ": a network that changes over time, a `trace`: a bundled one (" +
		strings.Join(link.BundledTraces(), ", ") + ") or a trace file (docs/traces.md); it sets the link's delay, jitter and loss"
	if at != nil {
		usage += "; NAME@TIME starts TIME into it, e.g. lte-handover@14.9s"
	}
	fs.value(&traceValue{p: p, at: at}, name, usage)
}

// traceList is the game's -trace flag, which may be given more than
// once: with -server, the traces offered to the teachers besides the
// bundled ones; for a player, its link's (once).
type traceList struct{ p *[]*link.Trace }

// String lists the traces' names.
func (v *traceList) String() string {
	if v.p == nil {
		return ""
	}
	var names []string
	for _, tr := range *v.p {
		names = append(names, tr.Name)
	}
	return strings.Join(names, ",")
}

// Set loads one more trace.
func (v *traceList) Set(s string) error {
	tr, err := link.LoadTrace(s, openTrace)
	if err != nil {
		return err
	}
	*v.p = append(*v.p, tr)
	return nil
}

// gameTraces defines the game's -trace.
func gameTraces(fs *flagSet, p *[]*link.Trace) {
	fs.value(&traceList{p: p}, "trace", "a network that changes over time, a `trace`: a bundled one ("+strings.Join(link.BundledTraces(), ", ")+
		") or a trace file (docs/traces.md): the player's link follows it; with -server, one more a teacher may give a room (again for more; the bundled ones are offered too)")
}

// offeredTraces are the traces a server offers its teachers: the bundled
// ones, then those of -trace, a file's replacing a bundled one of the
// same name.
func offeredTraces(own []*link.Trace) ([]*link.Trace, error) {
	var all []*link.Trace
	for _, name := range link.BundledTraces() {
		tr, err := link.BundledTrace(name)
		if err != nil {
			return nil, err
		}
		all = append(all, tr)
	}
	for _, tr := range own {
		all = slices.DeleteFunc(all, func(b *link.Trace) bool { return b.Name == tr.Name })
		all = append(all, tr)
	}
	if len(all) > protocol.MaxTraces {
		return nil, fmt.Errorf("-trace: %d traces; a teacher is offered at most %d", len(all), protocol.MaxTraces)
	}
	return all, nil
}
