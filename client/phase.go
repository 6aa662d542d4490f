package client

// Phase is where a connection is in its life: what its caller may assume
// of it, and what it may do. A player's Core goes through Handshaking,
// Joining, Playing and, after a drop with a resume token, Reconnecting,
// Resuming and CatchingUp; a Spectator through Handshaking and Watching.
// Both end in Closed. The package doc draws the transitions.
type Phase uint8

// The phases of a connection.
const (
	// Handshaking: the Hello (a Spectate, or a Resume with
	// Options.Resume) is sent; the Welcome and its map have not all come.
	// Nothing is drawn yet (View().Map is nil) and presses are ignored.
	Handshaking Phase = iota
	// Joining: the Welcome and its map are in, the connection is up
	// (pings go); the first State, which puts the player on the board,
	// has not come. Presses are still ignored.
	Joining
	// Playing: the player is on the board; a press goes out at once
	// (predicted) or waits for the speed limit.
	Playing
	// Reconnecting: the connection dropped and the server keeps the
	// avatar until its resume window ends. The caller dials again and
	// calls Resume (Driver.Reconnect). Presses are numbered, predicted
	// and held, up to the server's burst of them.
	Reconnecting
	// Resuming: a Resume is sent on a new connection; the Welcome and
	// its map have not all come. Presses are held as while Reconnecting.
	Resuming
	// CatchingUp: the resumed Welcome and its map are in; the first
	// State sends every input the server has not acknowledged, in
	// order, and the player plays on. Presses are held until then.
	CatchingUp
	// Watching: a spectator's Spectating and its map are in; each
	// Overview shows the world.
	Watching
	// Closed: the connection is over (Err says why: a refusal, a
	// goodbye, a drop without a resume, a window that ran out, or
	// ErrClosed for the local side). Nothing more happens.
	Closed
)

var phaseNames = [...]string{
	Handshaking:  "handshaking",
	Joining:      "joining",
	Playing:      "playing",
	Reconnecting: "reconnecting",
	Resuming:     "resuming",
	CatchingUp:   "catching up",
	Watching:     "watching",
	Closed:       "closed",
}

func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return "phase?"
}

// connected reports whether the connection in phase p is up: the server
// welcomed it on this connection.
func (p Phase) connected() bool {
	switch p {
	case Joining, Playing, CatchingUp, Watching:
		return true
	}
	return false
}

// away reports whether the player is away in phase p: from a drop until
// the resumed connection has caught up, its presses are held.
func (p Phase) away() bool {
	switch p {
	case Reconnecting, Resuming, CatchingUp:
		return true
	}
	return false
}
