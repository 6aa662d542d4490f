package main

import (
	"fmt"
	"net"
	"net/netip"
	"time"

	"github.com/charmbracelet/log"

	"gridlag/web"
)

// webFlags are the web front end's: -web, its caps, its names and its
// proxies.
type webFlags struct {
	addr            string
	max, perAddr    int
	handshake, idle time.Duration
	stall           time.Duration
	message, rate   int
	proxies         []netip.Prefix
	hosts           []string
}

// The kinds of the web front end's numbers.
var (
	// messageKind: -web-message, in bytes: room for the page's hello (a
	// name, a room's name, the identity).
	messageKind = intRange{lo: 512, hi: 1 << 20}
	// messageRateKind: -web-rate, messages a second.
	messageRateKind = intRange{lo: 1, hi: 10000}
)

// define defines the flags in fs.
func (w *webFlags) define(fs *flagSet) {
	fs.StringVar(&w.addr, "web", "", "also serve players in a browser on this address, e.g. :8080: the page and its WebSocket")
	fs.int(&w.perAddr, "web-per-addr", web.DefaultMaxPerAddr, sessionsKind, "web sessions at once from one address")
	fs.int(&w.max, "web-max", web.DefaultMaxSessions, sessionsKind, "web sessions at once in all")
	fs.duration(&w.handshake, "web-handshake", web.DefaultHandshakeTimeout, timeoutKind, "time a web connection has to send its request, and a WebSocket the player's name")
	fs.duration(&w.idle, "web-idle", web.DefaultIdleTimeout, timeoutKind, "a web session without a key press for this long ends")
	fs.duration(&w.stall, "web-stall", web.DefaultStallTimeout, timeoutKind, "a web page that reads nothing for this long (a write it does not take, a ping it does not answer) is dropped, saying so in the log")
	fs.int(&w.message, "web-message", web.DefaultMaxMessage, messageKind, "the largest message the page may send, in bytes")
	fs.int(&w.rate, "web-rate", web.DefaultMessageRate, messageRateKind, "messages a second the page may send, a second's worth at once")
	fs.value(&listValue[string]{p: &w.hosts, parse: web.ParseHosts}, "web-host", "the `names` (or addresses, comma-separated) browsers reach the server by besides its own addresses, its name and localhost: a public name, a reverse proxy's, an address forwarded to it (NAT, a container's host); a page on any other is refused its WebSocket")
	fs.value(&listValue[netip.Prefix]{p: &w.proxies, parse: web.ParseProxies}, "web-trusted-proxy", "the reverse `proxies` (addresses or networks, comma-separated) whose X-Forwarded-For names a web player's address; from any other, the connection's address counts")
}

// listValue is the flag.Value of a comma-separated list that parse
// reads: -web-trusted-proxy, -web-host.
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

// startWeb starts the web front end on f.web.addr, its players connecting
// to the game through the server itself, each counting as its browser's
// address. It returns the address bound, as the start line's key and
// value.
func (g *game) startWeb(f gameFlags, gameAddr string, logger *log.Logger) ([]any, error) {
	w := f.web
	var err error
	g.browser, err = web.New(web.Options{
		GameAddr: gameAddr, Dial: g.srv.Dial,
		Latency: f.latency, Jitter: f.jitter, Logger: logger.WithPrefix("web"),
		MaxSessions: w.max, MaxPerAddr: w.perAddr, HandshakeTimeout: w.handshake, IdleTimeout: w.idle,
		StallTimeout: w.stall, MaxMessage: w.message, MessageRate: w.rate, TrustedProxies: w.proxies, Hosts: w.hosts,
	})
	var ln net.Listener
	if err == nil {
		// Bound here, as -ssh is: a busy port is an error now.
		ln, err = net.Listen("tcp", w.addr)
	}
	if err != nil {
		return nil, fmt.Errorf("-web %s: %w", w.addr, err)
	}
	go func() { g.errCh <- g.browser.Serve(ln) }()
	if !f.serve {
		ifaddrs, _ := net.InterfaceAddrs()
		g.webInvites = web.Invites(ln.Addr(), ifaddrs)
	}
	return []any{"web", ln.Addr().String()}, nil
}
