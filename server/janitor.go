package server

import (
	"time"

	"gridlag/protocol"
)

// janitorInterval is how often the loop looks for silent connections: a
// second, or a quarter of the shortest timeout it enforces if that is
// shorter, so that a timeout is never overshot by much.
func (o Options) janitorInterval() time.Duration {
	return max(min(time.Second, min(o.HandshakeTimeout, o.IdleTimeout)/4), time.Millisecond)
}

// dropSilent drops the connections that sent no Hello within
// HandshakeTimeout of their accept, or nothing for IdleTimeout since,
// with an Error saying so. The readers never set a deadline per message:
// they note when their reads bring bytes, and this looks.
func (s *Server) dropSilent(now time.Duration) {
	for _, c := range s.conns {
		if reason := s.silence(c, now); reason != "" {
			s.drop(c, reason, &protocol.Error{Code: protocol.ErrCodeTimeout, Text: reason}, true)
		}
	}
}

// silence says why c counts as silent at now, or "" if it does not.
func (s *Server) silence(c *conn, now time.Duration) string {
	switch {
	case c.holding.Load():
		// Not read because the server holds its reader back.
	case s.hub.Waiting(c.id):
		// In line, where a client says nothing: the line bounds its wait
		// (-line-wait) and tells it its place.
	case !c.greeted.Load():
		if now-c.born >= s.opts.HandshakeTimeout {
			return "no Hello within " + s.opts.HandshakeTimeout.String()
		}
	case now-time.Duration(c.lastRead.Load()) >= s.opts.IdleTimeout:
		return "silent for " + s.opts.IdleTimeout.String()
	}
	return ""
}
