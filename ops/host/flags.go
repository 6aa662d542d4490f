package host

import (
	"errors"
	"io"
	"os"
	"time"

	"gridlag/client"
	"gridlag/client/bot"
	"gridlag/internal/cli"
)

// The groups of a server's flags, as -help and the flag reference list
// them.
const (
	GroupGame  = "the game"
	GroupRooms = "rooms, and what one address may take"
	GroupPort  = "the game port"
	GroupSSH   = "SSH players"
	GroupWeb   = "web players"
	GroupOps   = "operating the server"
)

// BotsRange is the kind of -bots: 0 for none.
var BotsRange = cli.IntRange{Lo: 0, Hi: bot.MaxBots}

// RegisterFlags registers what every server of gridlag takes, by group,
// each package's flags beside its defaults: the game (its numbers, the
// map, the player cap, the bots), the rooms and what one address may
// take, the game port's caps, SSH players, web players, and the metrics,
// health checks and summaries. Bots and SSH.HostKeyPath as they are now
// are -bots' and -ssh-key's defaults. A player's embedded server takes
// these; a server on its own takes RegisterServerFlags' too.
func (c *Config) RegisterFlags(fs *cli.FlagSet) {
	fs.Group(GroupGame)
	c.Server.Hub.Config.RegisterFlags(fs)
	c.Map.RegisterFlags(fs)
	fs.Int(&c.Bots, "bots", c.Bots, BotsRange, "the server's own bots walking in the world")

	fs.Group(GroupRooms)
	c.Server.Hub.RegisterFlags(fs)

	fs.Group(GroupPort)
	c.Server.RegisterFlags(fs)

	fs.Group(GroupSSH)
	fs.StringVar(&c.SSHAddr, "ssh", "", "also serve players over SSH on this `ADDR`, e.g. :2222")
	c.SSH.RegisterFlags(fs)
	fs.StringVar(&c.Teachers, "teachers", "", "the SSH keys that may teach a room (ssh -p 2222 host teach ROOM): a `FILE` in authorized_keys format, read again when it changes")
	fs.Check(func() error {
		if c.Teachers != "" && c.SSHAddr == "" {
			return errors.New("-teachers names teachers by their SSH keys: give -ssh too")
		}
		return nil
	})

	fs.Group(GroupWeb)
	fs.StringVar(&c.WebAddr, "web", "", "also serve players in a browser on this `ADDR`, e.g. :8080: the page and its WebSocket")
	c.Web.RegisterFlags(fs)

	fs.Group(GroupOps)
	fs.StringVar(&c.MetricsAddr, "metrics", "", "serve Prometheus metrics (/metrics) and the health checks (/healthz, /readyz) on this `ADDR`, e.g. 127.0.0.1:9100; off by default")
	fs.StringVar(&c.HealthAddr, "health", "", "serve the health checks /healthz and /readyz (also on -metrics) on this `ADDR`, e.g. :8080; off by default")
	fs.BoolVar(&c.Pprof, "pprof", false, "with -metrics: serve the Go profiler at /debug/pprof/ there too (anyone who reaches the address sees the command line and can take profiles)")
	fs.Duration(&c.Summary, "summary", time.Minute, cli.Length, "log a summary line this often: players, spectators, rooms, joins and leaves, tick p50/p99, bytes and States out per second, writes per second and per player, refusals by reason; 0 = off")
	fs.Check(func() error {
		if c.Pprof && c.MetricsAddr == "" {
			return errors.New("-pprof serves the profiler on the -metrics address: give -metrics ADDR")
		}
		return nil
	})
}

// RegisterServerFlags registers what a server that runs on its own takes
// besides RegisterFlags': the game port's address (-addr, default
// :7777), the link its SSH and web players and its bots start with
// (-latency, -jitter), the traces its teachers may choose (-trace), and
// the drain (-drain). A player's embedded server
// has none of these: it listens on loopback, its link is the player's,
// and it closes with the player's screen.
func (c *Config) RegisterServerFlags(fs *cli.FlagSet) {
	fs.Group(GroupPort)
	fs.StringVar(&c.Addr, "addr", ":7777", "the TCP `ADDR` to listen on; \"\" with -ssh or -web = their players only (the game port stays on loopback)")
	fs.Group(GroupGame)
	fs.Duration(&c.Latency, "latency", 0, client.LatencyRange, "the injected round trip SSH and web players and the bots start with, half each way (a player's slider changes theirs)")
	fs.Duration(&c.Jitter, "jitter", 0, client.JitterRange, "the injected jitter SSH and web players and the bots start with: 0..J extra per message")
	c.Server.Hub.RegisterTraceFlag(fs, func(path string) (io.ReadCloser, error) { return os.Open(path) })
	fs.Group(GroupOps)
	fs.StringVar(&c.Server.PerceptionDir, "perception-dir", "", "save the answers of the rooms' perception tests as CSV, a file per class, in this `DIR` (default: perception/ in the state directory; \"-\" = not saved)")
	fs.Duration(&c.Drain, "drain", 10*time.Second, cli.Length, "on SIGTERM or Ctrl-C, warn the players and play on this long before closing (a second signal closes at once, so does the last player leaving; with nobody to warn, its bots alone, no drain)")
	c.MemoryLimit.RegisterFlags(fs)
	fs.Check(func() error {
		if c.Addr == "" && c.SSHAddr == "" && c.WebAddr == "" {
			return errors.New("-addr \"\" needs -ssh or -web: nobody could join")
		}
		return nil
	})
}
