package client

import (
	"errors"
	"fmt"
	"net"

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

// ForeignServerError is why a connection ends when what answered at Addr
// is not a gridlag server: it sent Heard, which no gridlag server sends
// (see protocol.SniffServer). Its sentence names what it heard, and for
// an SSH server (a gridlag server's SSH port, say) the command to play
// there.
type ForeignServerError struct {
	Addr  string // host:port dialled
	Heard string // the first line it sent, printable
	SSH   bool   // it is an SSH server
}

func (e *ForeignServerError) Error() string {
	if e.SSH {
		cmd := "ssh " + e.Addr
		if host, port, err := net.SplitHostPort(e.Addr); err == nil {
			cmd = "ssh -p " + port + " " + host
		}
		return fmt.Sprintf("%s is an SSH server, not a gridlag game port (it said %q): to play there, run %s", e.Addr, e.Heard, cmd)
	}
	return fmt.Sprintf("%s is not a gridlag server (it said %q)", e.Addr, e.Heard)
}

// sniffer watches the first bytes a server sends on a connection, until
// they tell whether a gridlag server sent them.
type sniffer struct {
	head []byte
	done bool
}

// take notes data, the next bytes read from the connection to addr, and
// returns a ForeignServerError once they show that the server is not a
// gridlag server; nil otherwise.
func (s *sniffer) take(addr string, data []byte) error {
	if s.done || len(data) == 0 {
		return nil
	}
	s.head = append(s.head, data...)
	foreign, known := protocol.SniffServer(s.head)
	if !known {
		return nil
	}
	s.done = true
	head := s.head
	s.head = nil
	if !foreign {
		return nil
	}
	return &ForeignServerError{Addr: addr, Heard: protocol.Heard(head), SSH: protocol.SSHBanner(head)}
}
