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

	"gridlag/protocol"
)

// wire is what the TCP adapter needs of a driver (a Driver or a
// SpectatorDriver): bytes in, frames out, and the end of the connection.
type wire interface {
	Deliver(now time.Duration, data []byte)
	Hangup(now time.Duration, err error)
	Step(now time.Duration) (frames [][]byte, next time.Duration, ok bool)
	Closed() bool
	Close() [][]byte
	Drop(now time.Duration, err error)
	Reconnecting() bool
	Reconnect(now time.Duration)
	disconnect(err error)
	err() error
	notify()
}

// tcp runs a driver over a TCP connection on the wall clock: one goroutine
// reads the socket into the driver, another steps the driver and writes
// what is due, sleeping until the next thing is due or something new
// comes. After a drop that the driver's core waits to resume, it dials
// addr again with backoff (see RedialMin) and reconnects the driver on the
// new connection. Conn (a player) and Watch (a spectator) are built on
// it. Its lock guards the driver and the connection in use: every use of
// either holds it.
type tcp struct {
	addr   string
	opts   Options // its Dial redials
	start  time.Time
	logger *log.Logger
	ctx    context.Context // ends with the connection: bounds a redial
	cancel context.CancelFunc

	mu      sync.Mutex
	w       wire
	nc      net.Conn // the connection in use
	dialing bool     // a redial goroutine runs

	wake    chan struct{}
	done    chan struct{}
	closing chan struct{}
	once    sync.Once
	wg      sync.WaitGroup
}

// withSeed gives opts a seed from the clock if it has none.
func withSeed(opts Options) Options {
	if opts.Seed == 0 {
		opts.Seed = time.Now().UnixNano()
	}
	return opts
}

// startTCP starts running driver w over nc, a connection to addr.
func startTCP(addr string, nc net.Conn, opts Options, w wire) *tcp {
	c := &tcp{
		addr:    addr,
		opts:    opts,
		nc:      nc,
		start:   time.Now(),
		logger:  opts.Logger,
		w:       w,
		wake:    make(chan struct{}, 1),
		done:    make(chan struct{}),
		closing: make(chan struct{}),
	}
	if c.logger == nil {
		c.logger = log.New(io.Discard)
	}
	c.ctx, c.cancel = context.WithCancel(context.Background())
	c.wg.Add(2)
	go c.read(nc)
	go c.pump()
	return c
}

func (c *tcp) now() time.Duration { return time.Since(c.start) }

// readSize is the most a read from the socket takes at once.
const readSize = 4096

// read hands what socket nc gives to the driver, then the end of the
// stream, which reaches the core after every byte read before it, with the
// same delay. Once another connection replaced nc, what nc gives is
// dropped. If the first bytes show that nc does not lead to a gridlag
// server, the connection ends at once, without the injected delay,
// saying what answered (ForeignServerError).
func (c *tcp) read(nc net.Conn) {
	defer c.wg.Done()
	buf := make([]byte, readSize)
	var sniff sniffer
	for {
		n, err := nc.Read(buf)
		c.mu.Lock()
		if c.nc != nc {
			c.mu.Unlock()
			return
		}
		if foreign := sniff.take(c.addr, buf[:n]); foreign != nil {
			c.w.disconnect(foreign)
			c.mu.Unlock()
			signal(c.wake)
			return
		}
		c.w.Deliver(c.now(), append([]byte(nil), buf[:n]...))
		if err != nil {
			c.w.Hangup(c.now(), err)
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
func (c *tcp) pump() {
	defer c.wg.Done()
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	var out net.Buffers
	for {
		c.mu.Lock()
		frames, next, ok := c.w.Step(c.now())
		out = append(out[:0], frames...)
		closed := c.w.Closed()
		nc := c.nc
		redial := c.w.Reconnecting() && !c.dialing
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
func (c *tcp) lost(nc net.Conn, err error) {
	c.mu.Lock()
	if c.nc == nc {
		c.w.Drop(c.now(), err)
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
// (then the driver resumes on it), the core gives up, or the connection
// closes.
func (c *tcp) redial() {
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
		nc, err := c.opts.dial(c.ctx, c.addr)
		if err != nil {
			c.logger.Debug("reconnect failed", "addr", c.addr, "err", err, "retry", delay)
			continue
		}
		c.mu.Lock()
		if !c.w.Reconnecting() {
			c.dialing = false
			c.mu.Unlock()
			nc.Close()
			return
		}
		c.nc, c.dialing = nc, false
		c.w.Reconnect(c.now())
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
func (c *tcp) finish(err error) {
	c.once.Do(func() {
		c.mu.Lock()
		if err != nil {
			c.w.disconnect(err)
		}
		if e := c.w.err(); e != nil && !errors.Is(e, ErrClosed) {
			var pe *protocol.Error
			if errors.As(e, &pe) {
				c.logger.Warn("disconnected", "err", e, "code", pe.Code) // the code is for the log, not the screen
			} else {
				c.logger.Warn("disconnected", "err", e)
			}
		}
		nc := c.nc
		c.mu.Unlock()
		c.cancel()
		close(c.closing)
		nc.Close()
		close(c.done)
		c.w.notify()
	})
}

// with runs f holding the driver's lock.
func (c *tcp) with(f func()) {
	c.mu.Lock()
	f()
	c.mu.Unlock()
}

// close says Bye at once (no injected delay), closes the socket and waits
// for the connection's goroutines.
func (c *tcp) close() error {
	c.mu.Lock()
	if bye := net.Buffers(c.w.Close()); len(bye) > 0 {
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
