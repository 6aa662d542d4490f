package hub

import (
	"fmt"
	"time"

	"gridlag/internal/perception"
	"gridlag/server/world"
)

// Origin is where a connection comes from, as its adapter knows it.
type Origin struct {
	// Host is the key of the per-address caps, shares and rates: the
	// remote IP. The log names a connection's address by it.
	Host string
	// Own marks the server's own connections (its bots): no per-address
	// cap, share or rate applies to them, and their Hello may say it is a
	// bot. Their Host is not counted against.
	Own bool
	// Bots says a Hello from it may say it is a bot (an operator's
	// -bot-addrs): from anywhere else the Bot flag is taken off.
	Bots bool
	// Teacher says it is a teacher's (an SSH key the operator named, the
	// server's own terminal): only then is its Teach taken (class.go).
	// Nothing a client sends can set it.
	Teacher bool
}

// NoteKind says what a Note reports.
type NoteKind uint8

// The kinds of notes.
const (
	// NoteEvent: something happened in a room's world (Event, its Room
	// set): a join, a leave, a refusal by the world, a spectator, an away
	// player, a resume. Host is the address of the player or connection
	// concerned.
	NoteEvent NoteKind = iota + 1
	// NoteRoomOpened: Conn, from Host, opened Room; Rooms are open now.
	NoteRoomOpened
	// NoteRoomClosed: Room closed, its last connection gone and nobody
	// kept for resume; Host opened it; Rooms are open now.
	NoteRoomClosed
	// NoteRefused: the hub refused what Conn asked for (a join over its
	// address's rate, a room over the caps or its address's share, a room
	// name, a room list) and ended it: its Error, with Close, is in the
	// envelopes. Reason says why; Counted says it never reached a world
	// nor a lobby, so it counts as a refused connection.
	NoteRefused
	// NoteEnded: Conn, which its adapter reported gone (Disconnect,
	// Close), has left the hub. Counted says it never reached a world nor
	// a lobby: it ended before its first message was handled, or was
	// never more than a refusal.
	NoteEnded
	// NoteCapacity: the server came to its capacity (Full: it refuses
	// newcomers, see Hub.Load) or went below it again (it takes them
	// again). Reason says what the ticks cost and with how many members.
	NoteCapacity
	// NoteTeach: Conn, a teacher from Host, began to teach Room, set its
	// Conditions, or was its last teacher and left, or a run of its
	// perception test began or ended; Reason says which, and the
	// Conditions or the run in words.
	NoteTeach
	// NoteQueued: Conn, from Host, waits in line for Room at Place;
	// Reason says its place and the estimate in words (line.go).
	NoteQueued
	// NoteAdmitted: Conn, from Host, waited in line for Room for Waited
	// and is let in now: its Hello or Spectate goes to the room's world.
	NoteAdmitted
	// NotePerception: a run of Room's perception test ended; Trials are
	// its answers, to be saved with those of the runs before it in the
	// same Class (see Hub.PerceptionNote).
	NotePerception
	// NoteCode: Room's class has a new code, Code, as its teacher Conn
	// from Host asked (or as the class began); Code "" when the class
	// ended and its code with it (classcode.go).
	NoteCode
)

// String names the kind.
func (k NoteKind) String() string {
	switch k {
	case NoteEvent:
		return "event"
	case NoteRoomOpened:
		return "room opened"
	case NoteRoomClosed:
		return "room closed"
	case NoteRefused:
		return "refused"
	case NoteEnded:
		return "ended"
	case NoteCapacity:
		return "capacity"
	case NoteTeach:
		return "teach"
	case NoteQueued:
		return "queued"
	case NoteAdmitted:
		return "admitted"
	case NotePerception:
		return "perception"
	case NoteCode:
		return "class code"
	}
	return fmt.Sprintf("NoteKind(%d)", uint8(k))
}

// Note is something the hub's adapter logs or counts. Each field says
// which kinds fill it.
type Note struct {
	Kind   NoteKind
	Event  world.Event  // NoteEvent
	Conn   world.ConnID // the connection concerned (NoteEvent: Event.Conn)
	Host   string       // its address (see NoteEvent, NoteRoomClosed)
	Room   string       // NoteEvent, NoteRoomOpened, NoteRoomClosed, NoteTeach
	Rooms  int          // the rooms open (NoteRoomOpened, NoteRoomClosed)
	Reason string       // NoteRefused, NoteEnded, NoteCapacity, NoteTeach
	// Counted: the connection counts as refused (NoteRefused, NoteEnded).
	Counted bool
	// Full: the server is at capacity (NoteCapacity).
	Full bool
	// Place is the place in line (NoteQueued), 1 the next let in.
	Place int
	// Waited is how long it waited in line (NoteAdmitted).
	Waited time.Duration
	// Class numbers the room's class (NotePerception): the runs of one
	// class go in one file. Trials are the run's answers.
	Class  int
	Trials []perception.Trial
	// Code is the class's code (NoteCode): a secret of the class's, for
	// its teachers and the front ends' caps, never a log's or a metric's.
	Code string
}

// RoomStats are one room's counters.
type RoomStats struct {
	Name  string // "" for the default room
	Stats world.Stats
}

// Out is what the hub produced since the last Outbox call, in order.
type Out struct {
	// Envelopes are the messages to send, the hub's own (refusals, room
	// lists, notices) before its worlds'. An Envelope's Close asks for its
	// connection to be closed after it. The messages belong to the hub
	// and its worlds: encode them before the next call of the hub.
	Envelopes []world.Envelope
	// Notes are what happened, for the log and the counters.
	Notes []Note
	// Rooms are the counters of the rooms given something since the last
	// Outbox, as they are now; Closed names those of them closed since:
	// their counters are final.
	Rooms  []RoomStats
	Closed []string
	// Crowds are the teachers' orders of bots for their rooms (crowd.go),
	// in the order given: the adapter runs them.
	Crowds []CrowdOrder
}
