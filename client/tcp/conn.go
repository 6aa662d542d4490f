package tcp

import (
	"context"
	"fmt"
	"net"
	"time"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/internal/notify"
	"gridlag/protocol"
)

// Conn is a client connected to a gridlag server over TCP. It runs a
// client.Driver on the wall clock: outgoing frames wait half the injected
// round trip before they are written, incoming ones half the round trip
// after they are read. Conn implements client.Session; all its methods
// are safe for concurrent use.
//
// If the connection drops and the server gave a resume token, Conn dials
// again by itself (see RedialMin) and comes back as the same player; View
// says Reconnecting meanwhile. It gives up when the server's window ends,
// or with the server's Error if the server refuses.
type Conn struct {
	*runner
	d *client.Driver
}

// Dial connects to the server at addr, says Hello and waits for the
// Welcome and the first State. The returned Conn is playing.
func Dial(ctx context.Context, addr string, opts Options) (*Conn, error) {
	c, err := Connect(ctx, addr, opts)
	if err != nil {
		return nil, err
	}
	for {
		switch v := c.View(); {
		case v.Err != nil:
			c.Close()
			return nil, v.Err
		case v.Phase == client.Playing:
			return c, nil
		}
		select {
		case <-ctx.Done():
			c.Close()
			return nil, fmt.Errorf("client: handshake with %s: %w", addr, ctx.Err())
		case <-c.Changed():
		case <-c.Done():
		}
	}
}

// Connect opens the TCP connection to addr and says Hello, and returns
// without waiting for the answer: an interface can show the player that
// it is connecting (View().Map is nil until the Welcome) and let them quit
// meanwhile. A refusal (a wrong version, a bad name) ends the connection
// with the server's Error as View().Err; a server that does not answer at
// all within Options.ServerTimeout ends it too.
func Connect(ctx context.Context, addr string, opts Options) (*Conn, error) {
	nc, err := opts.dial(ctx, addr)
	if err != nil {
		return nil, err
	}
	return newConn(addr, nc, opts), nil
}

func newConn(addr string, nc net.Conn, opts Options) *Conn {
	opts = withSeed(opts)
	d := client.NewDriver(0, opts.Options)
	if opts.Journal != nil {
		d.Journal(opts.Journal)
	}
	return &Conn{runner: startRunner(addr, nc, opts, d), d: d}
}

// Press implements client.Session.
func (c *Conn) Press(d grid.Dir) {
	c.with(func() { c.d.Press(c.now(), d) })
	notify.Poke(c.wake)
}

// Zap implements client.Session.
func (c *Conn) Zap() {
	c.with(func() { c.d.Zap(c.now()) })
	notify.Poke(c.wake)
}

// SetPredict implements client.Session.
func (c *Conn) SetPredict(on bool) { c.with(func() { c.d.SetPredict(on) }) }

// SetReconcile implements client.Session.
func (c *Conn) SetReconcile(on bool) { c.with(func() { c.d.SetReconcile(on) }) }

// SetInterpolate implements client.Session.
func (c *Conn) SetInterpolate(on bool) { c.with(func() { c.d.SetInterpolate(on) }) }

// SetLatency implements client.Session.
func (c *Conn) SetLatency(rtt time.Duration) {
	c.with(func() { c.d.SetLatency(rtt) })
	notify.Poke(c.wake)
}

// Answer implements client.Answerer: the answer goes at once.
func (c *Conn) Answer(laggy bool) {
	c.with(func() { c.d.Answer(c.now(), laggy) })
	notify.Poke(c.wake)
}

// SetJitter changes the injected jitter for messages sent from now on.
func (c *Conn) SetJitter(j time.Duration) { c.with(func() { c.d.SetJitter(j) }) }

// View implements client.Session.
func (c *Conn) View() client.View {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.d.View(c.now())
}

// Instruments implements client.Instrumented.
func (c *Conn) Instruments(dst *client.Instruments) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.d.Instruments(c.now(), dst)
}

// SetTrace implements client.Instrumented: the request goes at once.
func (c *Conn) SetTrace(on bool) {
	c.with(func() { c.d.SetTrace(c.now(), on) })
	notify.Poke(c.wake)
}

// SetSmooth implements client.Instrumented.
func (c *Conn) SetSmooth(on bool) { c.with(func() { c.d.SetSmooth(on) }) }

// Stats returns the core's running totals (the RTT list is a copy).
func (c *Conn) Stats() client.Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.d.Stats()
}

// Bytes returns the bytes read from and written to the socket so far.
func (c *Conn) Bytes() (in, out int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.d.Bytes()
}

// Close implements client.Session: it says Bye at once (no injected
// delay), closes the socket and waits for the connection's goroutines.
func (c *Conn) Close() error { return c.runner.close() }

// Abandon ends the connection without saying Bye, as a dropped
// connection ends: with a resume window, the server keeps the avatar for
// a client started with Options.Resume set to the token of Resumable. It
// waits for the connection's goroutines.
func (c *Conn) Abandon() {
	c.finish(client.ErrClosed)
	c.wg.Wait()
}

// Resumable returns the resume token of the last Welcome and how long the
// server keeps the avatar for it after a drop (see client.Core.Resumable).
func (c *Conn) Resumable() (protocol.Token, time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.d.Core().Resumable()
}

var (
	_ client.Session      = (*Conn)(nil)
	_ client.Instrumented = (*Conn)(nil)
	_ client.Answerer     = (*Conn)(nil)
)
