package remote

import (
	"context"
	"crypto/sha256"
	"errors"
	"net"
	"runtime/debug"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
	"gridlag/front"
	"gridlag/internal/wire"
	"gridlag/protocol"
)

// Player is one remote session's player, handed to the session handler.
type Player struct {
	// Screen is bound to the session's terminal and not yet initialised:
	// the handler calls Init (tview's Run does) and Fini.
	Screen tcell.Screen
	// User is the player's name, valid for the game server (SSH: the
	// user name made valid; the web: the name chosen on the page).
	User string
	// Fingerprint is the player's identity, "" if they have none: the
	// SHA256 fingerprint of the SSH key they authenticated with, or what
	// a browser keeps. A session with the same identity resumes a dropped
	// one's avatar.
	Fingerprint string
	// Color is the player's palette colour, 1 to protocol.NumColors: from
	// the identity (FingerprintColor), so a returning player keeps it. It
	// is 0 for players without one: the game server colours them by
	// player, so two players of one name look different.
	Color uint8
	// RemoteAddr is the client's network address: the game counts the
	// player as it (see Game.Dial).
	RemoteAddr net.Addr
	// Mode is what the session asked for: play (in a room), the lobby,
	// or watch (a room).
	Mode front.Mode
	// Teach says the session asked to teach Mode's room: its front end
	// checked that it is a teacher's (an SSH key the operator named), and
	// Game.DialTeacher connects it as one.
	Teach bool
	// Code is the class code the player presented (the web page's
	// ?code=, an SSH login that is one): its client presents it before
	// its Hello, and plays in the class's room, not the lobby. "" for
	// none.
	Code string
	// Joined, if set, is told of each game session Game.Play starts for
	// the player (in the room named or chosen in the lobby), and whether
	// it resumes a dropped avatar. It must not block.
	Joined func(s client.Session, resumed bool)
	// Log is the session's log (nil: Game's Logger, unsummarised).
	Log *SessionLog
	// Record says the session asked to record its game (Game.Recordings
	// keeps it under Fingerprint). Afterword is what Play leaves for the
	// front end to tell the player once the screen is gone: where the
	// recording is and how to fetch it; "" for nothing.
	Record    bool
	Afterword string
	// Wire, if set, is the session's counters of what its connection
	// carries (the front end counts its layers, the game client the
	// game's frames): the game's wire overlay shows them.
	Wire *wire.Meter
}

// FingerprintColor is the colour (1 to protocol.NumColors) of a player of
// this identity: the same identity always gets the same colour.
func FingerprintColor(fingerprint string) uint8 {
	sum := sha256.Sum256([]byte("gridlag key colour\x00" + fingerprint))
	return sum[0]%protocol.NumColors + 1
}

// Handler runs one remote session (Options.Handler of sshd and web). It
// must return soon after ctx is done or after the screen reports an error
// event, and must leave the screen finalised (Fini) if it initialised it;
// the front end finalises it otherwise.
type Handler func(ctx context.Context, p *Player) error

// Run runs h for p; a panic is one session's failure, not the server's:
// it is logged with its stack and returned as an error.
func (h Handler) Run(ctx context.Context, p *Player) (err error) {
	defer func() {
		if r := recover(); r != nil {
			p.Log.Error("session handler panicked", "panic", r, "stack", string(debug.Stack()))
			err = errors.New("internal error")
		}
	}()
	return h(ctx, p)
}
