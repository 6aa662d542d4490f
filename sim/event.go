package sim

import "time"

// Kind is the kind of an Event.
type Kind uint8

// The kinds of events a World reports.
const (
	Press            Kind = iota // a key press handled by a client
	ServerJoin                   // the server placed a new player
	ServerInput                  // the server processed an input
	ServerDisconnect             // the server saw a connection close
	StateArrived                 // a State reached a client
	OtherArrived                 // another message reached a client
	Closed                       // a client's connection ended
)

// Event is one thing that happened in a World.
type Event struct {
	T      time.Duration
	Client *Client
	Kind   Kind
	Seq    uint32 // the input number concerned, if any
	Text   string // a sentence for a timeline
}
