package bot

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/charmbracelet/log"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/internal/cli"
	"gridlag/protocol"
)

// MaxBots bounds Options.N: as many players as a server can hold.
const MaxBots = 65534

// Options configure a run of bots.
type Options struct {
	// Addr is the game server's TCP address, host:port.
	Addr string
	// N is the number of bots, 1 to MaxBots.
	N int
	// Duration is how long the bots walk, from the start of the run; 0
	// means until the context is done.
	Duration time.Duration
	// Latency and Jitter are each bot's injected link: the round trip,
	// half each way, and 0..Jitter more per message (client.Options).
	Latency, Jitter time.Duration
	// Loss is the probability that a message of a bot's link is lost and
	// retransmitted, as TCP does (client.Options.Loss).
	Loss float64
	// Seed makes the run reproducible: bot i walks with a seed derived
	// from Seed and i, and so does its link's jitter. 0 means a seed from
	// the clock.
	Seed int64
	// NamePrefix names the bots NamePrefix-1, NamePrefix-2, ... Default
	// "bot". The names must pass protocol.CheckName.
	NamePrefix string
	// Avoid are the human spawn cells: the bots never step onto them,
	// keep SpawnZone cells away from them and zap nobody within that
	// zone; nil means grid.DefaultSpawn, the human spawn of the default
	// map. A server with a spawn of its own should pass its cells.
	Avoid []grid.Pos
	// Dial, if set, opens each bot's connections to the server at Addr in
	// place of TCP (tcp.Options.Dial): a server's own bots connect
	// through the server itself (server.Server.Dial with server.Own),
	// count against no address's cap, and are the only clients whose
	// Hello a server believes when it says it is a bot, unless its
	// operator allows bots from their addresses (-bot-addrs).
	Dial func(ctx context.Context, addr string) (net.Conn, error)
	// Room is the room the bots join, "" for the server's default room.
	Room string
	// Step is the time between two moves of a bot; 0 (or one shorter
	// than the server's speed limit) walks at the speed limit. A crowd
	// of a thousand in the server's own process walks slower, so that
	// what it costs is the server's, not the bots' planning.
	Step time.Duration
	// Logger receives each bot's connection events; nil discards them.
	Logger *log.Logger
}

// withDefaults fills the zero fields and checks the rest.
func (o Options) withDefaults() (Options, error) {
	if o.NamePrefix == "" {
		o.NamePrefix = "bot"
	}
	if o.Avoid == nil {
		o.Avoid = []grid.Pos{grid.DefaultSpawn}
	}
	if o.Seed == 0 {
		o.Seed = time.Now().UnixNano()
	}
	if o.Logger == nil {
		o.Logger = log.New(io.Discard)
	}
	switch {
	case o.Addr == "":
		return o, errors.New("bot: no server address")
	case o.N < 1 || o.N > MaxBots:
		return o, fmt.Errorf("bot: number of bots %d is out of range (1 to %d)", o.N, MaxBots)
	case o.Duration < 0:
		return o, fmt.Errorf("bot: negative duration %v", o.Duration)
	case o.Loss < 0 || o.Loss > 1:
		return o, fmt.Errorf("bot: loss %v is not a probability", o.Loss)
	case o.Step < 0:
		return o, fmt.Errorf("bot: negative step %v", o.Step)
	case o.Latency < 0 || o.Jitter < 0:
		return o, fmt.Errorf("bot: negative latency %v or jitter %v", o.Latency, o.Jitter)
	}
	if err := protocol.CheckName(o.name(o.N)); err != nil {
		return o, fmt.Errorf("bot: name prefix %q: %q: %w", o.NamePrefix, o.name(o.N), err)
	}
	return o, nil
}

// name is bot i's name, i from 1.
func (o Options) name(i int) string { return fmt.Sprintf("%s-%d", o.NamePrefix, i) }

// clientOptions are bot i's client options, i from 1.
func (o Options) clientOptions(i int) client.Options {
	return client.Options{
		Name:    o.name(i),
		Room:    o.Room,
		Bot:     true,
		Latency: o.Latency,
		Jitter:  o.Jitter,
		Loss:    o.Loss,
		Seed:    o.seed(i),
		// A bot draws nothing: it steers by the others' latest cells
		// rather than by where they are drawn in the past.
		NoInterpolate: true,
	}
}

// newBot returns bot i's schedule, i from 1, starting at time now on a
// client whose first view is v.
func (o Options) newBot(i int, now time.Duration, v client.View) *Bot {
	step := v.MoveTime
	if step <= 0 {
		step = defaultStep
	}
	step = max(step, o.Step)
	b := NewBot(NewBrain(o.seed(i), o.Avoid...).KeepAway(SpawnZone), now, step, Settle(o.Latency, o.Jitter, step))
	b.Arm(NewTrigger(-o.seed(i)).Spare(SpawnZone, o.Avoid...))
	return b
}

// seed is bot i's seed, i from 1: distinct per bot and never 0 (which
// the client takes as "from the clock").
func (o Options) seed(i int) int64 {
	s := o.Seed*1_000_003 + int64(i)
	if s == 0 {
		s = 1
	}
	return s
}

// RunRange is the kind of a run's -n: at least one bot.
var RunRange = cli.IntRange{Lo: 1, Hi: MaxBots}
