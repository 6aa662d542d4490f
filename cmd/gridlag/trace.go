package main

import (
	"io"
	"os"
	"strings"

	"gridlag/internal/link"
)

// The -trace flags (issue 35): a network that changes over time, by a
// bundled trace's name or a trace file's path (docs/traces.md). Each
// subcommand defines its own with traceFlag, one line each.

// traceValue is a -trace flag: the trace it names, loaded and parsed
// when the flag is set, so that a bad file is refused as the flags are.
type traceValue struct {
	p   **link.Trace
	arg string
}

// String is what the flag was given.
func (v *traceValue) String() string { return v.arg }

// Set loads the trace s names: a bundled trace, else a file.
func (v *traceValue) Set(s string) error {
	tr, err := link.LoadTrace(s, openTrace)
	if err != nil {
		return err
	}
	*v.p, v.arg = tr, s
	return nil
}

// openTrace opens a trace file.
func openTrace(path string) (io.ReadCloser, error) { return os.Open(path) }

// traceFlag defines a -trace flag of fs called name, for whose link.
func traceFlag(fs *flagSet, p **link.Trace, name, whose string) {
	fs.value(&traceValue{p: p}, name, whose+": a network that changes over time, a `trace`: a bundled one ("+
		strings.Join(link.BundledTraces(), ", ")+") or a trace file (docs/traces.md); it sets the link's delay, jitter and loss")
}
