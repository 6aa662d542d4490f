package client

import "gridlag/protocol"

// NoteKind is the kind of a Note.
type NoteKind uint8

// The kinds of notes a core reports.
const (
	// Arrived: the core handled a message from the server (Msg); a View
	// taken now shows its effect. Correction is set if it moved the
	// predicted avatar.
	Arrived NoteKind = iota
	// HeldSent: the speed limit let a held press go (while away, it was
	// numbered and held).
	HeldSent
	// Entered: the connection entered Phase; for Closed, Err says why.
	Entered
	// Lived: an input's life ended (Life): the State that acknowledged it
	// arrived and was reconciled. Noted after that State's Arrived.
	Lived
	// LinkChanged: the trace the injected link follows took a step (Step
	// names it): its conditions changed, or a stall began.
	LinkChanged
)

// Note is one thing that happened to a core, in the order it happened:
// a core reports them in its outbox (Batch.Notes) beside the messages to
// send, and a Driver hands them to the function given to Driver.Observe
// as it empties the outbox.
type Note struct {
	Kind NoteKind
	// Msg is the message that arrived (Arrived).
	Msg protocol.Message
	// Correction is how the message moved the predicted avatar
	// (Arrived), nil if it did not.
	Correction *Correction
	// Phase is the phase entered (Entered).
	Phase Phase
	// Err is why the connection closed (Entered Closed).
	Err error
	// Life is the input's whole life (Lived).
	Life *InputLife
	// Step names the trace's step (LinkChanged).
	Step string
}

// Batch is what a core produced since its last Outbox call, in order: the
// messages to send to the server and the notes of what happened.
type Batch struct {
	Messages []protocol.Message
	Notes    []Note
}
