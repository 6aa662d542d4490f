package server

import (
	"fmt"
	"net/netip"

	"gridlag/protocol"
)

// Admission: what the loop checks before it hands a connection's
// handshake to a room's Core, so that no address takes more than its
// share of what every address shares. Joins are rate-limited per address
// (each may send the whole map), and so are new rooms and room lists; an
// address holds at most its share of the rooms open, of the players
// (MaxPlayersPerAddr, which a Resume from a new address counts against
// too) and of each room's spectator slots, and the last places of the
// rooms and of the slots go only to addresses that hold none. The
// server's own connections (Dial from Own: its bots) are exempt. Each refusal is
// an Error saying why, and a warning in the log, summarised when it
// repeats, counted by the kind of its reason ("rate", "per_address",
// "full").

// refuse ends c, whose handshake e refuses.
func (s *Server) refuse(c *conn, e *protocol.Error) {
	s.drop(c, e.Text, e, true)
}

// joinRefusal refuses m, a connection's first message, if it is a join
// (Hello, Spectate or Resume) over its address's JoinRate.
func (s *Server) joinRefusal(c *conn, m protocol.Message) *protocol.Error {
	switch m.(type) {
	case *protocol.Hello, *protocol.Spectate, *protocol.Resume:
	default:
		return nil
	}
	if c.own || s.joins.allow(c.host, s.now()) {
		return nil
	}
	return &protocol.Error{Code: protocol.ErrCodeFlood, Text: fmt.Sprintf(
		"rate limited: too many joins from your address, at most %d a second; try again in a moment", s.opts.JoinRate)}
}

// playerRefusal refuses m, a handshake for c's room, if c's address
// holds its share already: of the players (a Hello, or a Resume that
// would move a player to it from another address), or of the room's
// spectator slots (a Spectate). Anything else goes to the Core, which
// refuses what breaks its rules.
func (s *Server) playerRefusal(c *conn, m protocol.Message) *protocol.Error {
	if c.own {
		return nil
	}
	r := c.world
	full := func() *protocol.Error {
		return &protocol.Error{Code: protocol.ErrCodeFull, Text: fmt.Sprintf(
			"too many players from your address: %d joined, the most allowed from one address", s.opts.MaxPlayersPerAddr)}
	}
	switch v := m.(type) {
	case *protocol.Hello:
		if _, joined := r.core.Player(c.id); joined {
			return nil // a second Hello: the Core's protocol violation
		}
		if s.players.count[c.host] >= s.opts.MaxPlayersPerAddr {
			return full()
		}
	case *protocol.Resume:
		old, ok := r.core.TokenConn(v.Token)
		if !ok || s.players.hosts[old] == c.host {
			return nil // the Core refuses the token, or the player stays with its address
		}
		if s.players.count[c.host] >= s.opts.MaxPlayersPerAddr {
			return full()
		}
	case *protocol.Spectate:
		if r.core.Watching(c.id) {
			return nil // a second Spectate: the Core's protocol violation
		}
		pool := newShare(r.core.Config().MaxSpectators, s.opts.SpectatorsPerAddr)
		switch mine := r.watchers[c.host]; pool.refusal(r.core.Stats().Spectators, mine) {
		case "addr":
			return &protocol.Error{Code: protocol.ErrCodeFull, Text: fmt.Sprintf(
				"too many spectators from your address: %d watch this room, the most one address may", mine)}
		case "reserve":
			return &protocol.Error{Code: protocol.ErrCodeFull, Text: fmt.Sprintf(
				"spectators full: the last %d places of this room are kept for addresses that watch it from none", pool.reserve)}
		}
		// "full": the Core refuses it, saying so.
	}
	return nil
}

// receive hands m to c's room's Core, and counts what it took: a player
// joined (or resumed) from c's address, a spectator of the room. A Hello
// that says it is a bot is believed only from a connection that may say
// so (botOK).
func (s *Server) receive(c *conn, m protocol.Message) {
	r := c.world
	var old ConnID
	resuming := false
	switch v := m.(type) {
	case *protocol.Hello:
		if v.Bot && !c.botOK {
			h := *v
			h.Bot = false
			m = &h
		}
		// A player who dropped and joins afresh from its address (no
		// resume token: an SSH player without a key, a restarted client)
		// takes its name back from its away avatar.
		if away, ok := r.core.AwayNamed(v.Name); ok && !c.own && s.players.hosts[away] == c.host {
			r.core.ReleaseAway(s.now(), v.Name, "replaced by a new player of its name from its address")
		}
	case *protocol.Resume:
		old, resuming = r.core.TokenConn(v.Token)
	}
	r.core.Receive(s.now(), c.id, m)
	s.touch(r)
	if c.own {
		return
	}
	switch m.(type) {
	case *protocol.Hello, *protocol.Resume:
		if _, joined := r.core.Player(c.id); joined {
			if resuming && old != c.id {
				s.players.leave(old)
			}
			s.players.join(c.id, c.host)
		}
	case *protocol.Spectate:
		if !c.watching && r.core.Watching(c.id) {
			c.watching = true
			r.watchers[c.host]++
		}
	}
}

// unwatched takes a spectator from host out of r's count.
func (r *room) unwatched(host string) {
	if r.watchers[host]--; r.watchers[host] <= 0 {
		delete(r.watchers, host)
	}
}

// roomShareRefusal refuses a new room to c's address, if it has opened
// its share of the rooms open, or if only the last rooms are left and it
// has opened some; nil if it may open one (RoomRate is checked after).
func (s *Server) roomShareRefusal(c *conn) *protocol.Error {
	pool := newShare(s.opts.MaxRooms, s.opts.RoomsPerAddr)
	if c.own {
		pool.perAddr, pool.reserve = s.opts.MaxRooms, 0
	}
	switch mine := s.roomsBy[c.host]; pool.refusal(len(s.rooms), mine) {
	case "full":
		return &protocol.Error{Code: protocol.ErrCodeFull, Text: fmt.Sprintf("server busy: %d rooms open, the most allowed", s.opts.MaxRooms)}
	case "addr":
		return &protocol.Error{Code: protocol.ErrCodeFull, Text: fmt.Sprintf(
			"too many rooms from your address: it opened %d of those open, the most one address may", mine)}
	case "reserve":
		return &protocol.Error{Code: protocol.ErrCodeFull, Text: fmt.Sprintf(
			"server busy: %d rooms open; the last %d are kept for addresses that opened none", len(s.rooms), pool.reserve)}
	}
	return nil
}

// roomRateRefusal refuses a new room to c's address over its RoomRate,
// or counts it.
func (s *Server) roomRateRefusal(c *conn) *protocol.Error {
	if c.own || s.roomOpens.allow(c.host, s.now()) {
		return nil
	}
	return &protocol.Error{Code: protocol.ErrCodeFlood, Text: fmt.Sprintf(
		"rate limited: too many new rooms from your address, at most %d a minute; join one that is open", s.opts.RoomRate)}
}

// lobbyRefusal refuses a room list to c's address over its LobbyRate, or
// when all addresses together asked for LobbyRateTotal and c's asked for
// some lately too: an address that asked for none is answered from a
// spare tenth.
func (s *Server) lobbyRefusal(c *conn) *protocol.Error {
	if c.own {
		return nil
	}
	now := s.now()
	fresh := s.lobby.fresh(c.host, now)
	if !s.lobby.allow(c.host, now) {
		return &protocol.Error{Code: protocol.ErrCodeFlood, Text: fmt.Sprintf(
			"rate limited: too many room lists from your address, at most %d a second", s.opts.LobbyRate)}
	}
	if s.lobbyAll.allow("", now) || fresh && s.lobbySpare.allow("", now) {
		return nil
	}
	return &protocol.Error{Code: protocol.ErrCodeFull, Text: "server busy: too many room lists asked for at once; try again in a moment"}
}

// sweepRates forgets the addresses that have done nothing lately.
func (s *Server) sweepRates() {
	now := s.now()
	for _, a := range []*addrRate{s.joins, s.roomOpens, s.lobby, s.lobbyAll, s.lobbySpare} {
		a.sweep(now)
	}
}

// botAddr reports whether a Hello from host may say it is a bot
// (Options.BotAddrs).
func (s *Server) botAddr(host string) bool {
	if len(s.opts.BotAddrs) == 0 {
		return false
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return false
	}
	ip = ip.Unmap()
	for _, p := range s.opts.BotAddrs {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}
