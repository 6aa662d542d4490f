package tcp

import (
	"fmt"
	"net"

	"gridlag/protocol"
)

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
