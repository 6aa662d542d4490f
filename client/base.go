package client

import (
	"errors"
	"fmt"
	"time"

	"gridlag/protocol"
)

// base is what a player's Core and a Spectator share: the phase of the
// connection and the notes of its changes, the outbox, the server's last
// notice, and the keep-alive (a Ping every ping interval while the
// connection is up, and the silence timeout).
type base struct {
	opts   Options
	phase  Phase
	err    error
	notice string // the server's last Notice, printable
	// line is the client's place in the server's line, while it waits
	// there (version 6): from the last Queued until the Welcome (or
	// Spectating), nil before and after. admission is the server's rules
	// of admission, nil until said.
	line      *protocol.Queued
	admission *protocol.Admission
	out       []protocol.Message
	notes     []Note

	nextPing  time.Duration // when the next Ping is due
	lastHeard time.Duration // when the last message from the server arrived
}

func newBase(now time.Duration, opts Options) base {
	return base{opts: opts, nextPing: now, lastHeard: now}
}

// Phase returns where the connection is.
func (b *base) Phase() Phase { return b.phase }

// Err returns why the connection closed, or nil.
func (b *base) Err() error { return b.err }

// Outbox returns the messages to send, in order, and the notes of what
// happened since the last call, and empties both. The slices are valid
// until the next call of a method of the core.
func (b *base) Outbox() Batch {
	batch := Batch{Messages: b.out, Notes: b.notes}
	b.out, b.notes = b.out[:0], b.notes[:0]
	return batch
}

func (b *base) send(m protocol.Message) { b.out = append(b.out, m) }

func (b *base) note(n Note) { b.notes = append(b.notes, n) }

// enter moves the connection to phase p, and notes it.
func (b *base) enter(p Phase) {
	if b.phase != p {
		b.phase = p
		b.note(Note{Kind: Entered, Phase: p})
	}
}

// fail closes the connection for reason err, unless it is closed.
func (b *base) fail(err error) {
	if b.phase != Closed {
		b.err = err
		b.phase = Closed
		b.note(Note{Kind: Entered, Phase: Closed, Err: err})
	}
}

// refuse closes the connection for err and returns it.
func (b *base) refuse(err error) error {
	b.fail(err)
	return err
}

// close marks the connection closed by the local side and queues a Bye
// saying why.
func (b *base) close(reason string) {
	if b.phase == Closed {
		return
	}
	b.send(&protocol.Bye{Reason: reason})
	b.fail(ErrClosed)
}

// Disconnected records that the connection was lost for reason err.
func (b *base) Disconnected(err error) {
	if err == nil {
		err = errors.New("client: connection lost")
	}
	b.fail(err)
}

// ends handles what any phase takes from the server alike: a refusal and
// a goodbye end the connection, a notice is kept to be shown. It reports
// whether m was one of them.
func (b *base) ends(m protocol.Message) bool {
	switch m := m.(type) {
	case *protocol.Error:
		b.fail(refusalError(m))
	case *protocol.Bye:
		b.fail(byeError(m))
	case *protocol.Notice:
		// The operator's word, such as a drain's countdown: it reaches
		// the screen.
		b.notice = protocol.Printable(m.Text)
	case *protocol.Admission:
		if b.phase != Handshaking && b.phase != Resuming {
			b.fail(fmt.Errorf("client: %v after the handshake", m.Type()))
			break
		}
		b.admission = m
	case *protocol.Queued:
		// A place in the server's line: it reaches the screen, until the
		// Welcome lets the client in.
		if b.phase != Handshaking {
			b.fail(fmt.Errorf("client: %v after the handshake", m.Type()))
			break
		}
		b.line = m // its Arrived note carries it to whoever observes
	default:
		return false
	}
	return true
}

// noticeShown is the notice to show: the place in the server's line while the
// client waits there, else the server's last Notice.
func (b *base) noticeShown() string {
	if b.line != nil {
		return "waiting: " + b.line.Text()
	}
	return b.notice
}

// admitted records that the server let the client in: it no longer
// waits in line.
func (b *base) admitted() { b.line = nil }

// Admission returns the server's rules of admission, as it said them in
// answer to the handshake (version 6), or nil.
func (b *base) Admission() *protocol.Admission { return b.admission }

// silent returns the error of a server silent at time now for the
// server timeout or longer, nil if it spoke in time.
func (b *base) silent(now time.Duration, words string) error {
	if silent := now - b.lastHeard; silent >= b.opts.serverTimeout() {
		return fmt.Errorf("client: no %s from the server for %v", words, silent.Round(time.Millisecond))
	}
	return nil
}

// giveUpAt is when the silence timeout ends the connection.
func (b *base) giveUpAt() time.Duration { return b.lastHeard + b.opts.serverTimeout() }

// keepAlive sends a Ping if one is due at time now: its Pong gives a
// player its round trip, and keeps a spectator who sends nothing else
// from being dropped as idle.
func (b *base) keepAlive(now time.Duration) {
	if now >= b.nextPing {
		b.send(&protocol.Ping{Stamp: uint64(now)})
		b.nextPing = now + b.opts.pingInterval()
	}
}

// nextWake is the earlier of the next Ping and the silence timeout.
func (b *base) nextWake() time.Duration { return min(b.nextPing, b.giveUpAt()) }
