package server

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
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
	send       chan frame    // frames for the writer; bounded
	kill       chan struct{} // closed to make the writer stop at once
	killOnce   sync.Once
	readerDone chan struct{} // closed when the reader has returned
	running    int32         // goroutines still running (reader, writer); guarded by Server.mu

	// Owned by the loop goroutine.
	dropped bool // the Core was told it is gone
	closing bool // a final frame is queued; nothing more is sent
	stalled bool // its queue was full
}

func newConn(id ConnID, nc net.Conn, queue int) *conn {
	return &conn{
		id:         id,
		nc:         nc,
		remote:     nc.RemoteAddr().String(),
		send:       make(chan frame, queue),
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
)

// event is what connection goroutines pass to the loop.
type event struct {
	kind   eventKind
	c      *conn
	msg    protocol.Message // evMessage
	reason string           // evGone: why, for the log and the Core
	final  protocol.Message // evGone: a last message to send before closing, or nil
	abuse  bool             // evGone: log as a warning (malformed, flood, timeout, slow)
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
		c.nc.SetReadDeadline(now.Add(s.opts.IdleTimeout))
		if !s.deliver(event{kind: evMessage, c: c, msg: m}) {
			s.drain(c, br)
			return
		}
	}
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
		c.nc.SetWriteDeadline(time.Now().Add(timeout))
		nb := net.Buffers(bufs)
		_, err := nb.WriteTo(c.nc)
		clear(bufs) // let the frames' memory go
		if err != nil {
			c.hardClose()
			reason := "write error: " + err.Error()
			abuse := false
			if errors.Is(err, os.ErrDeadlineExceeded) {
				reason, abuse = "too slow: nothing written for "+timeout.String(), true
			}
			s.deliver(event{kind: evGone, c: c, reason: reason, abuse: abuse})
			return
		}
		if last {
			s.linger(c)
			return
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
