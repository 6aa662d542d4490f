package client

import (
	"time"

	"gridlag/grid"
)

// View is a snapshot of everything a client knows, taken at one moment, for
// an interface to draw. It shares nothing mutable with the client.
type View struct {
	Now time.Duration // the client's clock when the view was taken
	// Phase is where the connection is (see Phase); Connected and
	// Reconnecting say the same in the words an interface asks in.
	Phase Phase
	// Connected: the server welcomed this connection and it is up
	// (Joining, Playing, CatchingUp).
	Connected bool
	Err       error // why the connection ended, if it did
	// Reconnecting is true from a dropped connection until the resumed
	// one has caught up (Reconnecting, Resuming, CatchingUp): presses are
	// held meanwhile and sent then.
	Reconnecting bool
	Notice       string // the server operator's last notice, such as "server stopping in 10 s"; "" if none

	Me   grid.PlayerID
	Name string // the player's name, as the server has it
	// AskedName is the name the player asked for when the server gave it
	// another (a player of that name was in the room: Name is then
	// "stud2-2" for "stud2"); "" when it plays under the name it asked.
	AskedName string
	Map       *grid.Map // nil until the Welcome arrives

	// Predicted is where the player sees their own avatar: the prediction
	// when prediction is on, the server's word otherwise.
	Predicted grid.Pos
	// Shown is where the interface draws the avatar: Predicted, unless
	// smoothing (Smooth) slides a correction over one move time from
	// where prediction had it.
	Shown  grid.Pos
	Smooth bool
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

	// Zap tag. Facing and Beam are the client's own, drawn at once; every
	// other field is the server's word.

	// Facing is the direction the player faces: the last one pressed.
	Facing grid.Dir
	// Beam is the player's own last beam, cells nearest first, while it
	// flashes (BeamFlash after BeamAt); nil otherwise. It is cosmetic:
	// traced against the others as drawn, it says nothing of a hit.
	Beam   []grid.Pos
	BeamAt time.Duration
	// LastZap is the server's judgement of the player's last judged zap
	// (its Line: "hit ada (rewound 230ms)"); nil before any.
	LastZap *ZapResult
	// LastTagged is the last time the server said the player was tagged
	// (its Line: "tagged by bob, who saw you at (12,10) 230ms ago"); nil
	// before any.
	LastTagged *TagNote
	// Frozen is true while the server says the player is frozen; its moves
	// then move nothing. FrozenUntil is when it should respawn.
	Frozen      bool
	FrozenUntil time.Duration
	// Protected is true while the server says the player cannot be tagged
	// (it has just joined or respawned): until ProtectedUntil.
	Protected      bool
	ProtectedUntil time.Duration
	// Scoreboard is the room's scoreboard, most points first: every player
	// online in a small room, else the best and the player itself, however
	// far away they are.
	Scoreboard []ScoreLine
	// Online is how many players the room has, Rank the player's place
	// among them (0 until the server says).
	Online, Rank int
	// Round is the round in play (0 before the server's first Scores) and
	// RoundLeft the time left in it.
	Round     int
	RoundLeft time.Duration
	// LastWinner is the winner of the last round; nil if none yet (or
	// nobody scored).
	LastWinner *Winner

	UpdateRate int           // server states per second (0 = one per input)
	MoveTime   time.Duration // the speed limit
	Latency    time.Duration // injected round-trip latency
	Jitter     time.Duration // injected jitter per message

	// Following is the student the room's teacher follows on its
	// projectors (protocol version 6), 0 for nobody: Me when it is this
	// player, whose view of itself the projectors then show.
	Following grid.PlayerID

	// Teaching is what the room's teacher set, nil while the room has no
	// teacher: the network the server adds to this player's connection
	// (beside Latency and Jitter, the player's own), and the switches the
	// teacher holds, which Predict, Reconcile and Interpolate follow.
	Teaching *Teaching
	// Perception is where the player is in its room's perception test,
	// nil before its first run (see Perceiving.Blind).
	Perception *Perceiving
}

// PendingInput is one unacknowledged input.
type PendingInput struct {
	Seq uint32
	Dir grid.Dir      // None for a zap
	Zap bool          // a zap rather than a move
	Age time.Duration // time since it was sent
}

// Other is another player as drawn.
type Other struct {
	ID    grid.PlayerID
	Name  string // sanitised for display
	Color uint8  // palette index from the server
	Pos   grid.Pos
	// Protected: under spawn protection where it is drawn (it cannot be
	// tagged there).
	Protected bool
}

// Correction records one time the server's word moved the predicted avatar.
type Correction struct {
	At     time.Duration // when it happened, on the client's clock
	From   grid.Pos      // where prediction had the avatar
	To     grid.Pos      // where it is after reconciliation
	Seq    uint32        // the acknowledged input that revealed it
	Reason string        // a few words, e.g. "blocked by another player": Cause's
	Cause  Cause         // why
	Cells  int           // how far it moved the avatar (From to To, in cells, Manhattan)
}
