package server

import (
	"time"

	"gridlag/server/hub"
)

// Drain begins the server's stop: for the time left, until Close, the
// game goes on, every client (player, spectator or lobby) is told
// hub.StopNotice at once and again each second as it counts down, and new
// connections are refused with it (an Error of protocol.ErrCodeShutdown).
// Close then says Bye (protocol.ByeShutdown) to everyone. A second Drain
// sets a new time left.
func (s *Server) Drain(left time.Duration) {
	s.mu.Lock()
	s.drainEnd = time.Now().Add(left)
	s.mu.Unlock()
	s.post(s.shards[0], event{kind: evNotice})
}

// Draining reports whether Drain has begun the server's stop: the server
// plays on, refusing newcomers, until Close.
func (s *Server) Draining() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.drainEnd.IsZero()
}

// stopNoticeLocked is the StopNotice of now; s.mu is held and Drain has
// been called.
func (s *Server) stopNoticeLocked() string { return hub.StopNotice(time.Until(s.drainEnd)) }

// People returns how many people are connected, as of the last event the
// server handled: players (bots and players away, whose connection
// dropped, apart) and spectators, teachers included. A drain with none
// warns nobody.
func (s *Server) People() int {
	st := s.Stats()
	return max(st.Players-st.Bots-st.Away, 0) + st.Spectators
}
