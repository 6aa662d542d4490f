package web

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"time"

	"github.com/charmbracelet/log"

	"gridlag/front/remote"
	"gridlag/server/admit"
)

// Title is the top line of the game's screen in a browser.
const Title = "gridlag in a browser"

// Defaults for the zero values of Options: the caps and timeouts of
// every front end (remote's), and the WebSocket's own.
const (
	DefaultMaxSessions      = remote.DefaultMaxSessions
	DefaultMaxPerAddr       = remote.DefaultMaxPerAddr
	DefaultHandshakeTimeout = remote.DefaultHandshakeTimeout
	DefaultIdleTimeout      = remote.DefaultIdleTimeout
	// DefaultMaxMessage is the largest message the page may send, in
	// bytes: it sends key presses, a few bytes each, gathered for at most
	// a frame, and the window's size.
	DefaultMaxMessage = 4096
	// DefaultStallTimeout is how long a page may read nothing before its
	// session is dropped: an SSH client's (remote.StallTimeout).
	DefaultStallTimeout = remote.StallTimeout
	// DefaultMessageRate is how many messages a second the page may send,
	// a second's worth at once: it sends at most one a frame (about 60)
	// and the window's size when it changes.
	DefaultMessageRate = 100
	// DefaultFlowWindow is how many bytes of the screen may be in flight
	// toward a page, sent and not yet drawn: a frame or two of the game
	// (a few KB each, a whole screen tens of KB at the largest size).
	DefaultFlowWindow = 32 << 10
	// DefaultRetryAfter is how long a page refused for a cap (the server
	// full, too many sessions from its address) waits before it tries
	// again, at the least: it waits longer each time it is refused again.
	DefaultRetryAfter = 15 * time.Second
)

// Options configure a Server.
type Options struct {
	// GameAddr is the game server's TCP address each session's client
	// dials, unless Dial is set.
	GameAddr string
	// Dial, if set, opens each session's connections to the game server
	// in place of a TCP connection to GameAddr, for the session's player
	// from remote, the browser's address (see TrustedProxies). A server in
	// the same process passes its own (server.Server.Dial): the player
	// then counts as that address against the game's per-address caps.
	Dial func(ctx context.Context, remote net.Addr) (net.Conn, error)
	// Latency and Jitter are each session's starting injected round trip
	// and jitter; a player changes their own latency with the slider.
	Latency, Jitter time.Duration
	// Logger receives the server's log; nil discards it.
	Logger *log.Logger
	// MaxSessions caps the sessions (WebSockets) at once;
	// DefaultMaxSessions if zero or less. Open connections, the page's
	// included, are capped at four times this.
	MaxSessions int
	// MaxPerAddr caps the sessions from one client address;
	// DefaultMaxPerAddr if zero or less. Open connections from one
	// address are capped at four times this (a trusted proxy's are not:
	// they are many clients').
	MaxPerAddr int
	// HandshakeTimeout is how long a new connection has to send its
	// request, and a new WebSocket its first message (the player's name),
	// and how long a connection may stay open between two requests;
	// DefaultHandshakeTimeout if zero or less.
	HandshakeTimeout time.Duration
	// IdleTimeout ends a session whose player pressed no key for this
	// long; DefaultIdleTimeout if zero or less.
	IdleTimeout time.Duration
	// StallTimeout drops a session whose page read nothing for this long,
	// as an SSH client's is dropped (remote.Watchdog): a write to it
	// blocked, or no answer to the pings the server sends it (a
	// WebSocket's, which the browser answers as it reads) since the last
	// proof that it read; DefaultStallTimeout if zero or less.
	StallTimeout time.Duration
	// MaxMessage is the largest message the page may send, in bytes;
	// DefaultMaxMessage if zero or less.
	MaxMessage int
	// MessageRate is how many messages a second the page may send, a
	// second's worth at once; DefaultMessageRate if zero or less.
	MessageRate int
	// FlowWindow is how many bytes of the screen may be in flight toward
	// a page that acknowledges what it draws (see flow): sent, not yet
	// drawn; DefaultFlowWindow if zero or less.
	FlowWindow int
	// RetryAfter is how long a page refused for a cap is told to wait
	// before it tries again (close code 1013); DefaultRetryAfter if zero
	// or less.
	RetryAfter time.Duration
	// TrustedProxies are the reverse proxies whose X-Forwarded-For header
	// names the client: a request from one of them counts as the address
	// the header gives, and its page's host is the one X-Forwarded-Host
	// gives (see Hosts). Any other request counts as the address of its
	// connection, whatever its headers say.
	TrustedProxies []netip.Prefix
	// Hosts are the names (or addresses) browsers reach the server by
	// besides its own (ParseHosts): a public name, the name a reverse
	// proxy serves it under. A WebSocket is refused unless its page's
	// host is one of these, an address the server listens on, localhost
	// or a loopback address, one of the machine's addresses, or its name
	// (os.Hostname, and NAME.local): so that a page on a name pointed at
	// the server (DNS rebinding) cannot play for its visitor. From a
	// trusted proxy the page's host is the one it forwarded
	// (X-Forwarded-Host).
	Hosts []string
	// Handler runs one session. Nil runs the game (remote.Game).
	Handler remote.Handler
	// ClassCode, if set, says whether a code is a class's now, and its
	// room (server.Server.ClassCode): a page that presents one (its
	// socket's ?code=) is held to the cap in all only, not to its
	// address's (see classSlot). Without it a code is still presented
	// to the game server, under the address's cap.
	ClassCode func(code string) (room string, ok bool)
	// Attempts is how many WebSockets a minute one client address may
	// open, AttemptBurst of them at once; past it the page is refused
	// (close 1013, the reason and the wait) before its session starts
	// (see attempts.go); admit.DefaultAttempts and
	// admit.DefaultAttemptBurst if zero or less.
	Attempts, AttemptBurst int
	// attemptClock is the rate's clock, a test's; nil is the wall clock's.
	attemptClock func() time.Duration
}

// withDefaults returns o with its zero values replaced by the defaults.
func (o Options) withDefaults() Options {
	remote.SetDefaults(&o.MaxSessions, &o.MaxPerAddr, &o.HandshakeTimeout, &o.IdleTimeout, &o.Logger)
	o.StallTimeout = admit.Or(o.StallTimeout, DefaultStallTimeout)
	o.MaxMessage = admit.Or(o.MaxMessage, DefaultMaxMessage)
	o.MessageRate = admit.Or(o.MessageRate, DefaultMessageRate)
	o.RetryAfter = admit.Or(o.RetryAfter, DefaultRetryAfter)
	o.FlowWindow = admit.Or(o.FlowWindow, DefaultFlowWindow)
	remote.SetAttemptDefaults(&o.Attempts, &o.AttemptBurst)
	return o
}

// retrySeconds is d in whole seconds, at least 1: what a refused page is
// told to wait.
func retrySeconds(d time.Duration) int { return admit.Seconds(d) }

// ParseProxies reads a list of reverse proxies, for
// Options.TrustedProxies: addresses or networks (127.0.0.1, 10.0.0.0/8,
// ::1), separated by commas.
func ParseProxies(s string) ([]netip.Prefix, error) {
	var ps []netip.Prefix
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if strings.Contains(f, "/") {
			p, err := netip.ParsePrefix(f)
			if err != nil {
				return nil, fmt.Errorf("%q is not an address or a network such as 10.0.0.0/8", f)
			}
			ps = append(ps, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("%q is not an address or a network such as 10.0.0.0/8", f)
		}
		a = a.Unmap()
		ps = append(ps, netip.PrefixFrom(a, a.BitLen()))
	}
	return ps, nil
}
