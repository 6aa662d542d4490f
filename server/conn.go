package server

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
)

// maxClientFrame is the largest frame body a client may send. The largest
// client message, a Hello with a 255-byte name, is 261 bytes; anything far
// larger (such as "GET / HTTP/1.1" read as a length) is refused at once
// instead of waiting for kilobytes that will never come.
const maxClientFrame = 1024

// conn is one client connection of the TCP adapter.
type conn struct {
	id         ConnID
	nc         net.Conn
	remote     string
	host       string        // the remote IP, the key of the per-address caps
	send       chan frame    // frames for the writer; bounded
	room       chan struct{} // signalled when a message was handled or frames written, for a reader holding back
	unhandled  atomic.Int32  // messages passed to the loop and not yet handled
	kill       chan struct{} // closed to make the writer stop at once
	killOnce   sync.Once
	readerDone chan struct{} // closed when the reader has returned
	running    int32         // goroutines still running (reader, writer); guarded by Server.mu

	// Owned by the loop goroutine.
	dropped bool   // the Core was told it is gone
	closing bool   // a final frame is queued; nothing more is sent
	stalled string // why a frame could not be queued for it, "" if none was refused
}

func newConn(id ConnID, nc net.Conn, host string, queue int) *conn {
	return &conn{
		id:         id,
		nc:         nc,
		remote:     nc.RemoteAddr().String(),
		host:       host,
		send:       make(chan frame, queue),
		room:       make(chan struct{}, 1),
		kill:       make(chan struct{}),
		readerDone: make(chan struct{}),
	}
}

// push queues f without blocking; false means the queue is full.
func (c *conn) push(f frame) bool {
	select {
	case c.send <- f:
		return true
	default:
		return false
	}
}

// queueFull is the reason a client whose queue is full is dropped.
func (c *conn) queueFull() string {
	return "too slow: " + strconv.Itoa(cap(c.send)) + " frames queued unread"
}

// signalRoom wakes the reader if it holds back.
func (c *conn) signalRoom() {
	select {
	case c.room <- struct{}{}:
	default:
	}
}

// hardClose closes the socket now, dropping whatever is queued.
func (c *conn) hardClose() {
	c.killOnce.Do(func() {
		close(c.kill)
		c.nc.Close()
	})
}

// eventKind says what a connection goroutine reports to the loop.
type eventKind uint8

const (
	evConnect eventKind = iota // a new connection (from the accept loop)
	evMessage                  // a decoded message
	evGone                     // the connection is over
	evNotice                   // a Notice for everyone (from Drain); c is nil
)

// event is what connection goroutines pass to the loop.
type event struct {
	kind   eventKind
	c      *conn
	msg    protocol.Message // evMessage
	reason string           // evGone: why, for the log and the Core
	final  protocol.Message // evGone: a last message to send before closing, or nil
	abuse  bool             // evGone: log as a warning (malformed, flood, timeout, slow)
	notice string           // evNotice: the text
}

// read is the connection's reader goroutine: it decodes frames and passes
// them to the loop, enforcing the handshake and idle deadlines, the frame
// size limit and the message rate.
func (s *Server) read(c *conn) {
	defer s.wg.Done()
	defer s.release(c)
	defer close(c.readerDone)
	br := bufio.NewReaderSize(c.nc, 4096)
	dec := protocol.NewDecoder(br)
	var (
		flood    grid.Limiter
		interval = int64(time.Second) / int64(s.opts.MaxMessageRate)
		burst    = 2 * s.opts.MaxMessageRate
		greeted  bool
	)
	c.nc.SetReadDeadline(time.Now().Add(s.opts.HandshakeTimeout))
	for {
		var (
			m   protocol.Message
			err error
		)
		hdr, err := br.Peek(protocol.HeaderLen)
		if err == nil {
			if n := int(binary.BigEndian.Uint16(hdr)); n > maxClientFrame {
				err = fmt.Errorf("frame of %d bytes, more than a client ever sends (%d)", n, maxClientFrame)
			} else {
				m, err = dec.Decode()
			}
		}
		if err != nil {
			ev := s.readFailure(c, err, greeted)
			if s.deliver(ev) && ev.final == nil {
				return
			}
			s.drain(c, br)
			return
		}
		now := time.Now()
		if !flood.Allow(int64(now.Sub(s.start)), interval, burst) {
			s.deliver(event{kind: evGone, c: c, abuse: true,
				reason: fmt.Sprintf("flooding: more than %d messages per second", s.opts.MaxMessageRate),
				final:  &protocol.Error{Code: protocol.ErrCodeFlood, Text: fmt.Sprintf("too many messages: at most %d per second", s.opts.MaxMessageRate)}})
			s.drain(c, br)
			return
		}
		greeted = true
		if !s.holdBack(c) {
			s.drain(c, br)
			return
		}
		c.nc.SetReadDeadline(time.Now().Add(s.opts.IdleTimeout))
		c.unhandled.Add(1)
		if !s.deliver(event{kind: evMessage, c: c, msg: m}) {
			s.drain(c, br)
			return
		}
	}
}

// holdBack waits, before the reader passes on another message, while
// the messages not yet handled and the frames queued for the connection
// take half of its send queue: a client is answered (Pongs) only as fast
// as it reads, so a burst within the flood limit never overflows its
// queue, and one that stops reading stops being read. It reports false if
// the connection or the server is closing.
func (s *Server) holdBack(c *conn) bool {
	for int(c.unhandled.Load())+len(c.send) >= cap(c.send)/2 && cap(c.send) > 1 {
		select {
		case <-c.room:
		case <-c.kill:
			return false
		case <-s.quit:
			return false
		}
	}
	return true
}

// readFailure turns a read error into the event that ends the connection.
func (s *Server) readFailure(c *conn, err error, greeted bool) event {
	ev := event{kind: evGone, c: c}
	var ne net.Error
	switch {
	case errors.Is(err, io.EOF):
		ev.reason = "connection closed by the client"
	case errors.Is(err, io.ErrUnexpectedEOF):
		ev.reason = "connection closed by the client in the middle of a frame"
	case errors.Is(err, os.ErrDeadlineExceeded) && !greeted:
		ev.abuse = true
		ev.reason = "no Hello within " + s.opts.HandshakeTimeout.String()
		ev.final = &protocol.Error{Code: protocol.ErrCodeTimeout, Text: ev.reason}
	case errors.Is(err, os.ErrDeadlineExceeded):
		ev.abuse = true
		ev.reason = "silent for " + s.opts.IdleTimeout.String()
		ev.final = &protocol.Error{Code: protocol.ErrCodeTimeout, Text: ev.reason}
	case errors.Is(err, net.ErrClosed):
		ev.reason = "connection closed"
	case errors.As(err, &ne):
		ev.reason = "read error: " + err.Error()
	default:
		// The bytes are not a frame of the protocol.
		ev.abuse = true
		ev.reason = "malformed frame: " + err.Error()
		ev.final = &protocol.Error{Code: protocol.ErrCodeProtocol, Text: clip(ev.reason, 255)}
	}
	return ev
}

// drain reads and discards whatever the peer still sends until it closes
// its side or lingerTime passes, so that it gets our last frame rather
// than a reset.
func (s *Server) drain(c *conn, br *bufio.Reader) {
	c.nc.SetReadDeadline(time.Now().Add(lingerTime))
	io.Copy(io.Discard, br)
}

// write is the connection's writer goroutine: it sends whatever frames
// are queued with one vectored write (one write per client per tick),
// under a write deadline.
func (s *Server) write(c *conn) {
	defer s.wg.Done()
	defer s.release(c)
	bufs := make([][]byte, 0, 8)
	for {
		var f frame
		select {
		case f = <-c.send:
		case <-c.kill:
			return
		}
		bufs = f.appendTo(bufs[:0])
		last := f.close
	batch:
		for !last {
			select {
			case f = <-c.send:
				bufs = f.appendTo(bufs)
				last = f.close
			default:
				break batch
			}
		}
		timeout := s.opts.WriteTimeout
		if s.stopping() {
			timeout = min(timeout, lingerTime)
		}
		err := writeAll(c.nc, bufs, timeout)
		clear(bufs) // let the frames' memory go
		c.signalRoom()
		if err != nil {
			reason := "write error: " + err.Error()
			abuse := false
			if errors.Is(err, os.ErrDeadlineExceeded) {
				reason, abuse = "too slow: read nothing for "+timeout.String(), true
			}
			// The reason first: closing first would let the reader report
			// a mere "connection closed".
			s.deliver(event{kind: evGone, c: c, reason: reason, abuse: abuse})
			c.hardClose()
			return
		}
		if last {
			s.linger(c)
			return
		}
	}
}

// writeAll writes bufs to nc with one vectored write, as long as each
// timeout sees some progress: it fails with os.ErrDeadlineExceeded only
// when the peer took nothing for timeout (it does not read), not when it
// reads slowly.
func writeAll(nc net.Conn, bufs [][]byte, timeout time.Duration) error {
	nb := net.Buffers(bufs)
	for {
		nc.SetWriteDeadline(time.Now().Add(timeout))
		n, err := nb.WriteTo(nc)
		if err == nil || n == 0 || !errors.Is(err, os.ErrDeadlineExceeded) || len(nb) == 0 {
			return err
		}
	}
}

// linger ends a connection after its final frame: it closes our side for
// writing, waits for the peer to close (the reader returns) for at most
// lingerTime, then closes the socket.
func (s *Server) linger(c *conn) {
	if cw, ok := c.nc.(interface{ CloseWrite() error }); ok {
		cw.CloseWrite()
	}
	t := time.NewTimer(lingerTime)
	defer t.Stop()
	select {
	case <-c.readerDone:
	case <-c.kill:
	case <-t.C:
	}
	c.hardClose()
}

// hostOf is the IP part of a remote address, the key of the per-address
// caps.
func hostOf(a net.Addr) string {
	if tcp, ok := a.(*net.TCPAddr); ok {
		return tcp.IP.String()
	}
	host, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	return host
}

// addrCount counts the joined players of each remote IP. The loop owns it.
type addrCount struct {
	hosts map[ConnID]string // the IP of each joined connection
	count map[string]int    // joined connections per IP
}

// join counts connection id, from host, as joined.
func (a *addrCount) join(id ConnID, host string) {
	a.hosts[id] = host
	a.count[host]++
}

// leave forgets connection id if it had joined.
func (a *addrCount) leave(id ConnID) {
	host, ok := a.hosts[id]
	if !ok {
		return
	}
	delete(a.hosts, id)
	if a.count[host]--; a.count[host] <= 0 {
		delete(a.count, host)
	}
}

// clip cuts s to at most n bytes without splitting a UTF-8 sequence.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
