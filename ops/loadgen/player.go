package loadgen

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
)

// window is how many inputs a player may have unacknowledged: past it, it
// waits for the server before sending more.
const window = 256

// player is one light player: its connection and what it measures. Its
// reader goroutine owns the decoder; a writer goroutine sends its inputs;
// mu guards what both touch.
type player struct {
	nc       net.Conn
	dec      *protocol.Decoder
	id       grid.PlayerID
	m        *grid.Map
	moveTime time.Duration
	joined   time.Duration    // run time of the Welcome
	left     time.Duration    // run time the reader returned
	inBase   int64            // bytes of the handshake, not counted
	first    protocol.Message // read after the map's bits, to be taken first

	mu     sync.Mutex
	seq    uint32                // last input sent
	acked  uint32                // last input acknowledged
	sentAt [window]time.Duration // run time each unacknowledged input was written, by Seq
	pos    grid.Pos              // where it thinks it stands, once known
	placed bool                  // pos is known
	dir    grid.Dir              // its last move
	drop   string                // why the connection ended before the run did

	next    time.Duration // run time the next input is due; the writer's
	out     atomic.Int64  // bytes written after the handshake
	pongs   atomic.Int64  // Pongs written
	leaving atomic.Bool   // the run is ending: the server's Bye is expected
	dead    atomic.Bool   // the connection is over
}

// connect dials the server and says Hello as player n (from 1); it
// returns the welcomed player, or why it was refused.
func (r *run) connect(ctx context.Context, n int) (*player, error) {
	if n == 1 {
		// A server older than version 6 says no Admission, and a dial
		// that fails hears nothing: the players after the first wait no
		// longer either way (learnSpread).
		defer r.line.answered(nil)
	}
	defer r.plan.answered(n)
	d := net.Dialer{Timeout: r.opts.HandshakeTimeout, LocalAddr: r.source(n)}
	nc, err := d.DialContext(ctx, "tcp", r.opts.Addr)
	if err != nil {
		return nil, err
	}
	nc.SetDeadline(time.Now().Add(r.opts.HandshakeTimeout))
	hello := &protocol.Hello{Version: protocol.Version, Name: fmt.Sprintf("%s-%d", r.opts.NamePrefix, n), Bot: true, Room: r.room(n)}
	if err := protocol.NewEncoder(nc).Encode(hello); err != nil {
		nc.Close()
		return nil, err
	}
	dec := protocol.NewDecoder(bufio.NewReaderSize(nc, 4096))
	hs := handshake{dec: dec, known: r.knowsMap, heard: func(m protocol.Message) {
		switch v := m.(type) {
		case *protocol.Admission:
			if n == 1 {
				r.line.answered(v)
			}
			r.line.admits(v)
		case *protocol.Queued:
			r.plan.answered(n) // in line for its room: the room is open
		}
		nc.SetDeadline(time.Now().Add(r.opts.HandshakeTimeout)) // the server speaks: its line moves
	}}
	began := time.Now()
	w, first, handshake, err := hs.welcome(&r.line)
	hs.wait.waited = time.Since(began)
	r.line.took(hs.wait, err)
	if err != nil {
		nc.Close()
		return nil, err
	}
	nc.SetDeadline(time.Time{})
	m, err := r.mapOf(w)
	if err != nil {
		nc.Close()
		return nil, err
	}
	p := &player{nc: nc, dec: dec, id: w.Player, m: m, moveTime: r.opts.MoveTime, joined: r.since(), inBase: handshake, first: first}
	if p.moveTime == 0 {
		p.moveTime = time.Duration(w.MoveTimeMS) * time.Millisecond
	}
	p.next = p.joined
	return p, nil
}

// handshake reads the server's answer to a player's Hello.
type handshake struct {
	dec   *protocol.Decoder
	known func(w *protocol.Welcome) bool // the run has w's map already
	heard func(m protocol.Message)       // called on the Admission and each Queued
	wait  waitLine                       // what it heard of the server's line
}

// welcome reads the server's answer to the Hello: its rules of
// admission and the player's places in its line, if it says them, then
// the Welcome, and the MapBits of a map too big for the Welcome, which it
// decodes into the Welcome's Cells; unless known says the run has that
// map already (every player of a run plays the same server): then it
// reads them without decoding them, and returns the message after them.
// handshake is the bytes of the handshake: all read, but for that
// message.
func (hs *handshake) welcome(l *lineStats) (w *protocol.Welcome, next protocol.Message, handshake int64, err error) {
	dec := hs.dec
	for {
		m, err := dec.Decode()
		if err != nil {
			return nil, nil, 0, err
		}
		switch v := m.(type) {
		case *protocol.Admission:
			hs.heard(v)
			continue
		case *protocol.Queued:
			hs.wait.heard(v, l)
			hs.heard(v)
			continue
		case *protocol.Notice:
			hs.heard(v)
			continue // the operator's word (a drain's countdown), or an older server's place in line
		case *protocol.Welcome:
			switch {
			case !v.MapFollows():
				return v, nil, dec.BytesRead, nil
			case hs.known(v):
				next, handshake, err := skipMap(dec)
				return v, next, handshake, err
			}
			err := readMap(dec, v)
			return v, nil, dec.BytesRead, err
		case *protocol.Error:
			return nil, nil, 0, serverRefusal(protocol.Printable(v.Text))
		}
		return nil, nil, 0, fmt.Errorf("%v instead of Welcome", m.Type())
	}
}

// skipMap reads the map's MapBits without decoding them, and returns the
// message after them and the bytes read before it (the handshake's).
func skipMap(dec *protocol.Decoder) (protocol.Message, int64, error) {
	for {
		before := dec.BytesRead
		m, skipped, err := dec.Skip(protocol.TypeMapBits)
		if err != nil || !skipped {
			return m, before, err
		}
	}
}

// readMap reads the MapBits of w's map and decodes them into w.Cells.
func readMap(dec *protocol.Decoder, w *protocol.Welcome) error {
	buf := protocol.NewMapBitsBuffer(w.MapWidth, w.MapHeight)
	for {
		m, err := dec.Decode()
		if err != nil {
			return err
		}
		bits, ok := m.(*protocol.MapBits)
		if !ok {
			return fmt.Errorf("%v instead of the map's bits", m.Type())
		}
		switch got, err := buf.Add(bits); {
		case err != nil:
			return err
		case got != nil:
			w.Cells = got.Cells()
			return nil
		}
	}
}

// read reads the server's frames until the connection ends: it takes the
// acknowledgements from the States and answers the Pings.
func (p *player) read(r *run) {
	defer func() { p.left = r.since() }()
	var pong []byte
	for {
		m, err := p.first, error(nil)
		if m != nil {
			p.first = nil
		} else {
			m, err = p.dec.Decode()
		}
		switch {
		case err == nil:
		case endOfStream(err):
			p.end(reasonOf(err))
			return
		default:
			// A frame this build cannot decode: the stream is still in
			// step, and the acknowledgements come in the next State.
			r.undecodable.Add(1)
			continue
		}
		switch v := m.(type) {
		case *protocol.State:
			p.ack(r, v)
		case *protocol.Ping:
			pong, _ = protocol.Append(pong[:0], &protocol.Pong{Stamp: v.Stamp})
			if !p.write(pong) {
				return
			}
			p.pongs.Add(1)
		case *protocol.Error:
			p.end("server error: " + protocol.Printable(v.Text))
			return
		case *protocol.Bye:
			p.end("server said bye: " + protocol.Printable(v.Reason))
			return
		}
	}
}

// ack takes a State's acknowledgement: every input up to it has made its
// round trip. It reads only the State's head, and the player list of the
// first State, to learn where the player stands.
func (p *player) ack(r *run, st *protocol.State) {
	now := r.since()
	p.mu.Lock()
	for ; p.acked < min(st.Ack, p.seq); p.acked++ {
		r.rtt.add(now - p.sentAt[(p.acked+1)%window])
	}
	if !p.placed {
		if i := slices.IndexFunc(st.Players, func(pp grid.PlayerPos) bool { return pp.ID == p.id }); i >= 0 { // in any order
			p.pos, p.placed = st.Players[i].Pos, true
			p.dec.HeadsOnly = true // from now on, only the acknowledgements matter
		}
	}
	p.mu.Unlock()
}

// write writes a frame; false if the connection is over.
func (p *player) write(b []byte) bool {
	n, err := p.nc.Write(b)
	p.out.Add(int64(n))
	if err != nil {
		p.end(reasonOf(err))
		return false
	}
	return true
}

// end records why the connection ended, unless the run ended it or it
// ended already, and closes it.
func (p *player) end(reason string) {
	p.mu.Lock()
	if !p.leaving.Load() && p.drop == "" && !p.dead.Load() {
		p.drop = reason
	}
	p.mu.Unlock()
	p.dead.Store(true)
	p.nc.Close()
}

// unacked is how many inputs the server has not acknowledged yet.
func (p *player) unacked() uint32 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.seq - p.acked
}

// endOfStream reports whether a Decode error ended the connection, rather
// than a frame that did not decode.
func endOfStream(err error) bool {
	var ne net.Error
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed) || errors.As(err, &ne)
}

// reasonOf names a connection's failure without its addresses, so that
// many alike count as one reason.
func reasonOf(err error) string {
	var errno syscall.Errno
	switch {
	case errors.Is(err, io.EOF):
		return "connection closed by the server"
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "connection closed by the server in the middle of a frame"
	case errors.Is(err, os.ErrDeadlineExceeded):
		return "timed out"
	case errors.Is(err, net.ErrClosed):
		return "connection closed"
	case errors.As(err, &errno):
		return errno.Error()
	}
	return err.Error()
}
