package tui

import (
	"time"

	"gridlag/client"
	"gridlag/protocol"
)

// lobbyAnswer is what a call of the Lobby brought: a list or a session,
// or the error.
type lobbyAnswer struct {
	rooms   *protocol.Rooms
	session client.Session
	join    bool   // the answer of Join (else of Rooms)
	room    string // the room Join was asked for
	err     error
}

// call runs f off the loop and keeps its answer for the next Frame; once
// the lobby is abandoned, a session it brings is closed.
func (s *LobbyScreen) call(f func() lobbyAnswer) {
	go func() {
		a := f()
		s.mu.Lock()
		if s.abandoned {
			s.mu.Unlock()
			if a.session != nil {
				a.session.Close()
			}
			return
		}
		s.answers = append(s.answers, a)
		s.mu.Unlock()
		s.wake()
	}()
}

// abandon ends the lobby's calls: a session that came and was not taken,
// or that comes later, is closed.
func (s *LobbyScreen) abandon() {
	s.mu.Lock()
	s.abandoned = true
	answers := s.answers
	s.answers = nil
	s.mu.Unlock()
	for _, a := range answers {
		if a.session != nil {
			a.session.Close()
		}
	}
}

// wake signals the loop that the lobby has something new.
func (s *LobbyScreen) wake() {
	select {
	case s.changed <- struct{}{}:
	default:
	}
}

// wakeAfter wakes the loop after d, for the next refresh: the loop's own
// ticks are for frames that change with time, and would hold back a key's
// frame until then.
func (s *LobbyScreen) wakeAfter(d time.Duration) {
	after := s.opts.Clock.After(d)
	go func() {
		<-after
		s.wake()
	}()
}

// fetch asks for the rooms.
func (s *LobbyScreen) fetch() {
	if s.fetching || s.joining || s.session != nil {
		return
	}
	s.fetching = true
	s.call(func() lobbyAnswer {
		rooms, err := s.lobby.Rooms()
		return lobbyAnswer{rooms: rooms, err: err}
	})
}

// join asks to join room.
func (s *LobbyScreen) join(room string) {
	if s.joining || s.session != nil {
		return
	}
	s.joining = true
	s.status = "joining " + roomLabel(room) + "…"
	s.call(func() lobbyAnswer {
		sess, err := s.lobby.Join(room)
		return lobbyAnswer{session: sess, join: true, room: room, err: err}
	})
}

// take applies the answers that came since the last frame.
func (s *LobbyScreen) take() {
	s.mu.Lock()
	answers := s.answers
	s.answers = nil
	s.mu.Unlock()
	for _, a := range answers {
		if a.join {
			s.joining = false
		} else {
			s.fetching = false
		}
		switch {
		case a.err != nil:
			s.status = a.err.Error()
			s.listedAt = s.opts.Clock.Now()
			s.wakeAfter(LobbyRefresh)
		case a.join:
			s.session, s.room, s.status = a.session, a.room, ""
		default:
			s.list, s.listedAt = a.rooms, s.opts.Clock.Now()
			s.wakeAfter(LobbyRefresh)
			s.sel = min(s.sel, len(s.list.Rooms))
		}
	}
}
