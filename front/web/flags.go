package web

import "gridlag/internal/cli"

// The kinds of the web front end's numbers.
var (
	// messageRange: -web-message, in bytes: room for the page's hello (a
	// name, a room's name, the identity).
	messageRange = cli.IntRange{Lo: 512, Hi: 1 << 20}
	// messageRateRange: -web-rate, messages a second.
	messageRateRange = cli.IntRange{Lo: 1, Hi: 10000}
)

// RegisterFlags registers the web front end's settings with their
// defaults: its caps, timeouts, the page's messages and the trusted
// proxies. The address to listen on is the caller's: whoever binds it.
func (o *Options) RegisterFlags(fs *cli.FlagSet) {
	fs.Int(&o.MaxPerAddr, "web-per-addr", DefaultMaxPerAddr, cli.Sessions, "web sessions at once from one address")
	fs.Int(&o.MaxSessions, "web-max", DefaultMaxSessions, cli.Sessions, "web sessions at once in all")
	fs.Duration(&o.HandshakeTimeout, "web-handshake", DefaultHandshakeTimeout, cli.Timeout, "time a web connection has to send its request, and a WebSocket the player's name")
	fs.Duration(&o.IdleTimeout, "web-idle", DefaultIdleTimeout, cli.Timeout, "a web session without a key press for this long ends")
	fs.Int(&o.MaxMessage, "web-message", DefaultMaxMessage, messageRange, "the largest message the page may send, in bytes")
	fs.Int(&o.MessageRate, "web-rate", DefaultMessageRate, messageRateRange, "messages a second the page may send, a second's worth at once")
	fs.Checked(&proxiesValue{p: o}, "web-trusted-proxy", "the reverse `proxies` (addresses or networks, comma-separated) whose X-Forwarded-For names a web player's address; from any other, the connection's address counts")
}

// proxiesValue is the flag.Value of -web-trusted-proxy: TrustedProxies,
// as given.
type proxiesValue struct {
	p   *Options
	raw string
}

func (v *proxiesValue) String() string {
	if v == nil {
		return ""
	}
	return v.raw
}

func (v *proxiesValue) Set(s string) error {
	ps, err := ParseProxies(s)
	if err != nil {
		return err
	}
	v.p.TrustedProxies, v.raw = ps, s
	return nil
}
