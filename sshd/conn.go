package sshd

import (
	"fmt"
	"net"
	"sync"
	"time"

	"gridlag/remote"
)

// trackedConn is one accepted TCP connection. It counts toward the
// connection caps until closed, and closes itself when it goes
// HandshakeTimeout without a game session: a client that never finishes
// its handshake, never starts a session, or lingers after its session.
type trackedConn struct {
	net.Conn
	srv     *Server
	host    string // the remote IP, the key of the per-address caps
	shaking bool   // counted as in its handshake (no session channel yet); guarded by srv.mu

	mu       sync.Mutex
	sessions int  // game sessions running on this connection
	channels int  // session channels open on this connection
	hadOne   bool // a game session ran at some point
	gen      int  // bumped whenever the watchdog is re-armed
	timer    *time.Timer
	closed   bool
	why      string // why the watchdog closed it, "" if it did not

	closeOnce sync.Once
	closeErr  error
}

// armLocked starts the no-session watchdog; c.mu is held.
func (c *trackedConn) armLocked() {
	c.gen++
	gen := c.gen
	d := c.srv.opts.HandshakeTimeout
	if c.timer != nil {
		c.timer.Stop()
	}
	c.timer = time.AfterFunc(d, func() { c.expire(gen) })
}

// expire closes the connection if it still has no session since the
// watchdog was armed as generation gen.
func (c *trackedConn) expire(gen int) {
	c.mu.Lock()
	if c.closed || c.sessions > 0 || gen != c.gen {
		c.mu.Unlock()
		return
	}
	reason := fmt.Sprintf("no game session within %s of connecting (handshake deadline)", c.srv.opts.HandshakeTimeout)
	if c.hadOne {
		reason = fmt.Sprintf("no game session for %s", c.srv.opts.HandshakeTimeout)
	}
	c.why = reason
	c.mu.Unlock()
	c.srv.warn.Warn("closing "+c.host, "closing connection", "remote", c.RemoteAddr().String(), "reason", reason)
	c.Close()
}

// closeReason is why the watchdog closed the connection, "" if it did not.
func (c *trackedConn) closeReason() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.why
}

// cutError is what reads on a connection the watchdog closed return: the
// watchdog's reason, not "use of closed network connection".
type cutError struct{ why string }

func (e cutError) Error() string { return "closed by the server: " + e.why }

// Read reads from the connection; after the watchdog closed it, the error
// says why.
func (c *trackedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if err != nil {
		if why := c.closeReason(); why != "" {
			err = cutError{why}
		}
	}
	return n, err
}

// MaxChannelsPerConn caps the session channels one SSH connection may hold
// open: a game needs one. Without a cap a client could open thousands of
// idle channels on one connection and exhaust the server's memory.
const MaxChannelsPerConn = 2

// openChannel counts a new session channel; false means the connection
// already holds MaxChannelsPerConn.
func (c *trackedConn) openChannel() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.channels >= MaxChannelsPerConn {
		return false
	}
	c.channels++
	return true
}

// closeChannel counts a session channel's end.
func (c *trackedConn) closeChannel() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.channels--
}

// sessionStarted stops the watchdog while a session runs.
func (c *trackedConn) sessionStarted() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sessions++
	c.hadOne = true
	c.gen++
	if c.timer != nil {
		c.timer.Stop()
	}
}

// sessionEnded re-arms the watchdog when the last session ends.
func (c *trackedConn) sessionEnded() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sessions--
	if c.sessions == 0 && !c.closed {
		c.armLocked()
	}
}

// Close closes the connection once and releases its place in the caps.
func (c *trackedConn) Close() error {
	c.closeOnce.Do(func() {
		c.mu.Lock()
		c.closed = true
		if c.timer != nil {
			c.timer.Stop()
		}
		c.mu.Unlock()
		c.closeErr = c.Conn.Close()
		c.srv.releaseConn(c)
	})
	return c.closeErr
}

// hostOf is the IP part of a remote address, the key of the per-address
// caps.
func hostOf(a net.Addr) string { return remote.HostOf(a) }
