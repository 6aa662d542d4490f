package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/charmbracelet/log"

	"gridlag/bot"
)

func botsMain(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("gridlag bots", flag.ContinueOnError)
	connect := fs.String("connect", "", "the server to play on, HOST:PORT (required)")
	n := fs.Int("n", 10, "number of bots")
	duration := fs.Duration("duration", 10*time.Second, "how long the bots walk; 0 = until interrupted")
	latency := fs.Duration("latency", 0, "each bot's injected round trip")
	jitter := fs.Duration("jitter", 0, "each bot's injected jitter per message")
	seed := fs.Int64("seed", 0, "seed of the bots' walks and jitter; 0 = from the clock")
	prefix := fs.String("name", "bot", "name prefix: bot-1, bot-2, ...")
	asJSON := fs.Bool("json", false, "print the summary as one JSON object")
	logPath := fs.String("log", "-", "log file (\"-\" = standard error)")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), `Usage: gridlag bots -connect HOST:PORT [flags]

Runs N headless players on the real client core (random walks at the speed
limit, each with its own injected latency), then prints a summary: inputs
sent and acknowledged, corrections, round-trip p50/p99, bytes in and out per
bot per second.

Flags:
`)
		fs.PrintDefaults()
	}
	if err := parse(fs, args); err != nil {
		return err
	}
	if *connect == "" {
		fs.Usage()
		return errors.New("bots: -connect HOST:PORT is required")
	}
	logger, closeLog, err := openLog(*logPath, log.WarnLevel)
	if err != nil {
		return err
	}
	defer closeLog()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	sum, err := bot.Run(ctx, bot.Options{
		Addr: *connect, N: *n, Duration: *duration, Latency: *latency, Jitter: *jitter,
		Seed: *seed, NamePrefix: *prefix, Logger: logger,
	})
	if err != nil {
		return err
	}
	if *asJSON {
		return sum.WriteJSON(out)
	}
	return sum.WriteText(out)
}
