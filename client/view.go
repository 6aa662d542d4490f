package client

import (
	"time"

	"gridlag/grid"
)

// View is a snapshot of everything a client knows, taken at one moment, for
// an interface to draw. It shares nothing mutable with the client.
type View struct {
	Now       time.Duration // the client's clock when the view was taken
	Connected bool          // the handshake is done and the connection is up
	Err       error         // why the connection ended, if it did
	// Reconnecting is true from a dropped connection until the resumed
	// one has caught up: presses are held meanwhile and sent then.
	Reconnecting bool
	Notice       string // the server operator's last notice, such as "server restarting in 10 s"; "" if none

	Me   grid.PlayerID
	Name string
	Map  *grid.Map // nil until the Welcome arrives

	// Predicted is where the player sees their own avatar: the prediction
	// when prediction is on, the server's word otherwise.
	Predicted grid.Pos
	// Server is where the server last said the player is.
	Server grid.Pos
	// HasState is false until the first State arrives.
	HasState bool

	// Pending lists the unacknowledged inputs, oldest first.
	Pending []PendingInput
	// LastAck is the last input number the server acknowledged.
	LastAck uint32
	// Corrections counts the times the server's word moved the predicted
	// avatar away from where prediction had it.
	Corrections int
	// LastCorrection is the most recent correction, nil if none.
	LastCorrection *Correction

	// RTT is the last measured round trip (0 until measured).
	RTT time.Duration

	// Others are the other players as they are drawn: interpolated in the
	// past when interpolation is on, at their latest known cell otherwise.
	Others []Other

	Predict     bool
	Reconcile   bool
	Interpolate bool
	// InterpDelay is how far in the past others are drawn.
	InterpDelay time.Duration
	// RenderTime is the server time others are drawn at when interpolating
	// (now on the server's clock, minus InterpDelay); 0 before any State.
	RenderTime time.Duration

	UpdateRate int           // server states per second (0 = one per input)
	MoveTime   time.Duration // the speed limit
	Latency    time.Duration // injected round-trip latency
	Jitter     time.Duration // injected jitter per message
}

// PendingInput is one unacknowledged input.
type PendingInput struct {
	Seq uint32
	Dir grid.Dir
	Age time.Duration // time since it was sent
}

// Other is another player as drawn.
type Other struct {
	ID    grid.PlayerID
	Name  string // sanitised for display
	Color uint8  // palette index from the server
	Pos   grid.Pos
}

// Correction records one time the server's word moved the predicted avatar.
type Correction struct {
	At     time.Duration // when it happened, on the client's clock
	From   grid.Pos      // where prediction had the avatar
	To     grid.Pos      // where it is after reconciliation
	Seq    uint32        // the acknowledged input that revealed it
	Reason string        // a few words, e.g. "blocked by another player"
}
