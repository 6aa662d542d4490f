package server

import (
	"fmt"
	"time"
)

// StopNotice is what every client is told while the server drains, with
// left to go before it closes: "server stopping in 6 s", the seconds
// rounded to the nearest; "server stopping now" once none is left.
func StopNotice(left time.Duration) string {
	if n := secondsLeft(left); n > 0 {
		return fmt.Sprintf("server stopping in %d s", n)
	}
	return "server stopping now"
}

// secondsLeft is left in whole seconds, rounded to the nearest.
func secondsLeft(left time.Duration) int {
	return int((left + time.Second/2) / time.Second)
}

// Drain begins the server's stop: for the time left, until Close, the
// game goes on, every client (player or spectator) is told StopNotice
// at once and again each second as it counts down, and new connections
// are refused with it (an Error of protocol.ErrCodeShutdown). Close then
// says Bye (protocol.ByeShutdown) to everyone. A second Drain sets a new
// time left.
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
func (s *Server) stopNoticeLocked() string { return StopNotice(time.Until(s.drainEnd)) }

// countDown tells every connection the StopNotice of now and arms the
// loop's countdown for the next whole second left, if any. The loop calls
// it after Drain and on each beat of the countdown.
func (s *Server) countDown() {
	s.mu.Lock()
	left := time.Until(s.drainEnd)
	s.mu.Unlock()
	s.noticeAll(StopNotice(left))
	s.countdown = nil
	if n := secondsLeft(left); n > 0 {
		// The next beat is when n-1 seconds are left, measured from the
		// end, so that a late beat does not delay the ones after it.
		s.countdown = time.After(left - time.Duration(n-1)*time.Second)
	}
}
