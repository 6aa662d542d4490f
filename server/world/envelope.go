package world

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
	// do not change it or keep it past the next call of a Core method
	// (encode it to keep it).
	Msg protocol.Message
	// Close asks the adapter to close the connection after sending Msg.
	Close bool
}
