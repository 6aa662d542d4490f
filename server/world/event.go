package world

import (
	"fmt"

	"gridlag/grid"
)

// EventKind says what an Event reports.
type EventKind uint8

// The kinds of events.
const (
	// EventJoin: a connection completed its handshake and its player
	// entered the world.
	EventJoin EventKind = iota + 1
	// EventLeave: a player left the world (Bye, disconnection, or closed by
	// the server).
	EventLeave
	// EventRefused: a connection was refused or closed before it joined
	// (bad version, bad name, server full, spectators full, message before
	// Hello).
	EventRefused
	// EventWatch: a spectator completed its handshake and watches.
	EventWatch
	// EventUnwatch: a spectator stopped watching (Bye, disconnection, or
	// closed by the server).
	EventUnwatch
	// EventAway: a player's connection dropped; its avatar is kept for
	// resume (Conn is the connection it dropped from).
	EventAway
	// EventResume: a player came back on connection Conn, from connection
	// From, with its resume token.
	EventResume
)

// String names the kind.
func (k EventKind) String() string {
	switch k {
	case EventJoin:
		return "join"
	case EventLeave:
		return "leave"
	case EventRefused:
		return "refused"
	case EventWatch:
		return "watch"
	case EventUnwatch:
		return "unwatch"
	case EventAway:
		return "away"
	case EventResume:
		return "resume"
	}
	return fmt.Sprintf("EventKind(%d)", uint8(k))
}

// Event is something an operator wants to hear about. The Core records
// events in the Batch its Outbox hands over; the TCP adapter logs them.
type Event struct {
	Kind   EventKind
	Conn   ConnID
	Player grid.PlayerID // 0 for EventRefused, EventWatch and EventUnwatch
	Name   string        // the player's or spectator's name (all but EventRefused)
	Bot    bool
	Pos    grid.Pos // the spawn cell (EventJoin)
	Reason string   // why (EventLeave, EventRefused, EventUnwatch, EventAway)
	From   ConnID   // the connection the player came back from (EventResume)
	Room   string   // the room it happened in, "" for the default room (set by the Server)
	// Version is the protocol version the connection speaks (EventJoin,
	// EventWatch, EventResume).
	Version uint16
}
