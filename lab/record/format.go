package record

import (
	"errors"
	"fmt"
	"time"
)

// Version is the version of the file this package writes, and the newest
// it reads.
const Version = 2

// magic starts every recording.
const magic = "\x89GLR\r\n\x1a\n"

// Limits of the format, checked on reading and writing.
const (
	// MaxHeader is the largest header: a 1024x1024 map's rows and the
	// settings.
	MaxHeader = 2 << 20
	// MaxData is the largest data of one event: a read from a socket or
	// a frame, with room to spare.
	MaxData = 1 << 20
	// MaxSpan is the latest time an event may have: a recording is at
	// most a day long.
	MaxSpan = 24 * time.Hour
)

// DefaultMax is the default bound on a recording's size (the -record-max
// flags): at 20 States a second with a few players in view a game
// records about 2 KB a second, so 64 MiB is hours of play.
const DefaultMax = 64 << 20

// Kind is what an event is. 0 is the end mark, never an Event.
type Kind uint8

// The kinds of events. Who is the player for the kinds a player does;
// Arg is as each says.
const (
	// Sync: a lab's world was brought to this time (the lab's clock ran).
	Sync Kind = 1
	// Press: a move, Arg the direction (grid.Dir).
	Press Kind = 2
	// Zap: a zap where the player faces.
	Zap Kind = 3
	// Predict, Reconcile, Interpolate: a client's switch, Arg 1 on, 0 off.
	Predict     Kind = 4
	Reconcile   Kind = 5
	Interpolate Kind = 6
	// Latency and Jitter: the injected round trip and jitter, Arg in ns.
	Latency Kind = 7
	Jitter  Kind = 8
	// Loss: the injected loss, Arg the bits of a float64 (0 to 1).
	Loss Kind = 9
	// Preset: the next link preset (the lab's key).
	Preset Kind = 10
	// Spike: a lag spike (the lab's key).
	Spike Kind = 11
	// Rate: the server's update rate, Arg in Hz.
	Rate Kind = 12
	// LagComp: the server's lag compensation, Arg 1 on, 0 off.
	LagComp Kind = 13
	// Pause, Resume, Speed (Arg the speed's index: 0 1x, 1 1/2, 2 1/4,
	// 3 1/10) and Step: the lab's clock.
	Pause  Kind = 14
	Resume Kind = 15
	Speed  Kind = 16
	Step   Kind = 17

	// Deliver: bytes read from the game's socket, in Data.
	Deliver Kind = 32
	// Hangup: the socket's stream ended; Data the reason, if any.
	Hangup Kind = 33
	// Update: the client driver did what was due at this time.
	Update Kind = 34
	// Sent: a frame written to the socket, in Data.
	Sent Kind = 35
	// Drop, Disconnect: the connection broke or failed; Data the reason.
	Drop       Kind = 36
	Disconnect Kind = 37
	// Reconnect: a new connection after a drop.
	Reconnect Kind = 38
	// Close: the player quit.
	Close Kind = 39
	// Check: the client's view just after a State (see Check), Arg the
	// last acknowledged input.
	Check Kind = 40
)

// flushMark is no event: a Writer writes it before each flush (from
// version 2), at the last event's time (dt 0), by Nobody, arg the
// number of events before it, data the CRC-32 (IEEE) of every byte
// before it, 4 bytes big-endian. A reader checks it and leaves it out of
// the events; a file cut short replays up to its last good mark.
const flushMark Kind = 254

var kindNames = map[Kind]string{
	Sync: "sync", Press: "press", Zap: "zap", Predict: "predict", Reconcile: "reconcile",
	Interpolate: "interpolate", Latency: "latency", Jitter: "jitter", Loss: "loss", Preset: "preset",
	Spike: "spike", Rate: "rate", LagComp: "lagcomp", Pause: "pause", Resume: "resume", Speed: "speed",
	Step: "step", Deliver: "deliver", Hangup: "hangup", Update: "update", Sent: "sent", Drop: "drop",
	Disconnect: "disconnect", Reconnect: "reconnect", Close: "close", Check: "check",
}

// String names the kind.
func (k Kind) String() string {
	if n, ok := kindNames[k]; ok {
		return n
	}
	return fmt.Sprintf("kind %d", uint8(k))
}

// Known reports whether k is a kind this version of the format has.
func (k Kind) Known() bool { _, ok := kindNames[k]; return ok }

// The players an event's Who names.
const (
	Player1 = 0   // Player 1, or a game's player
	Player2 = 1   // Player 2 (a lab's, a scenario's rival)
	Nobody  = 255 // the lab itself or its server
)

// Event is one moment of a recording.
type Event struct {
	At   time.Duration // since the recording's time 0
	Kind Kind
	Who  uint8
	Arg  int64
	Data []byte
}

// Stop is why a recording ended.
type Stop uint8

// The ways a recording ends.
const (
	// StopDone: the run ended (the scenario's timeline, the player quit,
	// the connection closed).
	StopDone Stop = 0
	// StopFull: the next event would have taken the file past its bound
	// (Writer.Max); what came after is not recorded.
	StopFull Stop = 1
	// StopCut: the file ends before its end mark (a process killed
	// mid-recording, a copy cut short): it holds the whole events before
	// the cut. No file holds it; the reader says it (Recording.Cut).
	StopCut Stop = 2
)

// String says why the recording ended.
func (s Stop) String() string {
	switch s {
	case StopDone:
		return "complete"
	case StopFull:
		return "stopped at its size limit"
	case StopCut:
		return "cut short"
	}
	return fmt.Sprintf("stop %d", uint8(s))
}

// Error is a recording refused: Path (when known) and why, in one line.
type Error struct {
	Path   string
	Reason error
}

// Error is the line a user reads: "a.rec: not a recording: truncated ...".
func (e *Error) Error() string {
	if e.Path == "" {
		return "recording refused: " + e.Reason.Error()
	}
	return e.Path + ": recording refused: " + e.Reason.Error()
}

// Unwrap returns the reason.
func (e *Error) Unwrap() error { return e.Reason }

// Why a recording is refused; an Error wraps one of them.
var (
	ErrNotRecording = errors.New("not a gridlag recording")
	ErrEmpty        = errors.New("the file is empty (0 bytes): nothing was written to it before its writer stopped")
	ErrNewer        = errors.New("made by a newer gridlag")
	ErrTruncated    = errors.New("truncated")
	ErrDamaged      = errors.New("damaged")
	ErrTooLarge     = errors.New("too large")
	// ErrFull is what Writer.Write returns once the recording reached its
	// bound: the recording ended there.
	ErrFull = errors.New("record: the recording reached its size limit")
)
