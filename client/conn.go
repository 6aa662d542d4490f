package client

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"github.com/charmbracelet/log"

	"gridlag/grid"
	"gridlag/link"
	"gridlag/protocol"
)

// Conn is a client connected to a gridlag server over TCP. It runs a Core
// on the wall clock with an injected latency between the Core and the
// socket: outgoing messages wait half the round trip before they are
// written, incoming ones half the round trip after they are read. Conn
// implements Session; all its methods are safe for concurrent use.
type Conn struct {
	nc     net.Conn
	start  time.Time
	logger *log.Logger

	mu   sync.Mutex
	core *Core
	link *link.Link[protocol.Message, protocol.Message]

	wake    chan struct{}
	changed chan struct{}
	done    chan struct{}
	closing chan struct{}
	once    sync.Once
	wg      sync.WaitGroup

	bytesIn, bytesOut int64 // guarded by mu
	readErr           error // why the socket stopped reading; guarded by mu
}

// DialTimeout bounds the TCP connect when the context has no deadline.
const DialTimeout = 10 * time.Second

// Dial connects to the server at addr, says Hello and waits for the
// Welcome and the first State. The returned Conn is playing.
func Dial(ctx context.Context, addr string, opts Options) (*Conn, error) {
	c, err := Connect(ctx, addr, opts)
	if err != nil {
		return nil, err
	}
	for {
		v := c.View()
		switch {
		case v.Err != nil:
			c.Close()
			return nil, v.Err
		case v.Connected && v.HasState:
			return c, nil
		}
		select {
		case <-ctx.Done():
			c.Close()
			return nil, fmt.Errorf("client: handshake with %s: %w", addr, ctx.Err())
		case <-c.changed:
		case <-c.done:
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
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DialTimeout)
		defer cancel()
	}
	var d net.Dialer
	nc, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("client: connect to %s: %w", addr, err)
	}
	return newConn(nc, opts), nil
}

func newConn(nc net.Conn, opts Options) *Conn {
	seed := opts.Seed
	if seed == 0 {
		seed = time.Now().UnixNano()
	}
	c := &Conn{
		nc:      nc,
		start:   time.Now(),
		logger:  opts.Logger,
		link:    link.New[protocol.Message, protocol.Message](opts.Latency, opts.Jitter, seed),
		wake:    make(chan struct{}, 1),
		changed: make(chan struct{}, 1),
		done:    make(chan struct{}),
		closing: make(chan struct{}),
	}
	if c.logger == nil {
		c.logger = log.New(io.Discard)
	}
	c.core = NewCore(0, opts)
	c.queueOut(0)
	c.wg.Add(2)
	go c.read()
	go c.pump()
	return c
}

func (c *Conn) now() time.Duration { return time.Since(c.start) }

func signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// queueOut moves the core's outbox onto the link. Called with mu held.
func (c *Conn) queueOut(now time.Duration) {
	for _, m := range c.core.Outbox() {
		c.link.Up.Send(now, m)
	}
}

// read decodes frames from the socket and puts them on the incoming line.
// The end of the stream goes on the line too (as nil), so that it reaches
// the core after every message read before it, with the same delay.
func (c *Conn) read() {
	defer c.wg.Done()
	dec := protocol.NewDecoder(bufio.NewReader(c.nc))
	for {
		m, err := dec.Decode()
		c.mu.Lock()
		c.bytesIn = dec.BytesRead
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = errors.New("client: the server closed the connection")
			}
			c.readErr = err
			c.link.Down.Send(c.now(), nil)
			c.mu.Unlock()
			signal(c.wake)
			return
		}
		c.link.Down.Send(c.now(), m)
		c.mu.Unlock()
		signal(c.wake)
	}
}

// pump delivers what the link has due, lets the core do what is due, and
// writes outgoing frames, then sleeps until the next thing is due.
func (c *Conn) pump() {
	defer c.wg.Done()
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	var (
		in  []protocol.Message
		out []protocol.Message
		buf []byte
	)
	for {
		c.mu.Lock()
		now := c.now()
		in = c.link.Down.Receive(now, in[:0])
		for _, m := range in {
			if m == nil {
				c.core.Disconnected(c.readErr)
				break
			}
			c.core.Receive(now, m)
		}
		c.core.Advance(now)
		c.queueOut(now)
		out = c.link.Up.Receive(now, out[:0])
		next, ok := c.link.Next()
		if w, wok := c.core.NextWake(); wok && (!ok || w < next) {
			next, ok = w, true
		}
		closed := c.core.Phase() == Closed
		c.mu.Unlock()
		clear(in)

		if len(in) > 0 {
			signal(c.changed)
		}
		buf = buf[:0]
		for _, m := range out {
			var err error
			if buf, err = protocol.Append(buf, m); err != nil {
				c.logger.Error("encode", "err", err)
			}
		}
		clear(out)
		if len(buf) > 0 {
			c.nc.SetWriteDeadline(time.Now().Add(10 * time.Second))
			n, err := c.nc.Write(buf)
			c.mu.Lock()
			c.bytesOut += int64(n)
			c.mu.Unlock()
			if err != nil {
				c.finish(fmt.Errorf("client: write: %w", err))
				return
			}
		}
		if closed {
			c.finish(nil)
			return
		}
		wait := time.Hour
		if ok {
			wait = max(next-c.now(), 0)
		}
		timer.Reset(wait) // since Go 1.23 a reset timer never delivers a stale tick
		select {
		case <-timer.C:
		case <-c.wake:
		case <-c.closing:
			return
		}
	}
}

// finish ends the connection once, recording err (if the core has no
// better reason already).
func (c *Conn) finish(err error) {
	c.once.Do(func() {
		c.mu.Lock()
		if err != nil {
			c.core.Disconnected(err)
		}
		if e := c.core.Err(); e != nil && !errors.Is(e, ErrClosed) {
			c.logger.Warn("disconnected", "err", e)
		}
		c.mu.Unlock()
		close(c.closing)
		c.nc.Close()
		close(c.done)
		signal(c.changed)
	})
}

// Press implements Session.
func (c *Conn) Press(d grid.Dir) {
	c.mu.Lock()
	now := c.now()
	c.core.Press(now, d)
	c.queueOut(now)
	c.mu.Unlock()
	signal(c.wake)
}

// SetPredict implements Session.
func (c *Conn) SetPredict(on bool) { c.with(func() { c.core.SetPredict(on) }) }

// SetReconcile implements Session.
func (c *Conn) SetReconcile(on bool) { c.with(func() { c.core.SetReconcile(on) }) }

// SetInterpolate implements Session.
func (c *Conn) SetInterpolate(on bool) { c.with(func() { c.core.SetInterpolate(on) }) }

// SetLatency implements Session.
func (c *Conn) SetLatency(rtt time.Duration) {
	c.with(func() { c.link.Set(rtt, c.link.Jitter()) })
	signal(c.wake)
}

// SetJitter changes the injected jitter for messages sent from now on.
func (c *Conn) SetJitter(j time.Duration) {
	c.with(func() { c.link.Set(c.link.RTT(), j) })
}

func (c *Conn) with(f func()) {
	c.mu.Lock()
	f()
	c.mu.Unlock()
}

// View implements Session.
func (c *Conn) View() View {
	c.mu.Lock()
	defer c.mu.Unlock()
	v := c.core.View(c.now())
	v.Latency, v.Jitter = c.link.RTT(), c.link.Jitter()
	return v
}

// Stats returns the core's running totals (the RTT list is a copy).
func (c *Conn) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.core.Stats()
	s.RTTs = append([]time.Duration(nil), s.RTTs...)
	return s
}

// Bytes returns the bytes read from and written to the socket so far.
func (c *Conn) Bytes() (in, out int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytesIn, c.bytesOut
}

// Changed implements Session.
func (c *Conn) Changed() <-chan struct{} { return c.changed }

// Done implements Session.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Close implements Session: it says Bye at once (no injected delay), closes
// the socket and waits for the connection's goroutines.
func (c *Conn) Close() error {
	c.mu.Lock()
	if c.core.Phase() != Closed {
		c.core.Close()
		var buf []byte
		for _, m := range c.core.Outbox() {
			buf, _ = protocol.Append(buf, m)
		}
		// Written under the lock so that the pump cannot close the socket
		// first; the deadline bounds the wait.
		c.nc.SetWriteDeadline(time.Now().Add(time.Second))
		c.nc.Write(buf)
	}
	c.mu.Unlock()
	c.finish(nil)
	c.wg.Wait()
	return nil
}

var _ Session = (*Conn)(nil)
