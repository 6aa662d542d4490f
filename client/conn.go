package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"sync"
	"time"

	"github.com/charmbracelet/log"

	"gridlag/grid"
	"gridlag/protocol"
)

// Conn is a client connected to a gridlag server over TCP. It runs a
// Driver on the wall clock: outgoing frames wait half the injected round
// trip before they are written, incoming ones half the round trip after
// they are read. Conn implements Session; all its methods are safe for
// concurrent use.
//
// If the connection drops and the server gave a resume token, Conn dials
// again by itself (see Redial) and comes back as the same player; View
// says Reconnecting meanwhile. It gives up when the server's window ends,
// or with the server's Error if the server refuses.
type Conn struct {
	addr   string
	start  time.Time
	logger *log.Logger
	ctx    context.Context // ends with the Conn: bounds a redial
	cancel context.CancelFunc

	mu      sync.Mutex
	d       *Driver
	nc      net.Conn // the connection in use
	dialing bool     // a redial goroutine runs

	wake    chan struct{}
	done    chan struct{}
	closing chan struct{}
	once    sync.Once
	wg      sync.WaitGroup
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
		case <-c.Changed():
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
	return newConn(addr, nc, opts), nil
}

func newConn(addr string, nc net.Conn, opts Options) *Conn {
	if opts.Seed == 0 {
		opts.Seed = time.Now().UnixNano()
	}
	c := &Conn{
		addr:    addr,
		nc:      nc,
		start:   time.Now(),
		logger:  opts.Logger,
		wake:    make(chan struct{}, 1),
		done:    make(chan struct{}),
		closing: make(chan struct{}),
	}
	if c.logger == nil {
		c.logger = log.New(io.Discard)
	}
	c.ctx, c.cancel = context.WithCancel(context.Background())
	c.d = NewDriver(0, opts)
	c.wg.Add(2)
	go c.read(nc)
	go c.pump()
	return c
}

func (c *Conn) now() time.Duration { return time.Since(c.start) }

// readSize is the most a read from the socket takes at once.
const readSize = 4096

// read hands what socket nc gives to the driver, then the end of the
// stream, which reaches the core after every byte read before it, with the
// same delay. Once another connection replaced nc, what nc gives is
// dropped.
func (c *Conn) read(nc net.Conn) {
	defer c.wg.Done()
	buf := make([]byte, readSize)
	for {
		n, err := nc.Read(buf)
		c.mu.Lock()
		if c.nc != nc {
			c.mu.Unlock()
			return
		}
		c.d.Deliver(c.now(), append([]byte(nil), buf[:n]...))
		if err != nil {
			c.d.Hangup(c.now(), err)
		}
		c.mu.Unlock()
		signal(c.wake)
		if err != nil {
			return
		}
	}
}

// pump steps the driver, writes the frames due, then sleeps until the next
// thing is due or something new comes.
func (c *Conn) pump() {
	defer c.wg.Done()
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	var out net.Buffers
	for {
		c.mu.Lock()
		frames, next, ok := c.d.Step(c.now())
		out = append(out[:0], frames...)
		closed := c.d.Closed()
		nc := c.nc
		redial := c.d.Reconnecting() && !c.dialing
		c.dialing = c.dialing || redial
		c.mu.Unlock()

		if redial {
			c.wg.Add(1)
			go c.redial()
		}
		if len(out) > 0 {
			nc.SetWriteDeadline(time.Now().Add(10 * time.Second))
			if _, err := out.WriteTo(nc); err != nil {
				c.lost(nc, fmt.Errorf("client: write: %w", err))
				continue
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

// lost records that writing to nc failed with err: the connection
// dropped (the core may wait to resume it).
func (c *Conn) lost(nc net.Conn, err error) {
	c.mu.Lock()
	if c.nc == nc {
		c.d.Drop(c.now(), err)
	}
	c.mu.Unlock()
	nc.Close()
}

// Redial is the backoff between attempts to reconnect after a drop: the
// first wait is about RedialMin, each failed attempt doubles it up to
// RedialMax, and each wait is drawn between half of it and all of it so
// that clients dropped together do not come back together.
const (
	RedialMin = 250 * time.Millisecond
	RedialMax = 5 * time.Second
)

// redial dials the server again with backoff until a connection is up
// (then the driver resumes on it), the core gives up, or the Conn closes.
func (c *Conn) redial() {
	defer c.wg.Done()
	c.mu.Lock()
	c.nc.Close() // the dropped one, if it is not closed yet
	c.mu.Unlock()
	c.logger.Info("connection lost, reconnecting", "addr", c.addr)
	delay := RedialMin
	for {
		wait := delay/2 + time.Duration(rand.Int64N(int64(delay/2)+1))
		select {
		case <-time.After(wait):
		case <-c.closing:
			return
		}
		delay = min(2*delay, RedialMax)
		ctx, cancel := context.WithTimeout(c.ctx, DialTimeout)
		var dialer net.Dialer
		nc, err := dialer.DialContext(ctx, "tcp", c.addr)
		cancel()
		if err != nil {
			c.logger.Debug("reconnect failed", "addr", c.addr, "err", err, "retry", delay)
			continue
		}
		c.mu.Lock()
		if !c.d.Reconnecting() {
			c.dialing = false
			c.mu.Unlock()
			nc.Close()
			return
		}
		c.nc, c.dialing = nc, false
		c.d.Reconnect(c.now())
		c.wg.Add(1)
		go c.read(nc)
		c.mu.Unlock()
		c.logger.Info("reconnected", "addr", c.addr)
		signal(c.wake)
		return
	}
}

// finish ends the connection once, recording err (if the core has no
// better reason already).
func (c *Conn) finish(err error) {
	c.once.Do(func() {
		c.mu.Lock()
		if err != nil {
			c.d.Core().Disconnected(err)
		}
		if e := c.d.Core().Err(); e != nil && !errors.Is(e, ErrClosed) {
			c.logger.Warn("disconnected", "err", e)
		}
		nc := c.nc
		c.mu.Unlock()
		c.cancel()
		close(c.closing)
		nc.Close()
		close(c.done)
		signal(c.d.changed)
	})
}

// Press implements Session.
func (c *Conn) Press(d grid.Dir) {
	c.with(func() { c.d.Press(c.now(), d) })
	signal(c.wake)
}

// SetPredict implements Session.
func (c *Conn) SetPredict(on bool) { c.with(func() { c.d.SetPredict(on) }) }

// SetReconcile implements Session.
func (c *Conn) SetReconcile(on bool) { c.with(func() { c.d.SetReconcile(on) }) }

// SetInterpolate implements Session.
func (c *Conn) SetInterpolate(on bool) { c.with(func() { c.d.SetInterpolate(on) }) }

// SetLatency implements Session.
func (c *Conn) SetLatency(rtt time.Duration) {
	c.with(func() { c.d.SetLatency(rtt) })
	signal(c.wake)
}

// SetJitter changes the injected jitter for messages sent from now on.
func (c *Conn) SetJitter(j time.Duration) { c.with(func() { c.d.SetJitter(j) }) }

func (c *Conn) with(f func()) {
	c.mu.Lock()
	f()
	c.mu.Unlock()
}

// View implements Session.
func (c *Conn) View() View {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.d.View(c.now())
}

// Stats returns the core's running totals (the RTT list is a copy).
func (c *Conn) Stats() Stats {
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

// Changed implements Session.
func (c *Conn) Changed() <-chan struct{} { return c.d.Changed() }

// Done implements Session.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Close implements Session: it says Bye at once (no injected delay), closes
// the socket and waits for the connection's goroutines.
func (c *Conn) Close() error {
	c.mu.Lock()
	if bye := net.Buffers(c.d.Close()); len(bye) > 0 {
		// Written under the lock so that the pump cannot close the socket
		// first; the deadline bounds the wait.
		c.nc.SetWriteDeadline(time.Now().Add(time.Second))
		bye.WriteTo(c.nc)
	}
	c.mu.Unlock()
	c.finish(nil)
	c.wg.Wait()
	return nil
}

// Abandon ends the connection without saying Bye, as a dropped
// connection ends: with a resume window, the server keeps the avatar for
// a client started with Options.Resume set to the token of Resumable. It
// waits for the connection's goroutines.
func (c *Conn) Abandon() {
	c.finish(ErrClosed)
	c.wg.Wait()
}

// Resumable returns the resume token of the last Welcome and how long the
// server keeps the avatar for it after a drop (see Core.Resumable).
func (c *Conn) Resumable() (protocol.Token, time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.d.Core().Resumable()
}

var _ Session = (*Conn)(nil)
