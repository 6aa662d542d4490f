package world

// Batch is what the Core produced between two Outbox calls, in order: the
// messages to send and, for logging, what happened.
type Batch struct {
	// Envelopes are the messages to send.
	Envelopes []Envelope
	// Events are the joins, leaves and refusals.
	Events []Event
}
