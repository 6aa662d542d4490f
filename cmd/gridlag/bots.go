package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/charmbracelet/log"

	"gridlag/client/bot"
)

func botsMain(args []string, out io.Writer) error {
	var o bot.Options
	var asJSON bool
	var logPath string
	fs := newFlagSet("gridlag bots", out, botsUsage)
	fs.StringVar(&o.Addr, "connect", "", "the server to play on, HOST:PORT (required)")
	fs.int(&o.N, "n", 10, botRunKind, "number of bots")
	fs.duration(&o.Duration, "duration", 10*time.Second, lengthKind, "how long the bots walk; 0 = until interrupted")
	fs.duration(&o.Latency, "latency", 0, latencyKind, "each bot's injected round trip")
	fs.duration(&o.Jitter, "jitter", 0, jitterKind, "each bot's injected jitter per message")
	fs.loss(&o.Loss, "loss", "each bot's injected loss, either way")
	fs.seed(&o.Seed, "seed", 0, "seed of the bots' walks and jitter; 0 = from the clock")
	fs.StringVar(&o.NamePrefix, "name", "robot", "name prefix: robot-1, robot-2, ... (bot-1 and the like only where the server's -bot-addrs lets them say they are bots)")
	fs.BoolVar(&asJSON, "json", false, "print the summary as one JSON object")
	fs.StringVar(&logPath, "log", "-", "log file (\"-\" = standard error)")
	if err := fs.parse(args); err != nil {
		return err
	}
	if o.Addr == "" {
		return fs.usageErrorf("-connect HOST:PORT is required")
	}
	logger, closeLog, err := openLog(logPath, log.WarnLevel)
	if err != nil {
		return err
	}
	defer closeLog()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	o.Logger = logger
	sum, err := bot.Run(ctx, o)
	if err != nil {
		return err
	}
	if asJSON {
		return sum.WriteJSON(out)
	}
	return sum.WriteText(out)
}

func botsUsage(w io.Writer) {
	fmt.Fprint(w, `Usage: gridlag bots -connect HOST:PORT [flags]

Runs N headless players on the real client core (random walks at the speed
limit, each with its own injected latency), then prints a summary: inputs
sent and acknowledged, corrections, round-trip p50/p99, bytes in and out per
bot per second.

Flags:
`)
}
