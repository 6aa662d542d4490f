package client

import "gridlag/protocol"

// NoteKind is the kind of a Note.
type NoteKind uint8

// The kinds of notes a Driver reports.
const (
	Arrived  NoteKind = iota // the core handled a message from the server
	HeldSent                 // the speed limit let a held press go
	Ended                    // the connection ended (Core.Err says why)
)

// Note is one thing a Driver did with its core during a Step, reported to
// the function given to Driver.Observe while it happens: a View taken
// then shows its effect.
type Note struct {
	Kind NoteKind
	// Msg is the message that arrived (Arrived).
	Msg protocol.Message
	// Corrected says the message moved the predicted avatar (Arrived);
	// View().LastCorrection tells how.
	Corrected bool
}
