package client

import (
	"time"

	"gridlag/internal/link"
	"gridlag/protocol"
)

// Options configure a client's core and its driver. The zero value is a
// sensible client: prediction, reconciliation and interpolation on, no
// injected latency. How it reaches a server is its adapter's (package
// client/tcp: tcp.Options).
type Options struct {
	Name  string // the player's name, sent in the Hello
	Color uint8  // the colour the player would like, 1..8; 0 = the server picks
	Bot   bool   // a headless bot (spawns away from the human spawn)
	Room  string // the room to join or watch, sent in the Hello or Spectate; "" = the server's default room
	// Teach makes a spectator a teacher: it says Teach instead of
	// Spectate, and may set the room's network (Spectator.Teach). The
	// server takes it only from a connection it knows to be a teacher's.
	Teach bool
	// Code is a class code (protocol version 6) the client presents
	// before its Hello or Resume: the server then takes it into the
	// class's room (whatever Room says), counted against the room's cap
	// and not its address's, or refuses it ("unknown class code"). ""
	// for none.
	Code string

	NoPredict     bool // start with prediction off
	NoReconcile   bool // start with reconciliation off
	NoInterpolate bool // start with interpolation of others off

	Latency time.Duration // injected round trip, half each way
	Jitter  time.Duration // injected jitter, 0..Jitter per message
	// Loss is the probability (0 to 1) that a message, either way, is
	// lost and retransmitted as TCP does (see link.Link.SetLoss).
	Loss float64
	Seed int64 // drives the jitter and the loss; 0 = from the clock (tcp) or 1 (sim)
	// LinkTrace, if not nil, is a network that changes over time (see
	// link.Trace): the injected link follows it from the driver's start,
	// its time 0, over Latency, Jitter and Loss.
	LinkTrace *link.Trace

	// PingInterval is how often the client measures the round trip.
	// 0 = one second.
	PingInterval time.Duration

	// ServerTimeout ends the connection when nothing at all has come from
	// the server for this long (it answers every Ping, so only a dead
	// server or network is that silent). 0 = the larger of 10 s and three
	// ping intervals.
	ServerTimeout time.Duration

	// Trace asks the server for its stages of every input from the start
	// (see Core.SetTrace).
	Trace bool

	// SharedClock says the server runs on this client's own clock (a
	// simulator's virtual one): the server's stages of an input (see
	// InputLife) are read as they are, with no estimate of the offset
	// between the two clocks.
	SharedClock bool

	// Resume, if not zero, is a resume token from an earlier client's
	// Welcome (Core.Resumable): the client asks for that avatar back with a
	// Resume instead of joining with a Hello, and a refusal ends it with
	// the server's Error.
	Resume protocol.Token
}

func (o Options) pingInterval() time.Duration {
	if o.PingInterval <= 0 {
		return time.Second
	}
	return o.PingInterval
}

func (o Options) serverTimeout() time.Duration {
	if o.ServerTimeout > 0 {
		return o.ServerTimeout
	}
	return max(10*time.Second, 3*o.pingInterval())
}
