package tcp

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

	"gridlag/client"
	"gridlag/internal/notify"
	"gridlag/protocol"
)

// driver is what the adapter needs of a client.Driver or a
// client.SpectatorDriver: bytes in, frames out, the phase, and the notes.
type driver interface {
	Deliver(now time.Duration, data []byte)
	Hangup(now time.Duration, err error)
	Step(now time.Duration) (frames [][]byte, next time.Duration, ok bool)
	Phase() client.Phase
	Err() error
	Observe(f func(client.Note))
	Close() [][]byte
	Drop(now time.Duration, err error)
	Disconnect(now time.Duration, err error)
	Reconnect(now time.Duration)
}

// runner runs a driver over a TCP connection on the wall clock: one
// goroutine reads the socket into the driver, another (the pump) steps
// the driver and writes what is due, sleeping until the next thing is due
// or something new comes. The driver's notes wake the readers of Changed,
// log corrections, and after a drop that the core waits to resume (it
// entered client.Reconnecting), make the pump dial addr again with
// backoff (see RedialMin) and reconnect the driver on the new connection.
// Conn (a player) and Watch (a spectator) are built on it. Its lock
// guards the driver and the connection in use: every use of either holds
// it.
type runner struct {
	addr   string
	opts   Options // its Dial redials
	start  time.Time
	logger *log.Logger
	ctx    context.Context // ends with the connection: bounds a redial
	cancel context.CancelFunc

	mu     sync.Mutex
	d      driver
	nc     net.Conn // the connection in use
	redial bool     // the core entered Reconnecting: the pump starts a redial

	changed chan struct{} // signalled (capacity 1) at each note of the driver
	wake    chan struct{}
	done    chan struct{}
	closing chan struct{}
	once    sync.Once
	wg      sync.WaitGroup
}

// startRunner starts running driver d over nc, a connection to addr.
func startRunner(addr string, nc net.Conn, opts Options, d driver) *runner {
	r := &runner{
		addr:    addr,
		opts:    opts,
		nc:      nc,
		start:   time.Now(),
		logger:  opts.Logger,
		d:       d,
		changed: make(chan struct{}, 1),
		wake:    make(chan struct{}, 1),
		done:    make(chan struct{}),
		closing: make(chan struct{}),
	}
	if r.logger == nil {
		r.logger = log.New(io.Discard)
	}
	d.Observe(r.noted)
	r.ctx, r.cancel = context.WithCancel(context.Background())
	r.wg.Add(2)
	go r.read(nc)
	go r.pump()
	return r
}

func (r *runner) now() time.Duration { return time.Since(r.start) }

// noted takes a note of the driver, with the lock held.
func (r *runner) noted(n client.Note) {
	switch {
	case n.Kind == client.Entered && n.Phase == client.Reconnecting:
		r.redial = true
	case n.Correction != nil:
		c := n.Correction
		r.logger.Info("correction", "from", c.From, "to", c.To, "ack", c.Seq, "reason", c.Reason)
	}
	notify.Poke(r.changed)
}

// readSize is the most a read from the socket takes at once.
const readSize = 4096

// read hands what socket nc gives to the driver, then the end of the
// stream, which reaches the core after every byte read before it, with the
// same delay. Once another connection replaced nc, what nc gives is
// dropped. If the first bytes show that nc does not lead to a gridlag
// server, the connection ends at once, without the injected delay,
// saying what answered (ForeignServerError).
func (r *runner) read(nc net.Conn) {
	defer r.wg.Done()
	buf := make([]byte, readSize)
	var sniff sniffer
	for {
		n, err := nc.Read(buf)
		r.mu.Lock()
		if r.nc != nc {
			r.mu.Unlock()
			return
		}
		if foreign := sniff.take(r.addr, buf[:n]); foreign != nil {
			r.d.Disconnect(r.now(), foreign)
			r.mu.Unlock()
			notify.Poke(r.wake)
			return
		}
		r.d.Deliver(r.now(), append([]byte(nil), buf[:n]...))
		if err != nil {
			r.d.Hangup(r.now(), err)
		}
		r.mu.Unlock()
		notify.Poke(r.wake)
		if err != nil {
			return
		}
	}
}

// pump steps the driver, writes the frames due, then sleeps until the next
// thing is due or something new comes.
func (r *runner) pump() {
	defer r.wg.Done()
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	var out net.Buffers
	for {
		r.mu.Lock()
		frames, next, ok := r.d.Step(r.now())
		out = append(out[:0], frames...)
		phase := r.d.Phase()
		nc := r.nc
		redial := r.redial
		r.redial = false
		r.mu.Unlock()

		if redial {
			r.wg.Add(1)
			go r.redialer()
		}
		if len(out) > 0 {
			nc.SetWriteDeadline(time.Now().Add(10 * time.Second))
			if _, err := out.WriteTo(nc); err != nil {
				r.lost(nc, fmt.Errorf("client: write: %w", err))
				continue
			}
		}
		if phase == client.Closed {
			r.finish(nil)
			return
		}
		wait := time.Hour
		if ok {
			wait = max(next-r.now(), 0)
		}
		timer.Reset(wait) // since Go 1.23 a reset timer never delivers a stale tick
		select {
		case <-timer.C:
		case <-r.wake:
		case <-r.closing:
			return
		}
	}
}

// lost records that writing to nc failed with err: the connection
// dropped (the core may wait to resume it).
func (r *runner) lost(nc net.Conn, err error) {
	r.mu.Lock()
	if r.nc == nc {
		r.d.Drop(r.now(), err)
	}
	r.mu.Unlock()
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

// redialer dials the server again with backoff until a connection is up
// (then the driver resumes on it), the core gives up, or the connection
// closes.
func (r *runner) redialer() {
	defer r.wg.Done()
	r.mu.Lock()
	r.nc.Close() // the dropped one, if it is not closed yet
	r.mu.Unlock()
	r.logger.Info("connection lost, reconnecting", "addr", r.addr)
	delay := RedialMin
	for {
		wait := delay/2 + time.Duration(rand.Int64N(int64(delay/2)+1))
		select {
		case <-time.After(wait):
		case <-r.closing:
			return
		}
		delay = min(2*delay, RedialMax)
		nc, err := r.opts.dial(r.ctx, r.addr)
		if err != nil {
			r.logger.Debug("reconnect failed", "addr", r.addr, "err", err, "retry", delay)
			continue
		}
		r.mu.Lock()
		if r.d.Phase() != client.Reconnecting {
			r.mu.Unlock()
			nc.Close()
			return
		}
		r.nc = nc
		r.d.Reconnect(r.now())
		r.wg.Add(1)
		go r.read(nc)
		r.mu.Unlock()
		r.logger.Info("reconnected", "addr", r.addr)
		notify.Poke(r.wake)
		return
	}
}

// finish ends the connection once, recording err (if the core has no
// better reason already).
func (r *runner) finish(err error) {
	r.once.Do(func() {
		r.mu.Lock()
		if err != nil {
			r.d.Disconnect(r.now(), err)
		}
		if e := r.d.Err(); e != nil && !errors.Is(e, client.ErrClosed) {
			var pe *protocol.Error
			if errors.As(e, &pe) {
				r.logger.Warn("disconnected", "err", e, "code", pe.Code) // the code is for the log, not the screen
			} else {
				r.logger.Warn("disconnected", "err", e)
			}
		}
		nc := r.nc
		r.mu.Unlock()
		r.cancel()
		close(r.closing)
		nc.Close()
		close(r.done)
		notify.Poke(r.changed)
	})
}

// with runs f holding the driver's lock.
func (r *runner) with(f func()) {
	r.mu.Lock()
	f()
	r.mu.Unlock()
}

// Changed receives a value (without blocking the sender; capacity 1)
// whenever something happened that a View shows: a message came from
// the server, the connection dropped, came back or ended.
func (r *runner) Changed() <-chan struct{} { return r.changed }

// Done is closed when the connection has ended; View().Err says why.
func (r *runner) Done() <-chan struct{} { return r.done }

// close says Bye at once (no injected delay), closes the socket and waits
// for the connection's goroutines.
func (r *runner) close() error {
	r.mu.Lock()
	if bye := net.Buffers(r.d.Close()); len(bye) > 0 {
		// Written under the lock so that the pump cannot close the socket
		// first; the deadline bounds the wait.
		r.nc.SetWriteDeadline(time.Now().Add(time.Second))
		bye.WriteTo(r.nc)
	}
	r.mu.Unlock()
	r.finish(nil)
	r.wg.Wait()
	return nil
}
