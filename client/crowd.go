package client

import (
	"time"

	"gridlag/protocol"
)

// Crowd is a room's crowd as its teachers are told it (protocol version
// 6): the server's own bots in the room and its areas of interest
// (Crowded), and what the server's own counters, those its /metrics
// serves, said of the last second (Counters, nil before the first).
type Crowd struct {
	protocol.Crowded
	Counters *protocol.Counters
	// At is when the last Counters came, on the spectator's clock.
	At time.Duration
}

// Crowd asks, as the room's teacher, for bots of the server's own in the
// room (0: none) and for its areas of interest on or off: the server
// gives as many as its caps allow and says so (View().Crowd). The server
// refuses it (and closes) from a spectator that is not a teacher
// (Options.Teach).
func (s *Spectator) Crowd(bots int, areasOff bool) {
	if s.phase != Watching {
		return
	}
	s.send(&protocol.Crowd{Bots: uint16(min(max(bots, 0), 1<<16-1)), AreasOff: areasOff})
}

// takeCrowd takes a Crowded or a Counters that came at now.
func (s *Spectator) takeCrowd(now time.Duration, m protocol.Message) {
	if s.crowd == nil {
		s.crowd = &Crowd{}
	}
	switch m := m.(type) {
	case *protocol.Crowded:
		s.crowd.Crowded = *m
	case *protocol.Counters:
		c := *m
		s.crowd.Counters, s.crowd.At = &c, now
	}
}

// crowdView is the room's crowd for a view: a copy, nil before the
// server said anything of it.
func (s *Spectator) crowdView() *Crowd {
	if s.crowd == nil {
		return nil
	}
	c := *s.crowd
	return &c
}
