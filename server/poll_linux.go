//go:build linux

package server

import (
	"encoding/binary"
	"io"
	"os"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"

	"gridlag/protocol"
	"gridlag/server/world"
)

// pollEvents is the most sockets one wait of a poller returns.
const pollEvents = 256

// pollBuffer is the most a poller reads from one socket at once: a
// second of a client's messages at the flood limit, and more.
const pollBuffer = 16 << 10

// poller is a shard's reader of its TCP connections on Linux: one
// goroutine waits on an epoll instance for the sockets with bytes to
// read, reads each once, decodes its frames and posts them to the
// shard's inbox, all the messages of one wait in one batch. It does what
// a reading goroutine per connection does (read), the frame size limit,
// the message rate, holding back a client that does not read and
// draining one that was told why it is closed, without a goroutine, a
// buffer and a wake-up of the scheduler per connection and per message:
// the readers of thousands of clients are a few goroutines, which the
// loop and the writers do not queue behind. The epoll instance waits in
// Go's own poller (its descriptor is an os.File's), so a poller blocks
// no thread. Sockets are read through their net.Conn's RawConn, which
// holds the descriptor open while it is read: a socket closed meanwhile
// is never mistaken for another that takes its number.
type poller struct {
	s      *Server
	sh     *shard
	epfd   int
	wakefd int             // an eventfd in the epoll instance: others wake the poller with it
	file   *os.File        // the epoll instance, in Go's poller
	rc     syscall.RawConn // file's
	conns  map[world.ConnID]*conn
	events []unix.EpollEvent
	buf    []byte
	batch  []event // the messages of a wait, posted at its end
	loud   bool    // the batch holds a message that wakes the loop

	mu    sync.Mutex
	added []*conn // connections to read from now on
	woken []*conn // connections to look at again: room came for one held back, or its socket was closed
}

// newPoller returns a poller for sh, or nil if the system gives none
// (the connections are read by a goroutine each then). Server.Serve
// starts its goroutine.
func newPoller(s *Server, sh *shard) *poller {
	epfd, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		s.log.Warn("no epoll: a goroutine reads each connection", "err", err)
		return nil
	}
	wakefd, err := unix.Eventfd(0, unix.EFD_NONBLOCK|unix.EFD_CLOEXEC)
	if err == nil {
		err = unix.EpollCtl(epfd, unix.EPOLL_CTL_ADD, wakefd, &unix.EpollEvent{Events: unix.EPOLLIN})
	}
	if err == nil {
		err = unix.SetNonblock(epfd, true)
	}
	if err != nil {
		unix.Close(epfd)
		if wakefd > 0 {
			unix.Close(wakefd)
		}
		s.log.Warn("no epoll: a goroutine reads each connection", "err", err)
		return nil
	}
	p := &poller{s: s, sh: sh, epfd: epfd, wakefd: wakefd, conns: make(map[world.ConnID]*conn),
		events: make([]unix.EpollEvent, pollEvents), buf: make([]byte, pollBuffer)}
	p.file = os.NewFile(uintptr(epfd), "epoll")
	if p.rc, err = p.file.SyscallConn(); err != nil {
		p.file.Close()
		unix.Close(wakefd)
		s.log.Warn("no epoll: a goroutine reads each connection", "err", err)
		return nil
	}
	return p
}

// add makes the poller read c from now on. The accept loop calls it
// once the loop was told of c.
func (p *poller) add(c *conn) {
	c.poller = p
	p.mu.Lock()
	p.added = append(p.added, c)
	p.mu.Unlock()
	p.wake()
}

// wakeConn has the poller look at c again: room came for it while it was
// held back, or its socket was closed.
func (p *poller) wakeConn(c *conn) {
	p.mu.Lock()
	p.woken = append(p.woken, c)
	p.mu.Unlock()
	p.wake()
}

// wake interrupts the poller's wait.
func (p *poller) wake() {
	var one [8]byte
	binary.NativeEndian.PutUint64(one[:], 1)
	unix.Write(p.wakefd, one[:]) // EAGAIN: the counter is full, the poller wakes anyway
}

// run is the poller's goroutine. It returns once the server stops and
// every connection it read is done with.
func (p *poller) run() {
	defer p.s.wg.Done()
	defer p.file.Close()
	defer unix.Close(p.wakefd)
	for {
		n, err := p.wait()
		if err != nil {
			p.s.log.Error("epoll wait failed: the connections of a shard are no longer read", "err", err)
			for _, c := range p.conns {
				p.s.hardClose(c)
				p.done(c)
			}
			return
		}
		for _, ev := range p.events[:n] {
			id := world.ConnID(uint32(ev.Fd)) | world.ConnID(uint32(ev.Pad))<<32
			if id == 0 {
				var b [8]byte
				unix.Read(p.wakefd, b[:])
				continue
			}
			if c := p.conns[id]; c != nil {
				p.readConn(c)
			}
		}
		p.takeWoken()
		p.post()
		if p.s.stopping() && len(p.conns) == 0 {
			p.mu.Lock()
			idle := len(p.added) == 0 && len(p.woken) == 0
			p.mu.Unlock()
			if idle {
				return
			}
		}
	}
}

// wait waits in Go's poller until a socket of the epoll instance (or its
// eventfd) has bytes, and returns how many p.events holds.
func (p *poller) wait() (int, error) {
	var (
		n     int
		errno error
	)
	err := p.rc.Read(func(fd uintptr) bool {
		for {
			n, errno = unix.EpollWait(int(fd), p.events, 0)
			if errno != unix.EINTR {
				return n > 0 || errno != nil
			}
		}
	})
	if err == nil {
		err = errno
	}
	return n, err
}

// takeWoken registers the connections added since the last wait, and
// looks again at those woken.
func (p *poller) takeWoken() {
	p.mu.Lock()
	added, woken := p.added, p.woken
	p.added, p.woken = nil, nil
	p.mu.Unlock()
	for _, c := range added {
		c.rd.in = newArrivals(nil, p.s.now, c.born, &c.lastRead)
		c.rd.flood = newFloodLimit(c.rd.in, p.s.opts.MaxMessageRate)
		p.conns[c.id] = c
		if !p.arm(c, unix.EPOLL_CTL_ADD) {
			p.end(c, event{kind: evGone, c: c, reason: "connection closed"})
		}
	}
	for _, c := range woken {
		switch {
		case p.conns[c.id] != c:
			// Done with already.
		case c.killed():
			p.done(c)
		case c.rd.holding && !c.mustHold():
			p.resume(c)
		}
	}
}

// arm adds c's socket to the epoll instance (op EPOLL_CTL_ADD) or takes it
// out (EPOLL_CTL_DEL), its descriptor held open meanwhile. It reports
// false if the socket is closed already.
func (p *poller) arm(c *conn, op int) bool {
	var err error
	cerr := c.raw.Control(func(fd uintptr) {
		ev := unix.EpollEvent{Events: unix.EPOLLIN | unix.EPOLLRDHUP, Fd: int32(uint32(c.id)), Pad: int32(uint32(c.id >> 32))}
		err = unix.EpollCtl(p.epfd, op, int(fd), &ev)
	})
	return cerr == nil && err == nil
}

// readConn reads what c's socket holds, once, and decodes it.
func (p *poller) readConn(c *conn) {
	if c.killed() {
		p.done(c)
		return
	}
	var (
		n     int
		errno error
	)
	err := c.raw.Read(func(fd uintptr) bool {
		n, errno = unix.Read(int(fd), p.buf)
		return true // never wait: the epoll instance says when there is more
	})
	switch {
	case err != nil:
		p.gone(c, readFailure(err))
		return
	case errno == unix.EAGAIN || errno == unix.EINTR:
		return
	case errno != nil:
		p.gone(c, readFailure(&readError{errno}))
		return
	case n == 0:
		eof := io.EOF
		if len(c.rd.pending) > 0 {
			eof = io.ErrUnexpectedEOF
		}
		p.gone(c, readFailure(eof))
		return
	}
	c.rd.in.came(n)
	if c.rd.draining {
		return
	}
	if len(c.rd.pending) > 0 {
		c.rd.pending = append(c.rd.pending, p.buf[:n]...)
		p.decode(c, c.rd.pending)
		return
	}
	p.decode(c, p.buf[:n])
}

// readError is a failed read of a socket, as a net.Conn says it.
type readError struct{ errno error }

func (e *readError) Error() string   { return "read: " + e.errno.Error() }
func (e *readError) Unwrap() error   { return e.errno }
func (e *readError) Timeout() bool   { return false }
func (e *readError) Temporary() bool { return false }

// decode passes on the whole frames of b, c's bytes not yet decoded, and
// keeps the rest for the next read; it stops at a frame that ends c, and
// where c must be held back (its frames are kept for then).
func (p *poller) decode(c *conn, b []byte) {
	for !c.rd.holding && !c.rd.draining {
		body, n, err := protocol.NextFrame(b, maxClientFrame)
		if err != nil {
			p.end(c, readFailure(err))
			return
		}
		if n == 0 {
			break
		}
		m, err := protocol.DecodeBody(body)
		if err != nil {
			p.end(c, readFailure(err))
			return
		}
		b = b[n:]
		c.rd.read += int64(n)
		if !c.rd.flood.allow(c.rd.read) {
			p.end(c, p.s.flooding(c))
			return
		}
		c.greeted.Store(true)
		if c.mustHold() {
			p.hold(c, m)
			break
		}
		p.pass(c, m)
	}
	c.rd.pending = append(c.rd.pending[:0], b...)
	if len(c.rd.pending) == 0 && cap(c.rd.pending) > maxClientFrame+protocol.HeaderLen {
		c.rd.pending = nil
	}
}

// pass posts m, from c, with the wait's batch.
func (p *poller) pass(c *conn, m protocol.Message) {
	c.unhandled.Add(1)
	p.batch = append(p.batch, event{kind: evMessage, c: c, msg: m})
	p.loud = p.loud || !p.s.waits(m)
}

// hold stops reading c, whose messages not yet handled and frames queued
// take half its send queue, m decoded and not yet passed on: as a
// reading goroutine holds back (holdBack), until room comes (wakeConn,
// from signalRoom). The time held back is not the client's silence.
func (p *poller) hold(c *conn, m protocol.Message) {
	c.rd.holding, c.rd.next = true, m
	c.holding.Store(true)
	p.arm(c, unix.EPOLL_CTL_DEL)
	c.held.Store(true)
	if !c.mustHold() { // room came before held was set: nobody else wakes us
		// Not resumed here: decode, which called us, keeps c's frames
		// not yet decoded once we return, and a resume now would decode
		// the ones before them again.
		p.wakeConn(c)
	}
}

// resume reads c again once room came: its message held, the frames
// kept, then its socket.
func (p *poller) resume(c *conn) {
	c.held.Store(false)
	c.rd.holding = false
	c.holding.Store(false)
	c.lastRead.Store(int64(p.s.now()))
	m := c.rd.next
	c.rd.next = nil
	p.pass(c, m)
	if len(c.rd.pending) > 0 {
		p.decode(c, c.rd.pending)
	}
	if !c.rd.holding && !c.rd.draining && !p.arm(c, unix.EPOLL_CTL_ADD) {
		p.end(c, event{kind: evGone, c: c, reason: "connection closed"})
	}
}

// end reports c over, for ev's reason. A connection told why it is closed
// (a final message) is drained meanwhile: read and discarded until the
// client closes its side or the socket is closed after the final frame
// (linger), so that the client reads it rather than a reset.
func (p *poller) end(c *conn, ev event) {
	ev.c = c
	p.post() // what came before it first, in order
	if p.s.post(c.shard, ev) && ev.final == nil {
		p.done(c)
		return
	}
	c.rd.draining = true
	c.rd.pending, c.rd.next = nil, nil
	if c.rd.holding {
		c.rd.holding = false
		c.held.Store(false)
		c.holding.Store(false)
		if !p.arm(c, unix.EPOLL_CTL_ADD) {
			p.done(c)
		}
	}
}

// gone reports c over, for ev's reason, when its socket has nothing more
// to read (the client closed its side, or the read failed): there is
// nothing to drain, so the reader's part is over at once, as the reading
// goroutine's drain returns at once at the socket's end. Were it kept to
// drain (end, when the server stops and takes no more events), a closing
// server would wait out lingerTime for a client that closed long before.
func (p *poller) gone(c *conn, ev event) {
	p.end(c, ev)
	p.done(c)
}

// done forgets c: its socket is out of the epoll instance (closed, or
// taken out here), and its reader's part of it is over.
func (p *poller) done(c *conn) {
	if p.conns[c.id] != c {
		return
	}
	delete(p.conns, c.id)
	p.arm(c, unix.EPOLL_CTL_DEL) // a socket closed is out already
	c.held.Store(false)
	c.holding.Store(false)
	close(c.readerDone)
	p.s.release(c)
	p.s.wg.Done()
}

// post posts the wait's batch to the shard's inbox, waking the loop if a
// message in it does not wait for the tick.
func (p *poller) post() {
	if len(p.batch) == 0 {
		return
	}
	if !p.s.postBatch(p.sh, p.batch, p.loud) {
		for _, ev := range p.batch {
			ev.c.unhandled.Add(-1)
		}
	}
	clear(p.batch)
	p.batch, p.loud = p.batch[:0], false
}
