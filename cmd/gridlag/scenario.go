package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/internal/cli"
	"gridlag/internal/link"
	"gridlag/lab/record"
	"gridlag/lab/replay"
	"gridlag/lab/scenario"
	"gridlag/server/world"
)

var scenarioCommand = &command{name: "scenario", usage: "[flags]", does: "replay the articles' timelines",
	build: scenarioBuild, head: scenarioUsage}

// scenarioFlags are the flags of `gridlag scenario`, beside the
// scenario.Config they fill.
type scenarioFlags struct {
	fs       *cli.FlagSet
	out      io.Writer
	cfg      scenario.Config
	presses2 []scenario.Press
	start2   grid.Pos
	latency2 time.Duration
	asJSON   bool
	rec      recordFlags
	svg      string
	link     string
	inputs   bool
	trace2   *link.Trace
	trace2At time.Duration
}

// scenarioBuild builds the flags of gridlag scenario.
func scenarioBuild(out io.Writer) (*cli.FlagSet, func([]string) error) {
	f := &scenarioFlags{fs: cli.New("gridlag scenario"), out: out, cfg: scenario.Default()}
	fs, cfg := f.fs, &f.cfg
	fs.Duration(&cfg.Player.Latency, "latency", cfg.Player.Latency, client.LatencyRange, "injected round trip, half each way")
	fs.Duration(&cfg.Player.Jitter, "jitter", 0, client.JitterRange, "extra delay of 0..J at random per message (never reorders)")
	client.LossFlag(fs, &cfg.Player.Loss, "loss", "injected loss of the player's messages, either way (TCP retransmits after 200 ms or more)")
	fs.Seed(&cfg.Seed, "seed", cfg.Seed, "seed of the jitter and the loss")
	fs.Checked(&pressesValue{p: &cfg.Player.Presses, text: "right@0ms,right@100ms"}, "presses", "the player's key presses, `DIRECTION@TIME,...`; zap@TIME zaps where the player faces")
	fs.Checked(&posValue{&cfg.Player.Start}, "start", "the player's starting cell `x,y`")
	fs.Duration(&cfg.MoveTime, "move-time", cfg.MoveTime, world.MoveTimeRange, "speed limit: one move per this time")
	fs.Int(&cfg.Rate, "rate", 0, world.RateRange, "server update rate in Hz; 0 = the server answers each input the moment it processes it")
	fs.BoolVar(&cfg.Predict, "predict", true, "client-side prediction")
	fs.BoolVar(&cfg.Reconcile, "reconcile", true, "server reconciliation (turns prediction on)")
	fs.Checked(&pressesValue{p: &f.presses2}, "presses2", "a second player's key presses, `DIRECTION@TIME,...`; adds a second player, e.g. left@0ms")
	f.start2 = grid.Pos{X: 12, Y: 10}
	fs.Checked(&posValue{&f.start2}, "start2", "the second player's starting cell `x,y`")
	fs.Duration(&f.latency2, "latency2", 50*time.Millisecond, client.LatencyRange, "the second player's injected round trip")
	world.RegisterLagFlags(fs, &cfg.LagComp, &cfg.Unlag, &cfg.Protect, 0) // the articles' timelines zap at once
	fs.Duration(&cfg.Until, "until", 0, cli.Length, "how long the timeline runs; 0 = until every press is acknowledged")
	fs.BoolVar(&f.asJSON, "json", false, "print one JSON object per line: t_ms, event, client [x,y], server [x,y], pending [...]; an input's life as {\"input\": {...}}; the budget last")
	fs.BoolVar(&f.inputs, "inputs", false, "show each input's whole life in the timeline, where it ends (the JSON output always has them)")
	f.rec.define(fs, "the scenario (its settings, seeds and presses)", false)
	fs.StringVar(&f.svg, "svg", "", "also draw the run as a sequence diagram (SVG) into `FILE`: the players and the server, one arrow per message")
	client.TraceFlag(fs, &cfg.Player.Trace, &cfg.Player.TraceAt, "trace", "the player's link", openFile)
	client.TraceFlag(fs, &f.trace2, &f.trace2At, "trace2", "the second player's link", openFile)
	fs.StringVar(&f.link, "link", "tcp", "the players' `transport`: tcp, as the game, or datagram (simulated UDP: redundant inputs, State snapshots, nothing waits behind a loss)")
	return fs, f.run
}

// run runs the scenario and prints its timeline.
func (f *scenarioFlags) run([]string) error {
	fs, cfg, out := f.fs, f.cfg, f.out
	transport, err := replay.ParseLink(f.link)
	if err != nil {
		return fs.Errorf("-link %s: %v", f.link, err)
	}
	cfg.Link = transport
	if cfg.Reconcile && !cfg.Predict {
		if fs.Given("reconcile") {
			fmt.Fprintln(os.Stderr, "gridlag scenario: -reconcile turns prediction on")
			cfg.Predict = true
		} else {
			cfg.Reconcile = false
		}
	}
	if len(f.presses2) > 0 {
		cfg.Second = &scenario.Player{Name: "rival", Start: f.start2, Latency: f.latency2, Jitter: cfg.Player.Jitter, Loss: cfg.Player.Loss, Presses: f.presses2, Trace: f.trace2, TraceAt: f.trace2At}
	} else if f.trace2 != nil {
		return fs.Errorf("-trace2 is the second player's: give -presses2 too")
	}
	if (cfg.Player.Trace != nil || f.trace2 != nil) && f.link != "tcp" {
		return fs.Errorf("-trace runs over -link tcp: the datagram link follows no trace")
	}
	if err := checkStates(fs, cfg); err != nil {
		return err
	}
	res, err := scenario.RunFull(cfg)
	if err != nil {
		return err
	}
	if f.rec.Path != "" {
		if err := recordScenario(f.rec.File, cfg, res.End); err != nil {
			return err
		}
	}
	if f.svg != "" {
		if err := writeSVG(f.svg, res, "gridlag scenario "+strings.Join(fs.Line(), " ")); err != nil {
			return err
		}
	}
	if f.asJSON {
		if err := scenario.WriteJSON(out, res.Lines); err != nil {
			return err
		}
		return scenario.WriteBudgetJSON(out, res.Budget)
	}
	lines := res.Lines
	if !f.inputs {
		lines = slices.DeleteFunc(slices.Clone(lines), func(l scenario.Line) bool { return l.Input != nil })
	}
	if err := scenario.WriteTable(out, lines); err != nil {
		return err
	}
	if res.Budget != nil {
		fmt.Fprintln(out)
	}
	return scenario.WriteBudget(out, res.Budget)
}

// recordScenario writes the recording of cfg: its settings and its
// presses.
func recordScenario(r record.File, cfg scenario.Config, end time.Duration) error {
	h, events := replay.ScenarioHeader(cfg, recordVersion())
	w, err := record.Create(r.Path, h, r.Max)
	if err != nil {
		return fmt.Errorf("-record: %w", err)
	}
	var last time.Duration
	for _, e := range events {
		if err := w.Write(e); err == record.ErrFull {
			sayFull(r.Path, r.Max, e.At)
			break
		} else if err != nil {
			w.Close(last)
			return fmt.Errorf("-record: %w", err)
		}
		last = e.At
	}
	if !w.Full() {
		last = end
	}
	if err := w.Close(last); err != nil {
		return fmt.Errorf("-record: %w", err)
	}
	return nil
}

// writeSVG writes the sequence diagram of res into path.
func writeSVG(path string, res *scenario.Result, title string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("-svg: %w", err)
	}
	if err := replay.WriteSVG(f, res, title); err != nil {
		f.Close()
		return fmt.Errorf("-svg: %w", err)
	}
	return f.Close()
}

// checkStates refuses, before running, a timeline that would look at more
// than scenario.MaxStates states: its run time would grow with virtual
// time at the update rate, with nothing more to show.
func checkStates(fs *cli.FlagSet, cfg scenario.Config) error {
	n := cfg.States()
	if n <= scenario.MaxStates {
		return nil
	}
	what, fix := "-until "+cli.ShowDuration(cfg.Until), "shorten -until"
	if span := cfg.Span(); span > cfg.Until {
		what, fix = "a press at "+cli.ShowDuration(span), "press sooner"
	}
	return fs.Errorf("%s at -rate %d is %s states; at most %s (%s or lower -rate)",
		what, cfg.Rate, cli.Thousands(n), cli.Thousands(scenario.MaxStates), fix)
}

func scenarioUsage(w io.Writer) {
	fmt.Fprint(w, `Replays key presses on the real server and client cores over a simulated link
on a virtual clock and prints the timeline: what the player sees, where the
server has the player, and the pending inputs. The defaults are Gambetta's
example: 250 ms round trip, RIGHT at 0 and 100 ms from (10,10).

At -rate N the server sends a state every tick, so a timeline is refused at
once if it would take more than `+cli.Thousands(scenario.MaxStates)+` states to run (-until, or the
last press, times the rate, for each player).

Flags:
`)
}
