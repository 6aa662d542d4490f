package tcp

import (
	"context"
	"fmt"
	"net"
	"time"

	"github.com/charmbracelet/log"

	"gridlag/client"
)

// Options configure a client over TCP: the client's own options, and how
// it reaches the server and what it logs.
type Options struct {
	client.Options

	// Dial, if set, opens the connections to the server at addr in place
	// of a TCP connection: a front end that shares the server's process
	// (the SSH front end, the server's own bots) connects through the
	// server itself, which then counts the player as the address it
	// stands for (see server.Server.Dial). It is called again for each
	// reconnection.
	Dial func(ctx context.Context, addr string) (net.Conn, error)

	// Logger receives corrections and connection events; nil = discard.
	Logger *log.Logger

	// Journal, if set, is given every call the player's client driver
	// takes, with its time since the connection started (see
	// client.Driver.Journal), while the connection's lock is held: what
	// a recording of the player needs, with Options.Seed (set it: the
	// injected link's random source). It must not call the Conn.
	Journal func(client.Call)
}

// DialTimeout bounds the TCP connect when the context has no deadline.
const DialTimeout = 10 * time.Second

// dial opens a connection to addr with Options.Dial, or over TCP, within
// DialTimeout unless ctx has a deadline.
func (o Options) dial(ctx context.Context, addr string) (net.Conn, error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DialTimeout)
		defer cancel()
	}
	dial := o.Dial
	if dial == nil {
		var d net.Dialer
		dial = func(ctx context.Context, addr string) (net.Conn, error) { return d.DialContext(ctx, "tcp", addr) }
	}
	nc, err := dial(ctx, addr)
	if err != nil {
		return nil, fmt.Errorf("client: connect to %s: %w", addr, err)
	}
	return nc, nil
}

// withSeed gives opts a seed from the clock if it has none.
func withSeed(opts Options) Options {
	if opts.Seed == 0 {
		opts.Seed = time.Now().UnixNano()
	}
	return opts
}
