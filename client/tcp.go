package client

import (
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"github.com/charmbracelet/log"
)

// wire is what the TCP adapter needs of a driver (a Driver or a
// SpectatorDriver): bytes in, frames out, and the end of the connection.
type wire interface {
	Deliver(now time.Duration, data []byte)
	Hangup(now time.Duration, err error)
	Step(now time.Duration) (frames [][]byte, next time.Duration, ok bool)
	Closed() bool
	Close() [][]byte
	disconnect(err error)
	err() error
	notify()
}

// tcp runs a driver over a TCP connection on the wall clock: one goroutine
// reads the socket into the driver, another steps the driver and writes
// what is due, sleeping until the next thing is due or something new
// comes. Conn (a player) and Watch (a spectator) are built on it. Its
// lock guards the driver: every use of the driver holds it.
type tcp struct {
	nc     net.Conn
	start  time.Time
	logger *log.Logger

	mu sync.Mutex
	w  wire

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

// startTCP starts running driver w over nc.
func startTCP(nc net.Conn, opts Options, w wire) *tcp {
	c := &tcp{
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
	c.wg.Add(2)
	go c.read()
	go c.pump()
	return c
}

func (c *tcp) now() time.Duration { return time.Since(c.start) }

// readSize is the most a read from the socket takes at once.
const readSize = 4096

// read hands what the socket gives to the driver, then the end of the
// stream, which reaches the core after every byte read before it, with the
// same delay.
func (c *tcp) read() {
	defer c.wg.Done()
	buf := make([]byte, readSize)
	for {
		n, err := c.nc.Read(buf)
		c.mu.Lock()
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
		c.mu.Unlock()

		if len(out) > 0 {
			c.nc.SetWriteDeadline(time.Now().Add(10 * time.Second))
			if _, err := out.WriteTo(c.nc); err != nil {
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
func (c *tcp) finish(err error) {
	c.once.Do(func() {
		c.mu.Lock()
		if err != nil {
			c.w.disconnect(err)
		}
		if e := c.w.err(); e != nil && !errors.Is(e, ErrClosed) {
			c.logger.Warn("disconnected", "err", e)
		}
		c.mu.Unlock()
		close(c.closing)
		c.nc.Close()
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
