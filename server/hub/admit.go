package hub

import (
	"fmt"
	"time"

	"gridlag/internal/limit"
	"gridlag/protocol"
	"gridlag/server/world"
)

// Admission: what the hub checks before it hands a connection's handshake
// to a room's Core, so that no address takes more than its share of what
// every address shares. Joins are rate-limited per address (each may send
// the whole map), and so are new rooms and room lists; an address holds
// at most its share of the rooms open, of the players (MaxPlayersPerAddr,
// which a Resume from a new address counts against too) and of each
// room's spectator slots, and the last places of the rooms and of the
// slots go only to addresses that hold none. The server's own
// connections (Origin.Own: its bots) are exempt. Each refusal is an Error
// saying why, and a NoteRefused for the log, which an adapter summarises
// when it repeats and counts by the kind of its reason ("rate",
// "per_address", "full").

// joinRefusal refuses m, a connection's first message, if it is a join
// (Hello, Spectate or Resume) over its address's JoinRate.
func (h *Hub) joinRefusal(now time.Duration, c *conn, m protocol.Message) *protocol.Error {
	switch m.(type) {
	case *protocol.Hello, *protocol.Spectate, *protocol.Resume:
	default:
		return nil
	}
	if c.from.Own || h.joins.Allow(h.joinKey(c), now) {
		return nil
	}
	return &protocol.Error{Code: protocol.ErrCodeFlood, Text: fmt.Sprintf(
		"rate limited: too many joins from your address, at most %d a second; try again in a moment", h.opts.JoinRate)}
}

// playerRefusal refuses m, a handshake for c's room, if c's address
// holds its share already: of the players (a Hello, or a Resume that
// would move a player to it from another address), or of the room's
// spectator slots (a Spectate). Anything else goes to the Core, which
// refuses what breaks its rules.
func (h *Hub) playerRefusal(c *conn, m protocol.Message) *protocol.Error {
	if c.from.Own {
		return nil
	}
	r, host := c.room, c.from.Host
	_, spectate := m.(*protocol.Spectate)
	if !spectate && c.classed(h) {
		return nil // its class's room's own cap: its world's
	}
	full := func() *protocol.Error {
		return &protocol.Error{Code: protocol.ErrCodeFull, Text: fmt.Sprintf(
			"too many players from your address: %d joined, the most allowed from one address", h.opts.MaxPlayersPerAddr)}
	}
	switch v := m.(type) {
	case *protocol.Hello:
		if _, joined := r.core.Player(c.id); joined {
			return nil // a second Hello: the Core's protocol violation
		}
		if h.players.count[host]+h.line.byHost[host] >= h.opts.MaxPlayersPerAddr {
			return full()
		}
	case *protocol.Resume:
		old, ok := r.core.TokenConn(v.Token)
		if !ok || h.players.hosts[old] == host {
			return nil // the Core refuses the token, or the player stays with its address
		}
		if h.players.count[host] >= h.opts.MaxPlayersPerAddr {
			return full()
		}
	case *protocol.Spectate:
		if r.core.Watching(c.id) {
			return nil // a second Spectate: the Core's protocol violation
		}
		pool := share(r.core.Config().MaxSpectators, h.opts.SpectatorsPerAddr)
		switch mine := r.watchers[host]; pool.Check(r.core.Stats().Spectators, mine) {
		case limit.AddrFull:
			return &protocol.Error{Code: protocol.ErrCodeFull, Text: fmt.Sprintf(
				"too many spectators from your address: %d watch this room, the most one address may", mine)}
		case limit.Reserved:
			return &protocol.Error{Code: protocol.ErrCodeFull, Text: fmt.Sprintf(
				"spectators full: the last %d places of this room are kept for addresses that watch it from none", pool.Reserve)}
		}
		// limit.PoolFull: the Core refuses it, saying so.
	}
	return nil
}

// receive hands m to c's room's Core, and counts what it took: a player
// joined (or resumed) from c's address, a spectator of the room. A Hello
// that says it is a bot is believed only from a connection that may say
// so (Origin.Own, Origin.Bots).
func (h *Hub) receive(now time.Duration, c *conn, m protocol.Message) {
	r, host := c.room, c.from.Host
	var old world.ConnID
	resuming := false
	switch v := m.(type) {
	case *protocol.Hello:
		if v.Bot && !c.from.Own && !c.from.Bots {
			hello := *v
			hello.Bot = false
			m = &hello
		}
		// A player who dropped and joins afresh from its address (no
		// resume token: an SSH player without a key, a restarted client)
		// takes its name back from its away avatar.
		if away, ok := r.core.AwayNamed(v.Name); ok && !c.from.Own && h.players.hosts[away] == host {
			r.core.ReleaseAway(now, v.Name, "replaced by a new player of its name from its address")
		}
	case *protocol.Resume:
		old, resuming = r.core.TokenConn(v.Token)
	}
	r.core.Receive(now, c.id, m)
	c.heard = true
	h.touch(r)
	entered := false
	switch v := m.(type) {
	case *protocol.Hello, *protocol.Resume:
		if _, joined := r.core.Player(c.id); joined && !c.player {
			c.player, entered = true, true
			c.version = handshakeVersion(v)
		}
	case *protocol.Spectate:
		if r.core.Watching(c.id) && !c.spectator {
			c.spectator, entered = true, true
			c.version = v.Version
		}
	}
	if entered {
		h.entered(now, c)
	}
	if c.from.Own {
		return
	}
	switch m.(type) {
	case *protocol.Hello, *protocol.Resume:
		if _, joined := r.core.Player(c.id); joined {
			if resuming && old != c.id {
				h.players.leave(old)
			}
			h.players.join(c.id, host, c.classed(h))
		}
	case *protocol.Spectate:
		if !c.watching && r.core.Watching(c.id) {
			c.watching = true
			r.watchers[host]++
		}
	}
}

// handshakeVersion is the protocol version a Hello or Resume speaks.
func handshakeVersion(m protocol.Message) uint16 {
	switch v := m.(type) {
	case *protocol.Hello:
		return v.Version
	case *protocol.Resume:
		return v.Version
	}
	return 0
}

// roomShareRefusal refuses a new room to c's address, if it has opened
// its share of the rooms open, or if only the last rooms are left and it
// has opened some; nil if it may open one (RoomRate is checked after).
func (h *Hub) roomShareRefusal(c *conn) *protocol.Error {
	pool := share(h.opts.MaxRooms, h.opts.RoomsPerAddr)
	if c.from.Own {
		pool.PerAddr, pool.Reserve = h.opts.MaxRooms, 0
	}
	switch mine := h.roomsBy[c.from.Host]; pool.Check(len(h.rooms), mine) {
	case limit.PoolFull:
		return &protocol.Error{Code: protocol.ErrCodeFull, Text: fmt.Sprintf("server busy: %d rooms open, the most allowed", h.opts.MaxRooms)}
	case limit.AddrFull:
		return &protocol.Error{Code: protocol.ErrCodeFull, Text: fmt.Sprintf(
			"too many rooms from your address: it opened %d of those open, the most one address may", mine)}
	case limit.Reserved:
		return &protocol.Error{Code: protocol.ErrCodeFull, Text: fmt.Sprintf(
			"server busy: %d rooms open; the last %d are kept for addresses that opened none", len(h.rooms), pool.Reserve)}
	}
	return nil
}

// roomRateRefusal refuses a new room to c's address over its RoomRate,
// or counts it.
func (h *Hub) roomRateRefusal(now time.Duration, c *conn) *protocol.Error {
	if c.from.Own || h.roomOpens.Allow(c.from.Host, now) {
		return nil
	}
	return &protocol.Error{Code: protocol.ErrCodeFlood, Text: fmt.Sprintf(
		"rate limited: too many new rooms from your address, at most %d a minute; join one that is open", h.opts.RoomRate)}
}

// lobbyRefusal refuses a room list to c's address over its LobbyRate, or
// when all addresses together asked for LobbyRateTotal and c's asked for
// some lately too: an address that asked for none is answered from a
// spare tenth.
func (h *Hub) lobbyRefusal(now time.Duration, c *conn) *protocol.Error {
	if c.from.Own {
		return nil
	}
	host := c.from.Host
	fresh := h.lobby.Fresh(host, now)
	if !h.lobby.Allow(host, now) {
		return &protocol.Error{Code: protocol.ErrCodeFlood, Text: fmt.Sprintf(
			"rate limited: too many room lists from your address, at most %d a second", h.opts.LobbyRate)}
	}
	if h.lobbyAll.Allow("", now) || fresh && h.lobbySpare.Allow("", now) {
		return nil
	}
	return &protocol.Error{Code: protocol.ErrCodeFull, Text: "server busy: too many room lists asked for at once; try again in a moment"}
}

// rates are the hub's rate limits.
func (h *Hub) rates() [6]*limit.PerKey {
	return [...]*limit.PerKey{h.joins, h.roomOpens, h.lobby, h.lobbyAll, h.lobbySpare, h.wrongCodes}
}

// rated reports whether some address is remembered by a rate: then the
// hub forgets those done with it every sweepEvery.
func (h *Hub) rated() bool {
	for _, a := range h.rates() {
		if a.Len() > 0 {
			return true
		}
	}
	return false
}

// sweepRates forgets the addresses that have done nothing lately.
func (h *Hub) sweepRates(now time.Duration) {
	for _, a := range h.rates() {
		a.Sweep(now)
	}
	h.swept = now
}
