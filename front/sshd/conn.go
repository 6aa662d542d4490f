package sshd

import (
	"bytes"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// trackedConn is one accepted TCP connection. It counts toward the
// connection caps until closed, and closes itself when it goes
// BannerTimeout without the client's SSH banner (a socket that sends
// nothing), or HandshakeTimeout without a game session: a client that
// never finishes its handshake, never starts a session, or lingers after
// its session.
type trackedConn struct {
	net.Conn
	srv     *Server
	host    string    // the remote IP
	key     string    // the key of the per-address caps (see admit.Key)
	since   time.Time // when it was accepted
	shaking bool      // counted as in its handshake (no session channel yet); guarded by srv.mu

	banner atomic.Bool // the client's banner line has arrived

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

// armLocked starts the no-session watchdog; c.mu is held. Before the
// client's banner, it runs for BannerTimeout; after, for what is left of
// HandshakeTimeout since the connection was accepted, or the whole of it
// once a session ran.
func (c *trackedConn) armLocked() {
	c.gen++
	gen := c.gen
	o := c.srv.opts
	d := o.HandshakeTimeout
	switch {
	case c.hadOne:
	case !c.banner.Load():
		d = min(o.BannerTimeout, d)
	default:
		d = time.Until(c.since.Add(d))
	}
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
	o := c.srv.opts
	kind, reason := KindShakeTimeout, fmt.Sprintf("no game session within %s of connecting (handshake deadline)", o.HandshakeTimeout)
	switch {
	case c.hadOne:
		reason = fmt.Sprintf("no game session for %s", o.HandshakeTimeout)
	case !c.banner.Load():
		kind, reason = KindBannerTimeout, fmt.Sprintf("no SSH banner within %s of connecting (banner deadline)", min(o.BannerTimeout, o.HandshakeTimeout))
	}
	c.why = reason
	c.mu.Unlock()
	c.srv.refused.add(kind)
	c.srv.warn.Warn("closing "+c.key+" "+kind, "closing connection", "remote", c.RemoteAddr().String(), "reason", reason)
	c.Close()
}

// cut records why the server is about to close the connection, so that
// its reads say so and its failed handshake is not logged again.
func (c *trackedConn) cut(why string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.why == "" {
		c.why = why
	}
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
	if n > 0 && !c.banner.Load() && bytes.IndexByte(p[:n], '\n') >= 0 {
		c.bannerArrived()
	}
	if err != nil {
		if why := c.closeReason(); why != "" {
			err = cutError{why}
		}
	}
	return n, err
}

// bannerArrived notes the client's banner line and gives the handshake
// the rest of its deadline.
func (c *trackedConn) bannerArrived() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.banner.Store(true)
	if !c.closed && c.sessions == 0 && !c.hadOne {
		c.armLocked()
	}
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
