package client

import (
	"time"

	"gridlag/grid"
)

// Session is what an interface needs from a client in play. The TCP client
// (*tcp.Conn) implements it; so does a client on a simulated link (package
// sim), which lets an interface be tested on a virtual clock. Both run a
// Driver, and each owns the channels it hands out here (a Driver has
// none: it reports notes). All methods are safe for concurrent use.
type Session interface {
	// Press asks to move one cell. With prediction on, the next View
	// already shows the move.
	Press(d grid.Dir)
	// Zap fires a zap in the direction the player faces. The next View
	// shows the beam; a hit shows only when the server says so.
	Zap()
	// SetPredict turns prediction on or off. Turning it off turns
	// reconciliation off.
	SetPredict(on bool)
	// SetReconcile turns reconciliation on or off. Turning it on turns
	// prediction on.
	SetReconcile(on bool)
	// SetInterpolate turns interpolation of other players on or off.
	SetInterpolate(on bool)
	// SetLatency sets the injected round-trip latency; it applies to the
	// next messages.
	SetLatency(rtt time.Duration)
	// View returns a snapshot of the client now.
	View() View
	// Changed receives a value (without blocking the sender; capacity 1)
	// whenever the view changed because of something other than a call of
	// the interface itself: at each of the driver's notes (a message
	// arrived, a held press went, the connection changed phase) and when
	// the session ended.
	Changed() <-chan struct{}
	// Done is closed when the session has ended; View().Err says why.
	Done() <-chan struct{}
	// Close ends the session, saying Bye to the server.
	Close() error
}

// Answerer is a Session whose player can answer its room's perception
// test (View().Perception): laggy or fine, in a round's answer phase.
// Package tcp's and package sim's sessions are.
type Answerer interface {
	Answer(laggy bool)
}
