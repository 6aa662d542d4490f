package link

import (
	"embed"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
	"time"
)

// bundled are the traces gridlag carries, each built from published
// figures that its header cites: traces/NAME.trace.
//
//go:embed traces/*.trace
var bundled embed.FS

// BundledTraces returns the names of the traces gridlag carries, sorted.
func BundledTraces() []string {
	entries, _ := bundled.ReadDir("traces")
	var names []string
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".trace"); ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names
}

// BundledTrace returns the bundled trace called name, parsed, or an
// error that lists the names there are.
func BundledTrace(name string) (*Trace, error) {
	data, err := bundled.ReadFile(path.Join("traces", name+".trace"))
	if err != nil || strings.ContainsAny(name, "/.") {
		return nil, fmt.Errorf("no bundled trace named %q (there are %s)", name, strings.Join(BundledTraces(), ", "))
	}
	tr, err := ParseTrace(data)
	if err != nil {
		return nil, fmt.Errorf("bundled trace %s: %w", name, err)
	}
	return tr, nil
}

// LoadTrace returns the trace arg names: a bundled trace's name (see
// BundledTraces), else the path of a trace file, opened with open and
// read up to MaxTraceBytes. An error says which, and where a file is
// wrong, the line, never quoting a file that is not a trace.
func LoadTrace(arg string, open func(string) (io.ReadCloser, error)) (*Trace, error) {
	if slices.Contains(BundledTraces(), arg) {
		return BundledTrace(arg)
	}
	if arg == "" {
		return nil, fmt.Errorf("no trace named: give a bundled trace (%s) or a trace file", strings.Join(BundledTraces(), ", "))
	}
	f, err := open(arg)
	if err != nil {
		if !strings.ContainsAny(arg, "/.") {
			return nil, fmt.Errorf("%v (and no bundled trace is called %q: there are %s)", err, arg, strings.Join(BundledTraces(), ", "))
		}
		return nil, err
	}
	defer f.Close()
	tr, err := ReadTrace(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", arg, err)
	}
	return tr, nil
}

// LoadTraceAt is LoadTrace for an argument that may say where to start
// in the trace: "NAME@TIME" (lte-handover@14.9s) starts TIME into it, a
// time before the trace's length unless it repeats; without @, at its
// start.
func LoadTraceAt(arg string, open func(string) (io.ReadCloser, error)) (tr *Trace, at time.Duration, err error) {
	name := arg
	if i := strings.LastIndexByte(arg, '@'); i >= 0 {
		d, err := traceDuration(arg[i+1:])
		if err != nil {
			return nil, 0, fmt.Errorf("after @, the time into the trace: %w", err)
		}
		name, at = arg[:i], d
	}
	if tr, err = LoadTrace(name, open); err != nil {
		return nil, 0, err
	}
	if at >= tr.Length && !tr.Repeat {
		return nil, 0, fmt.Errorf("@%v is not before the trace's length, %v", at, tr.Length)
	}
	return tr, at, nil
}
