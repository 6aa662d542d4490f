// Package cli is gridlag's command line kit: a flag set whose values
// check themselves as they are set (durations and whole numbers within a
// range, sizes, probabilities), so that every command and every package
// that registers flags refuses a bad value the same way, naming the flag,
// the value and what is allowed; checks between flags run after the
// parse; flags come in groups, for -help and the flag reference.
//
// It imports no other package of gridlag, and neither the network, the
// operating system nor the clock: the game's cores register their flags
// with it.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"
)

// FlagSet is a command's flags, registered by the packages it runs (each
// package's RegisterFlags beside its defaults) and by the command.
type FlagSet struct {
	*flag.FlagSet
	bad    error          // the first value a flag refused
	checks []func() error // checks between flags, after the parse
	group  string         // the group of the flags registered now
	groups []string       // the groups, in the order they began
	of     map[string]string
	line   []string // what Parse was given
}

// New returns the flags of the command name ("gridlag serve").
func New(name string) *FlagSet {
	fs := &FlagSet{FlagSet: flag.NewFlagSet(name, flag.ContinueOnError), of: map[string]string{}}
	// The flag package prints its errors and the whole usage; Parse
	// returns a UsageError instead, which the command prints on one line.
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// UsageError is a mistake on the command line: a flag's value, an
// argument the command does not take, flags that do not go together. A
// command prints it on one line with a pointer to Cmd's -help, and exits
// with status 2.
type UsageError struct {
	Cmd string // the command whose -help lists the flags: "gridlag serve"
	Err error
}

// Error is the mistake, without the pointer to -help.
func (e *UsageError) Error() string { return e.Err.Error() }

// Unwrap returns the mistake.
func (e *UsageError) Unwrap() error { return e.Err }

// Errorf is a usage error of this command, formatted.
func (fs *FlagSet) Errorf(format string, a ...any) error {
	return &UsageError{Cmd: fs.Name(), Err: fmt.Errorf(format, a...)}
}

// Group makes the flags registered from now on part of the group title
// ("the server", "SSH players"): -help and the reference list them under
// it.
func (fs *FlagSet) Group(title string) {
	fs.group = title
}

// Groups returns the groups, in the order they began ("" for flags
// registered before the first).
func (fs *FlagSet) Groups() []string { return fs.groups }

// GroupOf returns the group of the flag name.
func (fs *FlagSet) GroupOf(name string) string { return fs.of[name] }

// Check adds a check between flags, run after the parse in the order
// added: its error is a usage error of the command ("-pprof serves the
// profiler on the -metrics address: give -metrics ADDR").
func (fs *FlagSet) Check(check func() error) {
	fs.checks = append(fs.checks, check)
}

// Var defines a flag whose value is v, in the current group.
func (fs *FlagSet) Var(v flag.Value, name, usage string) {
	fs.FlagSet.Var(v, name, usage)
	if _, ok := fs.of[name]; !ok && !containsGroup(fs.groups, fs.group) {
		fs.groups = append(fs.groups, fs.group)
	}
	fs.of[name] = fs.group
}

func containsGroup(groups []string, g string) bool {
	for _, x := range groups {
		if x == g {
			return true
		}
	}
	return false
}

// StringVar defines a string flag in the current group.
func (fs *FlagSet) StringVar(p *string, name, value, usage string) {
	*p = value
	fs.Var((*stringValue)(p), name, usage)
}

// BoolVar defines a boolean flag in the current group.
func (fs *FlagSet) BoolVar(p *bool, name string, value bool, usage string) {
	*p = value
	fs.Var((*boolValue)(p), name, usage)
}

// Checked defines a flag whose v checks what it is set to; a refusal is
// kept for Parse, with the flag's name and the value as given.
func (fs *FlagSet) Checked(v flag.Value, name, usage string) {
	fs.Var(&refusing{Value: v, name: name, fs: fs}, name, usage)
}

// Duration defines a duration flag within r.
func (fs *FlagSet) Duration(p *time.Duration, name string, def time.Duration, r DurationRange, usage string) {
	*p = def
	fs.Checked(&durationValue{p: p, r: r}, name, fmt.Sprintf("%s (a `duration`, %s)", usage, r))
}

// Int defines a whole-number flag within r.
func (fs *FlagSet) Int(p *int, name string, def int, r IntRange, usage string) {
	*p = def
	fs.Checked(&intValue[int]{p: p, r: r}, name, fmt.Sprintf("%s (a `number`, %s)", usage, r))
}

// Seed defines a flag for a seed, any 64-bit number.
func (fs *FlagSet) Seed(p *int64, name string, def int64, usage string) {
	*p = def
	fs.Checked(&intValue[int64]{p: p, r: SeedRange}, name, usage+" (a `number`)")
}

// Size defines a size flag within r, in bytes (64MiB, 500KB, 1048576).
func (fs *FlagSet) Size(p *int64, name string, def int64, r SizeRange, usage string) {
	*p = def
	fs.Checked(&sizeValue{p: p, r: r}, name, fmt.Sprintf("%s (a `size`, %v)", usage, r))
}

// Probability defines a flag of a probability, 0 to 1 or 0% to 100%
// (usage says of what, and the unit's name is `probability`).
func (fs *FlagSet) Probability(p *float64, name, usage string) {
	fs.Checked(&probabilityValue{p}, name, usage)
}

// Given reports whether the flag name was given on the command line.
func (fs *FlagSet) Given(name string) bool {
	found := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == name {
			found = true
		}
	})
	return found
}

// Parse parses args, flags before or after the arguments, and returns the
// arguments; "--" ends the flags. -help (or -h) returns flag.ErrHelp; a
// bad flag, a value refused or a check that fails is a UsageError.
func (fs *FlagSet) Parse(args []string) ([]string, error) {
	fs.line = args
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if a == "" || a[0] != '-' || a == "-" {
			pos = append(pos, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") {
			continue
		}
		if f := fs.Lookup(name); f != nil && i+1 < len(args) && !isBool(f) {
			i++
			flags = append(flags, args[i]) // the flag's value
		}
	}
	err := fs.FlagSet.Parse(flags)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return nil, err
	case fs.bad != nil:
		return nil, &UsageError{Cmd: fs.Name(), Err: fs.bad}
	case err != nil:
		return nil, &UsageError{Cmd: fs.Name(), Err: err}
	}
	for _, check := range fs.checks {
		if err := check(); err != nil {
			return nil, &UsageError{Cmd: fs.Name(), Err: err}
		}
	}
	return pos, nil
}

// Line is the command line Parse was given, flags and arguments.
func (fs *FlagSet) Line() []string { return fs.line }

// isBool reports whether f is a boolean flag, which takes no value after
// it.
func isBool(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// Undefined returns the flag that err, a UsageError of Parse, says is not
// defined ("rate" for "flag provided but not defined: -rate"), or "".
func Undefined(err error) string {
	var ue *UsageError
	if !errors.As(err, &ue) {
		return ""
	}
	name, ok := strings.CutPrefix(ue.Err.Error(), "flag provided but not defined: ")
	if !ok {
		return ""
	}
	return strings.TrimLeft(name, "-")
}

// refusing is a flag's value that records the first refusal in its
// FlagSet, with the flag's name and the value as given.
type refusing struct {
	flag.Value
	name string
	fs   *FlagSet
}

// Set sets the value, or records why not: parsing stops at the first
// refusal.
func (r *refusing) Set(s string) error {
	err := r.Value.Set(s)
	if err != nil && r.fs.bad == nil {
		r.fs.bad = fmt.Errorf("-%s %s: %w", r.name, s, err)
	}
	return err
}

// String is the value, also for a zero refusing.
func (r *refusing) String() string {
	if r == nil || r.Value == nil {
		return ""
	}
	return r.Value.String()
}
