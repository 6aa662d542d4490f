package sim

import (
	"time"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/protocol"
	"gridlag/server/world"
)

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
	HeldSent                     // the speed limit let a client's held press go
	Zapped                       // a client fired a zap
	ServerZap                    // the server judged a zap
	Lived                        // an input's life ended at its client: the State acknowledging it was reconciled
	LinkChanged                  // the trace a client's link follows took a step
)

// Event is one thing that happened in a World: the facts, for a timeline
// to put in words. Each field says which kinds fill it.
type Event struct {
	T      time.Duration
	Client *Client
	Kind   Kind

	// Seq is the input concerned: the one sent (Press when Sent,
	// HeldSent, Zapped), processed (ServerInput, ServerZap) or last
	// acknowledged (StateArrived).
	Seq uint32
	// Dir is the direction pressed (Press), sent (HeldSent) or processed
	// (ServerInput).
	Dir grid.Dir
	// Result is what the client did with the press (Press).
	Result client.PressResult
	// Predict says prediction is on, so Pos is where the client predicts
	// the player (Press, HeldSent).
	Predict bool
	// Pos is a cell: the prediction (Press, HeldSent, with Predict), where
	// the server placed the player (ServerJoin) or has it after the input
	// (ServerInput), the server's word in the State (StateArrived).
	Pos grid.Pos
	// Moved says the input moved the player; false, it stayed
	// (ServerInput).
	Moved bool
	// Replayed is how many pending inputs reconciliation replayed on top
	// of the server's word (StateArrived).
	Replayed int
	// Correction is the correction the State caused, nil if none
	// (StateArrived).
	Correction *client.Correction
	// Message is the type of the message that arrived (OtherArrived).
	Message protocol.Type
	// Err is why the connection ended (Closed).
	Err error
	// Zap is how the server judged the zap (ServerZap).
	Zap world.ZapRecord
	// Life is the input's whole life, on the world's clock (Lived).
	Life *client.InputLife
	// Made is when the server made the State, on the world's clock
	// (StateArrived): T less Made is its trip down.
	Made time.Duration
	// Step names the step of the trace the client's link follows, and
	// Trace the trace (LinkChanged).
	Step, Trace string
}
