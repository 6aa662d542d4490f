package server

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"gridlag/internal/notify"
	"gridlag/protocol"
	"gridlag/server/hub"
	"gridlag/server/world"
)

// maxClientFrame is the largest frame body a client may send. The largest
// client message, a Hello with a 255-byte name, is 261 bytes; anything far
// larger (such as "GET / HTTP/1.1" read as a length) is refused at once
// instead of waiting for kilobytes that will never come.
const maxClientFrame = 1024

// connState is where a connection is in its life, as the loop sees it.
type connState uint8

const (
	// connOpen: the hub's messages for it are queued.
	connOpen connState = iota
	// connClosing: its last frame is queued (an Error, a Bye): nothing
	// more is, and its writer closes it after that frame.
	connClosing
	// connStalled: a frame for it could not be queued (stall says why):
	// it is dropped at the end of the flush.
	connStalled
	// connGone: the hub was told it ended, or ended it; only its
	// goroutines are left.
	connGone
)

// conn is one client connection of the TCP adapter.
type conn struct {
	id         world.ConnID
	nc         net.Conn
	raw        syscall.RawConn // nc's descriptor, for writes that never wait; nil if nc has none
	remote     string
	from       hub.Origin // its address (ownHost for the server's own, Own), and what it is trusted with
	shard      *shard
	queueCap   int           // the most frames that may wait
	byteCap    int           // the most bytes they may hold
	queued     atomic.Int32  // frames queued, not yet taken by the writer
	queuedB    atomic.Int64  // their bytes
	room       chan struct{} // signalled when a message was handled or frames taken, for a reader holding back
	unhandled  atomic.Int32  // messages passed to the loop and not yet handled
	kill       chan struct{} // closed when the socket is closed for good
	killOnce   sync.Once
	readerDone chan struct{} // closed when the reader has returned
	running    int32         // reader and socket still open (2, 1, 0); guarded by Server.mu
	born       time.Duration // when it was accepted, on the loop's clock
	lastRead   atomic.Int64  // when a read last brought bytes, on the loop's clock
	greeted    atomic.Bool   // a whole message has come
	holding    atomic.Bool   // the reader holds back: the client's silence is the server's doing
	poller     *poller       // the shard's poller that reads it, nil if a goroutine of its own does (read)
	held       atomic.Bool   // its poller holds it back: room for it wakes the poller (signalRoom)

	// Guarded by shard.mu.
	out      outQueue // what waits for the socket
	listed   bool     // in shard.ready
	closing  bool     // the final frame is queued: close after it
	behind   bool     // a State was skipped: the next one queued is a full picture
	sockFull bool     // the socket did not take all it was given last

	// Owned by the shard's writer.
	progress  time.Time // when the socket last took bytes, or nothing was waiting
	blocked   bool      // the socket did not take everything last time (sockFull, for the writer)
	inPending bool      // in shard.pending

	// Owned by its poller, if one reads it.
	rd pollRead

	// Owned by the loop goroutine.
	state    connState
	answered int32  // messages handled since the last flush, whose answers it queues
	stall    string // why a frame could not be queued for it (connStalled)
	// states is the server's end of the stream of States to it: the
	// last State encoded for it, the base of a step.
	states protocol.StateStream
	// heldEvs is what it said from its handshake on, held back for the
	// ticks' spare time (joinGate).
	heldEvs []event
}

func newConn(id world.ConnID, nc net.Conn, from hub.Origin, sh *shard, queue, queueBytes int, born time.Duration) *conn {
	c := &conn{
		id:         id,
		nc:         nc,
		remote:     nc.RemoteAddr().String(),
		from:       from,
		shard:      sh,
		queueCap:   queue,
		byteCap:    queueBytes,
		room:       make(chan struct{}, 1),
		kill:       make(chan struct{}),
		readerDone: make(chan struct{}),
		born:       born,
	}
	if sc, ok := nc.(syscall.Conn); ok {
		c.raw, _ = sc.SyscallConn()
	}
	return c
}

// push queues f for the writer without blocking. It reports full if the
// queue is full: it holds queueCap frames, or f would take its bytes
// past byteCap (a frame always fits an empty queue). The bytes count
// what the client is owed, even where frames share them (a map's
// chunks): a client that does not read is owed no more than byteCap,
// and its queue holds no more memory than that.
//
// A client behind is sent the newest State once it caught up instead of
// a backlog of them: a State is skipped while one queued before it is
// not written whole and the socket is full (not merely while the writer
// has yet to come to it), and after that the States are skipped until a
// full picture comes (pushed resync: the loop asks the hub for one, see
// hub.Hub.Resync), for a skipped State's news are not in the next. The
// loop calls it, then wakes the writers once.
func (c *conn) push(f frame) pushed {
	sh := c.shard
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if f.state {
		switch {
		case c.sockFull && c.out.stateWaits():
			c.behind = true
			return skipped
		case c.behind && !f.full:
			return resync
		}
		c.behind = false
	}
	n := c.out.frames()
	if n >= c.queueCap || n > 0 && c.out.bytes+len(f.head) > c.byteCap {
		return full
	}
	c.out.add(f)
	c.closing = c.closing || f.close
	c.queued.Store(int32(c.out.frames()))
	c.queuedB.Store(int64(c.out.bytes))
	if !c.listed {
		c.listed = true
		sh.ready = append(sh.ready, c)
	}
	sh.queued = true
	return queued
}

// pushed is what push did with a frame.
type pushed uint8

const (
	queued  pushed = iota
	skipped        // a State, while another waits
	resync         // a State skipped, caught up: the next must be a full picture
	full           // the queue is full
)

// writeBudget is about the most a connection is given in one write: a
// client that lags behind is sent what waits a budget at a time.
const writeBudget = 64 << 10

// pieces appends to dst the bytes waiting first for one write, about a
// writeBudget of them (see outQueue.pieces), and reports whether the
// final frame is queued. The writer calls it.
func (c *conn) pieces(dst [][]byte) ([][]byte, bool) {
	c.shard.mu.Lock()
	defer c.shard.mu.Unlock()
	return c.out.pieces(dst, writeBudget), c.closing
}

// wrote takes off the queue the n bytes the socket took, noting whether
// it took less than it was given (full: then what waits is copied out of
// the encoders' chunks, outQueue.settle), and wakes the reader if it
// holds back. The writer calls it.
func (c *conn) wrote(n int, full bool) {
	c.shard.mu.Lock()
	c.sockFull = full
	c.out.consume(n)
	if full {
		c.out.settle()
	}
	c.queued.Store(int32(c.out.frames()))
	c.queuedB.Store(int64(c.out.bytes))
	c.shard.mu.Unlock()
	if n > 0 {
		c.signalRoom()
	}
}

// writeSome writes what the socket takes of bufs at once, in one system
// call, without waiting: nothing if its buffer is full.
func (c *conn) writeSome(bufs [][]byte) (int, error) {
	if c.raw == nil {
		// A connection without a descriptor (not TCP): an ordinary write,
		// bounded by a deadline.
		c.nc.SetWriteDeadline(time.Now().Add(retryInterval))
		nb := net.Buffers(bufs)
		n, err := nb.WriteTo(c.nc)
		if errors.Is(err, os.ErrDeadlineExceeded) {
			err = nil
		}
		return int(n), err
	}
	var (
		n     int
		errno error
	)
	err := c.raw.Write(func(fd uintptr) bool {
		n, errno = writev(fd, bufs)
		return true // never wait for the socket: the writer comes back
	})
	switch {
	case err != nil:
		return 0, err
	case errno == syscall.EAGAIN || errno == syscall.EINTR:
		return 0, nil
	case errno != nil:
		return 0, errno
	}
	return n, nil
}

// queueFull is the reason a client whose queue is full is dropped.
func (c *conn) queueFull() string {
	return "too slow: " + strconv.Itoa(int(c.queued.Load())) + " frames of " +
		strconv.FormatInt(c.queuedB.Load(), 10) + " bytes queued unread (at most " +
		strconv.Itoa(c.queueCap) + " frames, " + strconv.Itoa(c.byteCap) + " bytes)"
}

// signalRoom wakes the reader if it holds back.
func (c *conn) signalRoom() {
	if c.held.Load() {
		c.poller.wakeConn(c)
		return
	}
	notify.Poke(c.room)
}

// killed reports whether the socket was closed for good.
func (c *conn) killed() bool {
	select {
	case <-c.kill:
		return true
	default:
		return false
	}
}

// hardClose closes c's socket now, dropping whatever is queued. s.mu must
// not be held.
func (s *Server) hardClose(c *conn) {
	c.killOnce.Do(func() {
		close(c.kill)
		c.nc.Close()
		s.release(c)
		if c.poller != nil {
			c.poller.wakeConn(c) // its socket is out of the epoll instance: the poller learns of it here
		}
	})
}

// pollRead is what a poller keeps of a connection it reads: what a
// reading goroutine keeps on its stack (read).
type pollRead struct {
	in       *arrivals
	flood    *floodLimit
	pending  []byte           // bytes read of a frame not yet whole (and, held back, of those after it)
	read     int64            // bytes of the frames decoded so far
	next     protocol.Message // held back: the message decoded and not yet passed on
	holding  bool             // held back: not read until room comes
	draining bool             // ended with a final message: read and discarded
}

// eventKind says what a connection goroutine reports to the loop.
type eventKind uint8

const (
	evConnect eventKind = iota // a new connection (from the accept loop)
	evMessage                  // a decoded message
	evGone                     // the connection is over (from its reader or writer)
	evNotice                   // Drain began: the hub counts down; c is nil
)

// event is what connection goroutines pass to the loop.
type event struct {
	kind   eventKind
	c      *conn
	msg    protocol.Message // evMessage
	reason string           // evGone: why, for the log and the hub
	final  protocol.Message // evGone: a last message to send before closing, or nil
	abuse  bool             // evGone: log as a warning (malformed, flood, timeout, slow)
}

// read is the connection's reader goroutine: it decodes frames and passes
// them to the loop, enforcing the frame size limit and the message rate.
// It never sets a deadline: the loop's janitor checks for silence.
func (s *Server) read(c *conn) {
	defer s.wg.Done()
	defer s.release(c)
	defer close(c.readerDone)
	in := newArrivals(c.nc, s.now, c.born, &c.lastRead)
	br := bufio.NewReaderSize(in, 4096)
	dec := protocol.NewDecoder(br)
	dec.MaxFrame = maxClientFrame
	flood := newFloodLimit(in, s.opts.MaxMessageRate)
	for {
		m, err := dec.Decode()
		if err != nil {
			ev := readFailure(err)
			ev.c = c
			if s.post(c.shard, ev) && ev.final == nil {
				return
			}
			s.drain(c, br)
			return
		}
		if !flood.allow(dec.BytesRead) {
			s.post(c.shard, s.flooding(c))
			s.drain(c, br)
			return
		}
		c.greeted.Store(true)
		if !s.holdBack(c) {
			s.drain(c, br)
			return
		}
		c.unhandled.Add(1)
		post := s.post
		if s.waits(m) {
			post = s.postQuiet
		}
		if !post(c.shard, event{kind: evMessage, c: c, msg: m}) {
			s.drain(c, br)
			return
		}
	}
}

// waits reports whether m may wait in the inbox for the loop's next wake
// without waking it: a move waits for the tick anyway (the loop takes the
// inbox before each), unless the server answers every input at once
// (Rate 0).
func (s *Server) waits(m protocol.Message) bool {
	_, ok := m.(*protocol.Input)
	return ok && s.opts.Hub.Config.Rate > 0
}

// flooding is the event that ends c for sending more than
// MaxMessageRate messages a second.
func (s *Server) flooding(c *conn) event {
	return event{kind: evGone, c: c, abuse: true,
		reason: fmt.Sprintf("flooding: more than %d messages per second", s.opts.MaxMessageRate),
		final:  &protocol.Error{Code: protocol.ErrCodeFlood, Text: fmt.Sprintf("too many messages: at most %d per second", s.opts.MaxMessageRate)}}
}

// holdBack waits, before the reader passes on another message, while
// the messages not yet handled and the frames queued for the connection
// take half of its send queue: a client is answered (Pongs) only as fast
// as it reads, so a burst within the flood limit never overflows its
// queue, and one that stops reading stops being read (the write stall
// check then drops it). Time held back does not count as the client's
// silence. It reports false if the connection or the server is closing.
func (s *Server) holdBack(c *conn) bool {
	if !c.mustHold() {
		return true
	}
	c.holding.Store(true)
	defer func() {
		c.lastRead.Store(int64(s.now()))
		c.holding.Store(false)
	}()
	for c.mustHold() {
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

// mustHold reports whether the messages not yet handled and the frames
// queued take half of c's send queue, or the frames half of its bytes.
func (c *conn) mustHold() bool {
	return int(c.unhandled.Load()+c.queued.Load()) >= c.queueCap/2 && c.queueCap > 1 ||
		c.queuedB.Load() >= int64(c.byteCap/2)
}

// readFailure turns a read error into the event that ends the connection.
func readFailure(err error) event {
	ev := event{kind: evGone}
	var (
		ne net.Error
		fe *protocol.FrameSizeError
	)
	if errors.As(err, &fe) {
		err = fmt.Errorf("frame of %d bytes, more than a client ever sends (%d)", fe.Size, fe.Max)
	}
	switch {
	case errors.Is(err, io.EOF):
		ev.reason = "connection closed by the client"
	case errors.Is(err, io.ErrUnexpectedEOF):
		ev.reason = "connection closed by the client in the middle of a frame"
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

// linger ends a connection after its final frame: it closes our side for
// writing, waits for the peer to close (the reader returns) for at most
// lingerTime, then closes the socket.
func (s *Server) linger(c *conn) {
	defer s.wg.Done()
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
	s.hardClose(c)
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
