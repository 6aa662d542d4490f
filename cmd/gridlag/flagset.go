package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"time"
)

// flagSet is a mode's flags. Its values check themselves as they are set
// (see kinds.go), so that every mode refuses a bad number the same way:
// the error names the flag, the value and what is allowed.
type flagSet struct {
	*flag.FlagSet
	usage func(w io.Writer) // prints the head of the mode's -help, before its flags
	help  io.Writer         // where -help goes
	bad   error             // the first value a flag refused
}

// newFlagSet returns the flags of the mode cmd ("gridlag", "gridlag
// scenario"); -help prints usage, then the flags, to help.
func newFlagSet(cmd string, help io.Writer, usage func(w io.Writer)) *flagSet {
	fs := &flagSet{FlagSet: flag.NewFlagSet(cmd, flag.ContinueOnError), usage: usage, help: help}
	// The flag package prints its errors and the whole usage; parse
	// returns a usageError instead, which main prints on one line.
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parse parses args. -help prints the usage and returns flag.ErrHelp (exit
// 0); a bad flag or an argument left over is a usageError.
func (fs *flagSet) parse(args []string) error {
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fs.usage(fs.help)
		fs.SetOutput(fs.help)
		fs.PrintDefaults()
		return err
	case fs.bad != nil:
		return fs.usageError(fs.bad)
	case err != nil:
		return fs.usageError(err)
	case fs.NArg() > 0:
		return fs.usageError(fmt.Errorf("unexpected argument %q", fs.Arg(0)))
	}
	return nil
}

// usageError wraps err as a usage error of this mode.
func (fs *flagSet) usageError(err error) error {
	return &usageError{cmd: fs.Name(), err: err}
}

// usageErrorf is a usage error of this mode, formatted.
func (fs *flagSet) usageErrorf(format string, a ...any) error {
	return fs.usageError(fmt.Errorf(format, a...))
}

// set reports whether the flag name was given on the command line.
func (fs *flagSet) set(name string) bool {
	found := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == name {
			found = true
		}
	})
	return found
}

// value defines a flag whose v checks what it is set to; a refusal is kept
// for parse, with the flag's name and the value as given.
func (fs *flagSet) value(v flag.Value, name, usage string) {
	fs.Var(&refusing{Value: v, name: name, fs: fs}, name, usage)
}

// duration defines a duration flag of the kind r.
func (fs *flagSet) duration(p *time.Duration, name string, def time.Duration, r durationRange, usage string) {
	*p = def
	fs.value(&durationValue{p: p, r: r}, name, fmt.Sprintf("%s (a `duration`, %s)", usage, r))
}

// int defines a whole-number flag of the kind r.
func (fs *flagSet) int(p *int, name string, def int, r intRange, usage string) {
	*p = def
	fs.value(&intValue[int]{p: p, r: r}, name, fmt.Sprintf("%s (a `number`, %s)", usage, r))
}

// seed defines a flag for a seed, any 64-bit number.
func (fs *flagSet) seed(p *int64, name string, def int64, usage string) {
	*p = def
	fs.value(&intValue[int64]{p: p, r: seedKind}, name, usage+" (a `number`)")
}

// refusing is a flag's value that records the first refusal in its
// flagSet, with the flag's name and the value as given.
type refusing struct {
	flag.Value
	name string
	fs   *flagSet
}

// Set sets the value, or records why not: parsing stops at the first
// refusal.
func (r *refusing) Set(s string) error {
	err := r.Value.Set(s)
	if err != nil {
		r.fs.bad = fmt.Errorf("-%s %s: %w", r.name, s, err)
	}
	return err
}

// String is the value, also for the zero refusing that flag.PrintDefaults
// makes to tell whether a default is worth showing.
func (r *refusing) String() string {
	if r == nil || r.Value == nil {
		return ""
	}
	return r.Value.String()
}
