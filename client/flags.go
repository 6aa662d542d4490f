package client

import (
	"fmt"
	"io"
	"strings"
	"time"

	"gridlag/internal/cli"
	"gridlag/internal/link"
)

// The kinds of a link's flags: the latency slider's range.
var (
	// LatencyRange: -latency, -latency2: an injected round trip.
	LatencyRange = cli.DurationRange{Max: link.MaxRTT}
	// JitterRange: -jitter, at most the slider's range too.
	JitterRange = cli.DurationRange{Max: link.MaxRTT}
)

// RegisterFlags registers the player's flags: -name (its default the
// Name given now), and the injected link, -latency, -jitter and -loss.
func (o *Options) RegisterFlags(fs *cli.FlagSet) {
	fs.StringVar(&o.Name, "name", o.Name, "your player `NAME` (1-16 printable characters)")
	fs.Duration(&o.Latency, "latency", 0, LatencyRange, "injected round-trip latency, half each way (the slider changes it live)")
	fs.Duration(&o.Jitter, "jitter", 0, JitterRange, "injected jitter: 0..J extra per message, never reordering")
	LossFlag(fs, &o.Loss, "loss", "injected loss of your client's messages, either way")
}

// LossFlag registers a link's loss flag: the probability that a message
// is lost and retransmitted as TCP does (Options.Loss).
func LossFlag(fs *cli.FlagSet, p *float64, name, usage string) {
	fs.Probability(p, name, usage+" (a `probability` from 0 to 1, or a percentage; lost messages are retransmitted after "+link.MinRTO.String()+" or more, and hold up what follows)")
}

// OpenFunc opens a file by its path: os.Open, given by the command or
// adapter that registers a flag which reads one (a core opens no file).
type OpenFunc func(path string) (io.ReadCloser, error)

// TraceFlag registers the flag name, a network that changes over time
// for whose link (docs/traces.md): a bundled trace's name or a trace
// file's path, opened with open, loaded and checked as the flag is set,
// so that a bad file is refused as the flags are. at, if not nil, takes
// NAME@TIME, the time into the trace the link starts at. A link follows
// one trace: the flag is refused a second time.
func TraceFlag(fs *cli.FlagSet, p **link.Trace, at *time.Duration, name, whose string, open OpenFunc) {
	usage := whose + ": a network that changes over time, the trace `NAME`: a bundled one (" +
		strings.Join(link.BundledTraces(), ", ") + ") or a trace file's path (docs/traces.md); it sets the link's delay, jitter and loss"
	if at != nil {
		usage += "; NAME@TIME starts TIME into it, e.g. lte-handover@14.9s"
	}
	fs.Checked(&traceValue{p: p, at: at, open: open}, name, usage)
}

// traceValue is a TraceFlag: the trace it names, loaded.
type traceValue struct {
	p    **link.Trace
	at   *time.Duration // where the trace starts, NAME@TIME; nil: at its start alone
	open OpenFunc
	arg  string
}

// String is what the flag was given.
func (v *traceValue) String() string { return v.arg }

// Set loads the trace s names: a bundled trace, else a file.
func (v *traceValue) Set(s string) error {
	if v.arg != "" {
		return fmt.Errorf("a second trace (after %s): a link follows one", v.arg)
	}
	var tr *link.Trace
	var at time.Duration
	var err error
	if v.at == nil {
		tr, err = link.LoadTrace(s, v.open)
	} else {
		tr, at, err = link.LoadTraceAt(s, v.open)
	}
	if err != nil {
		return err
	}
	*v.p, v.arg = tr, s
	if v.at != nil {
		*v.at = at
	}
	return nil
}
