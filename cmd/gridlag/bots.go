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

	"gridlag/client"
	"gridlag/client/bot"
	"gridlag/internal/cli"
)

var botsCommand = &command{name: "bots", args: "HOST:PORT", usage: "[flags]", most: 1,
	does:  "headless players, then a summary",
	build: botsBuild, head: botsUsage}

// botsBuild builds the flags of gridlag bots.
func botsBuild(out io.Writer) (*cli.FlagSet, func([]string) error) {
	var o bot.Options
	var asJSON bool
	var logPath string
	fs := cli.New("gridlag bots")
	fs.StringVar(&o.Addr, "connect", "", "the server to play on, HOST:PORT: the same as the argument")
	fs.Int(&o.N, "n", 10, bot.RunRange, "number of bots")
	fs.Duration(&o.Duration, "duration", 10*time.Second, cli.Length, "how long the bots walk; 0 = until interrupted")
	fs.Duration(&o.Latency, "latency", 0, client.LatencyRange, "each bot's injected round trip")
	fs.Duration(&o.Jitter, "jitter", 0, client.JitterRange, "each bot's injected jitter per message")
	client.LossFlag(fs, &o.Loss, "loss", "each bot's injected loss, either way")
	fs.Seed(&o.Seed, "seed", 0, "seed of the bots' walks and jitter; 0 = from the clock")
	fs.StringVar(&o.NamePrefix, "name", "robot", "name prefix: robot-1, robot-2, ... (bot-1 and the like only where the server's -bot-addrs lets them say they are bots)")
	fs.BoolVar(&asJSON, "json", false, "print the summary as one JSON object")
	fs.StringVar(&logPath, "log", "-", "log file (\"-\" = standard error)")
	return fs, func(args []string) error {
		var err error
		if o.Addr, err = serverArg(fs, o.Addr, args); err != nil {
			return err
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
}

// serverArg is the server a tool runs against: its argument, or -connect
// (connect); one of them is required.
func serverArg(fs *cli.FlagSet, connect string, args []string) (string, error) {
	switch {
	case len(args) > 0 && connect != "" && args[0] != connect:
		return "", fs.Errorf("two servers: %s and -connect %s", args[0], connect)
	case len(args) > 0:
		return args[0], nil
	case connect == "":
		return "", fs.Errorf("-connect HOST:PORT is required: the server (or %s HOST:PORT)", fs.Name())
	}
	return connect, nil
}

func botsUsage(w io.Writer) {
	fmt.Fprint(w, `Runs N headless players on the real client core (random walks at the speed
limit, each with its own injected latency), then prints a summary: inputs
sent and acknowledged, corrections, round-trip p50/p99, bytes in and out per
bot per second.

Flags:
`)
}
