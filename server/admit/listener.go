package admit

import (
	"errors"
	"net"
	"sync"
	"syscall"
	"time"

	"github.com/charmbracelet/log"
)

// The backoff of Accept after an error worth retrying: firstDelay, then
// twice the last, at most maxDelay.
const (
	firstDelay = 5 * time.Millisecond
	maxDelay   = time.Second
)

// Listener is a front end's listener. Its Accept hands over the new
// connections its admit function lets in, and waits out an error worth
// retrying (the process is out of file descriptors, a connection was
// aborted in the backlog) with a backoff, 5 ms doubling up to a second,
// that Close interrupts. After Close, Accept returns net.ErrClosed; an
// error not worth retrying, it returns as it is. It is safe for
// concurrent use, as a net.Listener.
type Listener struct {
	net.Listener
	admit  func(net.Conn) net.Conn
	log    *log.Logger
	closed chan struct{}
	once   sync.Once
	after  func(time.Duration) <-chan time.Time // time.After, or a test's
}

// Listen returns ln as a front end's Listener. admit, if not nil, is given
// each new connection and returns what Accept hands over (the connection,
// or a wrapper that counts it), or nil once it turned it away (Refuse).
// The retries are logged to logger.
func Listen(ln net.Listener, admit func(net.Conn) net.Conn, logger *log.Logger) *Listener {
	return &Listener{Listener: ln, admit: admit, log: logger, closed: make(chan struct{}), after: time.After}
}

// Accept waits for the next connection admit lets in.
func (l *Listener) Accept() (net.Conn, error) {
	var delay time.Duration
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			select {
			case <-l.closed:
				return nil, net.ErrClosed
			default:
			}
			if !Retryable(err) {
				return nil, err
			}
			delay = min(max(2*delay, firstDelay), maxDelay)
			l.log.Warn("accept failed, retrying", "err", err, "retry", delay)
			select {
			case <-l.after(delay):
			case <-l.closed:
				return nil, net.ErrClosed
			}
			continue
		}
		delay = 0
		if l.admit == nil {
			return c, nil
		}
		if c = l.admit(c); c != nil {
			return c, nil
		}
	}
}

// Close closes the listener and ends a wait of Accept at once.
func (l *Listener) Close() error {
	l.once.Do(func() { close(l.closed) })
	return l.Listener.Close()
}

// Retryable reports whether an Accept error is worth retrying after a
// while: the process or the system ran out of file descriptors or
// memory, one connection was aborted before it was accepted, a timeout.
func Retryable(err error) bool {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return true
	}
	for _, e := range []error{syscall.EMFILE, syscall.ENFILE, syscall.ECONNABORTED, syscall.ENOBUFS, syscall.ENOMEM, syscall.EPROTO} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}
