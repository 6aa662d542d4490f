package client

import (
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
