package client

import (
	"errors"
	"fmt"

	"gridlag/protocol"
)

// ErrServerStopped is the Err of a session the server ended by stopping
// normally (its Bye of protocol.ByeShutdown, after a drain): not a
// failure, and what a user is told in those words. A refusal because
// the server is stopping (an Error of protocol.ErrCodeShutdown, "server
// stopping in 4 s") is it too for errors.Is, with the server's sentence.
var ErrServerStopped = errors.New("server stopped")

// byeError is why the server's Bye ends a session.
func byeError(b *protocol.Bye) error {
	if b.Reason == protocol.ByeShutdown {
		return ErrServerStopped
	}
	return fmt.Errorf("client: server said goodbye: %s", protocol.Printable(b.Reason))
}

// refusalError is why the server's Error ends a session; its text reaches
// the user's screen and logs, so it is made printable.
func refusalError(e *protocol.Error) error {
	e.Text = protocol.Printable(e.Text)
	if e.Code == protocol.ErrCodeShutdown {
		return stopping{e}
	}
	return e
}

// stopping is the server's refusal while it stops: ErrServerStopped for
// errors.Is, the *protocol.Error for errors.As.
type stopping struct{ e *protocol.Error }

func (s stopping) Error() string        { return s.e.Error() }
func (s stopping) Unwrap() error        { return s.e }
func (s stopping) Is(target error) bool { return target == ErrServerStopped }
