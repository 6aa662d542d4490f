package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"gridlag/scenario"
)

func scenarioMain(args []string, out io.Writer) error {
	def := scenario.Default()
	fs := flag.NewFlagSet("gridlag scenario", flag.ContinueOnError)
	latency := fs.Duration("latency", def.Player.Latency, "injected round trip, half each way")
	jitter := fs.Duration("jitter", 0, "extra delay of 0..J at random per message (never reorders)")
	seed := fs.Int64("seed", def.Seed, "seed of the jitter")
	presses := fs.String("presses", "right@0ms,right@100ms", "the player's key presses, DIRECTION@TIME,...")
	start := fs.String("start", "10,10", "the player's starting cell x,y")
	moveTime := fs.Duration("move-time", def.MoveTime, "speed limit: one move per this time")
	rate := fs.Int("rate", 0, "server update rate in Hz; 0 = the server answers each input the moment it processes it")
	predict := fs.Bool("predict", true, "client-side prediction")
	reconcile := fs.Bool("reconcile", true, "server reconciliation (turns prediction on)")
	presses2 := fs.String("presses2", "", "a second player's key presses; adds a second player, e.g. left@0ms")
	start2 := fs.String("start2", "12,10", "the second player's starting cell")
	latency2 := fs.Duration("latency2", 50*time.Millisecond, "the second player's injected round trip")
	until := fs.Duration("until", 0, "how long the timeline runs; 0 = until every press is acknowledged")
	asJSON := fs.Bool("json", false, "print one JSON object per line: t_ms, event, client [x,y], server [x,y], pending [...]")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), `Usage: gridlag scenario [flags]

Replays key presses on the real server and client cores over a simulated link
on a virtual clock and prints the timeline: what the player sees, where the
server has the player, and the pending inputs. The defaults are Gambetta's
example: 250 ms round trip, RIGHT at 0 and 100 ms from (10,10).

Flags:
`)
		fs.PrintDefaults()
	}
	if err := parse(fs, args); err != nil {
		return err
	}
	cfg := def
	cfg.Player.Latency, cfg.Player.Jitter = *latency, *jitter
	cfg.Seed, cfg.MoveTime, cfg.Rate, cfg.Until = *seed, *moveTime, *rate, *until
	cfg.Predict, cfg.Reconcile = *predict, *reconcile
	if *reconcile && !*predict {
		if setExplicitly(fs, "reconcile") {
			fmt.Fprintln(os.Stderr, "gridlag scenario: -reconcile turns prediction on")
			cfg.Predict = true
		} else {
			cfg.Reconcile = false
		}
	}
	var err error
	if cfg.Player.Presses, err = scenario.ParsePresses(*presses); err != nil {
		return err
	}
	if cfg.Player.Start, err = scenario.ParsePos(*start); err != nil {
		return err
	}
	if *presses2 != "" {
		p2 := scenario.Player{Name: "rival", Latency: *latency2, Jitter: *jitter}
		if p2.Presses, err = scenario.ParsePresses(*presses2); err != nil {
			return err
		}
		if p2.Start, err = scenario.ParsePos(*start2); err != nil {
			return err
		}
		cfg.Second = &p2
	}
	lines, err := scenario.Run(cfg)
	if err != nil {
		return err
	}
	if *asJSON {
		return scenario.WriteJSON(out, lines)
	}
	return scenario.WriteTable(out, lines)
}

func setExplicitly(fs *flag.FlagSet, name string) bool {
	found := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == name {
			found = true
		}
	})
	return found
}
