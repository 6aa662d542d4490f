package sshd

import (
	"fmt"
	"net"

	"gridlag/server/admit"
)

// KindAttempts is a connection refused for its address's rate of new
// ones (Options.Attempts), one of RefusalKinds.
const KindAttempts = admit.KindAttempts

// refuseAttempt checks a new connection from the address of key against
// the rate of its address's attempts (admit.Attempts), and reports
// whether it refused it: one past the rate is counted, logged
// (summarised per address), told why in a line before the SSH banner and
// closed as it arrives, before anything else is spent on it (the key
// exchange is the costly part of a connection).
func (s *Server) refuseAttempt(c net.Conn, key string) bool {
	r, wait := s.attempts.Allow(key)
	if !r.Refused() {
		return false
	}
	r.Text += fmt.Sprintf(": try again in %d s", admit.Seconds(wait))
	s.refuseConn(c, r)
	return true
}
