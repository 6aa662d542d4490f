package web

import (
	"net/netip"

	"gridlag/front/remote"
	"gridlag/internal/cli"
)

// The kinds of the web front end's numbers.
var (
	// messageRange: -web-message, in bytes: room for the page's hello (a
	// name, a room's name, the identity).
	messageRange = cli.IntRange{Lo: 512, Hi: 1 << 20}
	// messageRateRange: -web-rate, messages a second.
	messageRateRange = cli.IntRange{Lo: 1, Hi: 10000}
	// windowRange: -web-window, in bytes.
	windowRange = cli.IntRange{Lo: 1 << 10, Hi: 16 << 20}
)

// RegisterFlags registers the web front end's settings with their
// defaults: its caps, timeouts, the page's messages and the trusted
// proxies. The address to listen on is the caller's: whoever binds it.
func (o *Options) RegisterFlags(fs *cli.FlagSet) {
	fs.Int(&o.MaxPerAddr, "web-per-addr", DefaultMaxPerAddr, cli.Sessions, "web sessions at once from one address")
	fs.Int(&o.MaxSessions, "web-max", DefaultMaxSessions, cli.Sessions, "web sessions at once in all")
	fs.Duration(&o.HandshakeTimeout, "web-handshake", DefaultHandshakeTimeout, cli.Timeout, "time a web connection has to send its request, and a WebSocket the player's name")
	fs.Duration(&o.IdleTimeout, "web-idle", DefaultIdleTimeout, cli.Timeout, "a web session without a key press for this long ends")
	fs.Duration(&o.StallTimeout, "web-stall", DefaultStallTimeout, cli.Timeout, "a web page that reads nothing for this long (a write it does not take, a ping it does not answer) is dropped, saying so in the log")
	fs.Duration(&o.RetryAfter, "web-retry", DefaultRetryAfter, cli.Timeout, "how long a page refused for a cap (the server full, too many sessions from its address) waits before it tries again, at the least")
	fs.Int(&o.FlowWindow, "web-window", DefaultFlowWindow, windowRange, "bytes of the screen in flight toward a page, sent and not yet drawn: a page that stops drawing (a background tab) is sent no more, then the present whole once it catches up")
	fs.Int(&o.MaxMessage, "web-message", DefaultMaxMessage, messageRange, "the largest message the page may send, in bytes")
	remote.RegisterAttemptFlags(fs, "web", &o.Attempts, &o.AttemptBurst, "WebSockets", "refused before its session starts: close 1013, the reason and the wait, which the page obeys")
	fs.Int(&o.MessageRate, "web-rate", DefaultMessageRate, messageRateRange, "messages a second the page may send, a second's worth at once")
	fs.Checked(&listValue[string]{p: &o.Hosts, parse: ParseHosts}, "web-host", "the `names` (or addresses, comma-separated) browsers reach the server by besides its own addresses, its name and localhost: a public name, a reverse proxy's, an address forwarded to it (NAT, a container's host); a page on any other is refused its WebSocket")
	fs.Checked(&listValue[netip.Prefix]{p: &o.TrustedProxies, parse: ParseProxies}, "web-trusted-proxy", "the reverse `proxies` (addresses or networks, comma-separated) whose X-Forwarded-For names a web player's address; from any other, the connection's address counts")
}

// listValue is the flag.Value of a comma-separated list that parse
// reads: -web-trusted-proxy, -web-host, as given.
type listValue[T any] struct {
	p     *[]T
	parse func(string) ([]T, error)
	raw   string
}

func (v *listValue[T]) String() string {
	if v == nil {
		return ""
	}
	return v.raw
}

func (v *listValue[T]) Set(s string) error {
	list, err := v.parse(s)
	if err != nil {
		return err
	}
	*v.p, v.raw = list, s
	return nil
}
