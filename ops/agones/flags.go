package agones

import (
	"strconv"
	"time"

	"gridlag/internal/cli"
)

// Config is a game server's Agones side as its command line gives it.
type Config struct {
	// On makes the game server an Agones game server (-agones).
	On bool
	// Options are the sidecar's client's: its Timeout (-agones-timeout).
	Options
	// Health is the period of the health pings (-agones-health): the
	// game's heartbeat, which the Fleet's health.periodSeconds matches.
	Health time.Duration
}

// RegisterFlags registers -agones, -agones-timeout and -agones-health
// (its default Health as given now: the game's heartbeat).
func (c *Config) RegisterFlags(fs *cli.FlagSet) {
	fs.BoolVar(&c.On, "agones", false, "be an Agones game server, talking to the SDK sidecar on 127.0.0.1:$"+PortEnv+" (default "+strconv.Itoa(DefaultPort)+")")
	fs.Duration(&c.Timeout, "agones-timeout", DefaultTimeout, cli.Timeout, "with -agones: how long a call waits for the SDK sidecar before it fails")
	fs.Duration(&c.Health, "agones-health", c.Health, cli.Timeout, "with -agones: the health ping period, from the world's goroutine (the Fleet's health.periodSeconds)")
}
