package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"gridlag/internal/cli"
	"gridlag/internal/names"
	"gridlag/ops/loadgen"
)

var loadCommand = &command{name: "load", args: "HOST:PORT", usage: "[flags]", most: 1,
	does:  "measure a server with light players",
	build: loadBuild, head: loadUsage}

// loadBuild builds the flags of gridlag load.
func loadBuild(out io.Writer) (*cli.FlagSet, func([]string) error) {
	var o loadgen.Options
	var asJSON bool
	var addrs string
	fs := cli.New("gridlag load")
	fs.StringVar(&o.Addr, "connect", "", "the server to measure, HOST:PORT: the same as the argument")
	fs.Int(&o.N, "n", 100, loadgen.PlayersRange, "number of players")
	fs.Duration(&o.Duration, "duration", 10*time.Second, cli.Length, "how long the players walk once all are connected; 0 = until interrupted")
	fs.Duration(&o.Ramp, "ramp", 0, cli.Length, "connect the players evenly over this time; 0 = 1s per 1000 players")
	fs.Duration(&o.MoveTime, "move-time", 0, cli.Length, "time between two inputs of a player; 0 = the server's speed limit, from its Welcome")
	fs.Duration(&o.HandshakeTimeout, "handshake-timeout", loadgen.DefaultHandshakeTimeout, cli.Length, "how long a player's connection has to be welcomed; past it, it counts as refused (timed out)")
	fs.StringVar(&o.NamePrefix, "name", loadgen.DefaultNamePrefix, "name prefix: load-1, load-2, ... (the players say they are bots)")
	fs.Seed(&o.Seed, "seed", 0, "seed of the walks; 0 = from the clock")
	fs.StringVar(&addrs, "addrs", "", "source addresses to spread the connections over, in turn, e.g. 127.0.0.2-127.0.0.9 (loopback aliases); default: the system's choice, or, on a loopback target past the server's cap per address, one address a player from 127.0.0.1")
	fs.Int(&o.Rooms, "rooms", 0, loadgen.RoomsRange, "spread the players over this many rooms of the server (room-1, room-2, ...); 0 = its default room")
	fs.StringVar(&o.ServerMetrics, "server-metrics", "", "the server's Prometheus metrics, e.g. http://127.0.0.1:9100/metrics (its -metrics address): read when the walk starts and ends, for its ticks, CPU and RSS during the walk")
	fs.BoolVar(&asJSON, "json", false, "print the summary as one JSON object")
	var capacity bool
	co := loadgen.CapacityOptions{}
	fs.BoolVar(&capacity, "capacity", false, "find the server's capacity: add -step players at a time until the round trip p99 of those in (the median of -settle's one-second windows, the first after the joins not counted) passes -target three times in turn, or, once they settled, three newcomers in turn are not let in at once (-n: the most to try, default 65534), and print the players found, with the server's CPU and RSS at that point (-server-metrics)")
	fs.Int(&co.Step, "step", loadgen.DefaultCapacityStep, loadgen.PlayersRange, "with -capacity: players added at each step")
	fs.Duration(&co.Settle, "settle", loadgen.DefaultCapacitySettle, cli.Length, "with -capacity: how long the players walk after each step before their round trips are read")
	fs.Duration(&co.Target, "target", loadgen.DefaultCapacityTarget, cli.Length, "with -capacity: the round trip p99 the players in must keep")
	return fs, func(args []string) error {
		var err error
		if o.Addr, err = serverArg(fs, o.Addr, args); err != nil {
			return err
		}
		if err := names.CheckPlayer(fmt.Sprintf("%s-%d", o.NamePrefix, o.N), true); err != nil {
			return fs.Errorf("-name %q: the players' names (%s-1 to %s-%d): %w", o.NamePrefix, o.NamePrefix, o.NamePrefix, o.N, err)
		}
		if o.Rooms > o.N {
			return fs.Errorf("-rooms %d: more rooms than the %d players", o.Rooms, o.N)
		}
		if addrs != "" {
			if o.LocalAddrs, err = loadgen.ParseAddrs(addrs); err != nil {
				return fs.Errorf("-addrs %s: %w", addrs, err)
			}
		}
		if o.Seed == 0 {
			o.Seed = time.Now().UnixNano()
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		o.Say = out // what it decides by itself: spreading over loopback addresses
		if asJSON {
			o.Say = os.Stderr
		}
		if capacity {
			if !fs.Given("n") {
				o.N = loadgen.MaxPlayers
			}
			co.Options = o
			c, err := loadgen.FindCapacity(ctx, co, o.Say)
			if err != nil {
				return err
			}
			return c.WriteText(out)
		}
		sum, err := loadgen.Run(ctx, o)
		if err != nil {
			return err
		}
		write := sum.WriteText
		if asJSON {
			write = sum.WriteJSON
		}
		if err := write(out); err != nil {
			return err
		}
		return shortfall(sum, o.N)
	}
}

// shortfall is why a load run did not measure what it was asked to (exit
// status 1): players the server refused or dropped, with what to do when
// its caps per address did it; nil when every player played to the end.
func shortfall(sum loadgen.Summary, n int) error {
	refused, dropped, perAddr := 0, 0, false
	for reason, k := range sum.Refused {
		refused += k
		perAddr = perAddr || strings.Contains(reason, "from your address")
	}
	for _, k := range sum.Dropped {
		dropped += k
	}
	if refused == 0 && dropped == 0 {
		return nil
	}
	err := fmt.Sprintf("%d of the %d players were refused and %d dropped: the figures are of the others", refused, n, dropped)
	if perAddr {
		err += "; the server caps the players and connections from one address: spread them over addresses with -addrs (e.g. -addrs 127.0.0.2-127.0.0.9; on a loopback target given as an IP the tool does it by itself when the server says its cap), or raise its -max-players-per-addr and -max-conns-per-addr"
	}
	return errors.New(err)
}

func loadUsage(w io.Writer) {
	fmt.Fprint(w, `Drives N light players from one process to measure a server: no client
core, no view; each walks at the speed limit, answers Pings and reads the
acknowledgement of each State. Then prints inputs sent and acknowledged,
round-trip p50/p99/max (from an input to the first State acknowledging it),
bytes in and out per player per second, connections refused or dropped with
their reasons, and its own CPU time. For the full client, see gridlag bots.
If the server refused or dropped any player it exits 1, saying so. On a
loopback target given as an IP it spreads its players over 127/8 addresses
by itself when N passes the server's cap per address (said in the server's
Admission, version 6), and says so; players the server puts in its line
wait there, and the summary says how long. When the server's default
room has no place for all N (its cap, or its map's floor: one player a
cell, as its room list says), it fills it and spreads the rest over rooms
of their own (room-1, room-2, ...), and says so. -capacity ramps players
in steps until their round trip p99 passes -target or, once they settled,
newcomers must wait in line, each three times in turn (another process on
a shared machine only adds delay: the best try is kept).

Flags:
`)
}
