package server

import "gridlag/protocol"

// ConnID identifies one connection to the Core. The adapter (or the sim)
// chooses it; the Core only requires that an ID is not reused while the Core
// still knows it (until Disconnect).
type ConnID uint64

// Envelope is one message the Core wants sent.
type Envelope struct {
	// To is the connection to send Msg on.
	To ConnID
	// Msg is the message. It belongs to the Core: read it, encode it, but
	// do not change it or keep it past the next call of a Core method (use
	// Copy to keep it).
	Msg protocol.Message
	// Close asks the adapter to close the connection after sending Msg.
	Close bool
}

// Copy returns the envelope with a deep copy of its message, which stays
// valid however the Core goes on. A simulated link that delays messages
// uses it.
func (e Envelope) Copy() Envelope {
	e.Msg = CopyMessage(e.Msg)
	return e
}

// CopyMessage returns a deep copy of m: a new message sharing no memory with
// m.
func CopyMessage(m protocol.Message) protocol.Message {
	switch v := m.(type) {
	case *protocol.Hello:
		c := *v
		return &c
	case *protocol.Welcome:
		c := *v
		c.Cells = append([]byte(nil), v.Cells...)
		c.Players = append([]protocol.PlayerInfo(nil), v.Players...)
		return &c
	case *protocol.Error:
		c := *v
		return &c
	case *protocol.Input:
		c := *v
		return &c
	case *protocol.State:
		c := *v
		c.Players = append(c.Players[:0:0], v.Players...)
		return &c
	case *protocol.Ping:
		c := *v
		return &c
	case *protocol.Pong:
		c := *v
		return &c
	case *protocol.Bye:
		c := *v
		return &c
	case *protocol.Join:
		c := *v
		return &c
	case *protocol.Leave:
		c := *v
		return &c
	}
	return m
}
