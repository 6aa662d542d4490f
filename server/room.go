package server

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"time"

	"gridlag/protocol"
)

// room is one world of the server: a Core, with its own round and players,
// and the connections routed to it. A connection is routed by its first
// Hello or Spectate (its Room field; any other first message goes to the
// default room, whose Core refuses it as before rooms); a Resume goes to
// the room whose Core issued its token. The default room,
// named "", opens with the server and never closes, so a server whose
// clients name no room plays exactly as one without rooms; a named room
// opens when its first connection asks for it and closes, its Core
// dropped, at the first flush after its last connection is gone and its
// last away player (kept for resume) has left: no other grace, as a room
// holds nothing worth keeping once nobody is in it (the next player to
// name it starts a fresh round).
type room struct {
	name     string
	core     *Core
	conns    int            // connections routed here and not yet dropped
	touched  bool           // in Server.touched
	opener   string         // the address that opened it ("" for the default room and the server's own)
	watchers map[string]int // its spectators by address
}

// openRoom opens the room called name. A named room's Core is capped at
// RoomPlayers players; the default room keeps the Config's MaxPlayers.
// Every room plays on the server's one MapShare: the map and its encoded
// chunks are built once, by the first room (the default room, opened by
// Serve before the loop starts), never on the loop's goroutine.
func (s *Server) openRoom(name string) *room {
	cfg := s.opts.Config
	if s.share == nil {
		var err error
		if s.share, err = NewMapShare(cfg.WithDefaults().Map); err != nil {
			panic(err) // cannot happen: a valid map's chunks encode
		}
	}
	if name != "" {
		cfg.MaxPlayers = s.opts.RoomPlayers
	}
	r := &room{name: name, core: NewSharedCore(cfg, s.share), watchers: make(map[string]int)}
	s.rooms[name] = r
	s.list.dirty = true
	return r
}

// roomFor returns the room c's first message m asks for, opening it if
// needed, or the Error that refuses it: a name CheckName refuses, or a
// new room over MaxRooms, over the share of c's address (RoomsPerAddr) or
// over its RoomRate.
func (s *Server) roomFor(c *conn, m protocol.Message) (*room, *protocol.Error) {
	var name string
	switch v := m.(type) {
	case *protocol.Hello:
		name = v.Room
	case *protocol.Spectate:
		name = v.Room
	case *protocol.Resume:
		// A token belongs to the room whose Core issued it; an unknown
		// one goes to the default room, whose Core refuses it.
		for _, r := range s.rooms {
			if r.core.HasToken(v.Token) {
				return r, nil
			}
		}
		return s.rooms[""], nil
	}
	if r := s.rooms[name]; r != nil {
		return r, nil
	}
	if err := protocol.CheckName(name); err != nil {
		return nil, &protocol.Error{Code: protocol.ErrCodeName, Text: "room name refused: " + err.Error()}
	}
	if e := s.roomShareRefusal(c); e != nil {
		return nil, e
	}
	if e := s.roomRateRefusal(c); e != nil {
		return nil, e
	}
	r := s.openRoom(name)
	r.opener = c.host
	if c.host != "" {
		s.roomsBy[c.host]++
	}
	s.warn.Info("room opened "+c.host, "room opened", "room", name, "rooms", len(s.rooms), "remote", c.remote)
	return r, nil
}

// enter routes c to the room its first message m asks for. It reports
// false if c was refused (and dropped).
func (s *Server) enter(c *conn, m protocol.Message) bool {
	r, refusal := s.roomFor(c, m)
	if refusal != nil {
		s.drop(c, refusal.Text, refusal, true)
		return false
	}
	c.world = r
	r.conns++
	return true
}

// touch notes that r was given something (a message, a tick, a
// disconnection): the next flush queues its output and publishes its
// counters. Only the rooms touched cost a flush anything.
func (s *Server) touch(r *room) {
	if !r.touched {
		r.touched = true
		s.touched = append(s.touched, r)
	}
}

// closeEmptyRooms closes the named rooms touched since the last flush
// that nobody is in any more (a room empties only by a drop, which touches
// it); their counters stay in the server's totals. It ends the flush.
func (s *Server) closeEmptyRooms() {
	for _, r := range s.touched {
		r.touched = false
		if r.name == "" || r.conns > 0 || r.core.Stats().Away > 0 {
			continue // in use, or keeping an away player for its resume
		}
		delete(s.rooms, r.name)
		if r.opener != "" {
			if s.roomsBy[r.opener]--; s.roomsBy[r.opener] <= 0 {
				delete(s.roomsBy, r.opener)
			}
		}
		s.list.dirty = true
		s.mu.Lock()
		delete(s.published, r.name)
		s.retired.add(r.core.Stats())
		s.mu.Unlock()
		s.warn.Info("room closed "+r.opener, "room closed", "room", r.name, "rooms", len(s.rooms), "opened_by", r.opener)
	}
	clear(s.touched)
	s.touched = s.touched[:0]
}

// listRooms answers a ListRooms from c with the room list, unless its
// address asks for too many (lobbyRefusal).
func (s *Server) listRooms(c *conn, m *protocol.ListRooms) {
	if !protocol.Supported(m.Version) {
		text := VersionRefusal(m.Version)
		s.drop(c, "refused: "+text, &protocol.Error{Code: protocol.ErrCodeVersion, Text: text}, true)
		return
	}
	if e := s.lobbyRefusal(c); e != nil {
		s.refuse(c, e)
		return
	}
	c.lobby, c.version = true, m.Version
	f, err := s.roomListFrame(m.Version)
	if err != nil {
		s.log.Error("cannot encode", "type", protocol.TypeRooms, "err", err)
		return
	}
	s.push(c, f)
}

// roomList is the room list as last encoded: every request shares its
// frame until the rooms change (a room opens or closes, someone joins,
// leaves, starts or stops watching), or listStale has passed (the rounds'
// times left): the next request encodes it again. So it is encoded at
// most once per change and per request (LobbyRateTotal bounds those),
// and a flood of requests with nothing changing encodes it once a
// listStale.
type roomList struct {
	frame  frame         // for version 4 on: a list cut to fit a frame carries its Total
	frame3 frame         // for version 3, which knows no Total: the same rooms without it
	at     time.Duration // when it was encoded, on the loop's clock
	dirty  bool          // the rooms changed since
}

// listStale is how long the room list is answered unchanged while the
// rooms do not change: the rounds' times left it carries are that late
// at most.
const listStale = time.Second

// roomListFrame returns the room list's frame for a client of protocol
// version v, encoding it if it is out of date.
func (s *Server) roomListFrame(v uint16) (frame, error) {
	now := s.now()
	l := &s.list
	if l.frame.head == nil || l.dirty || now-l.at >= listStale {
		list := s.roomList(now)
		b, err := protocol.Marshal(list)
		if err != nil {
			return frame{}, err
		}
		b3 := b
		if list.Total != 0 {
			list.Total = 0
			if b3, err = protocol.Marshal(list); err != nil {
				return frame{}, err
			}
		}
		l.frame, l.frame3, l.at, l.dirty = frame{head: b}, frame{head: b3}, now, false
	}
	if v < protocol.RoomsTotalSince {
		return l.frame3, nil
	}
	return l.frame, nil
}

// roomList describes the open rooms for a lobby, the default room first,
// the others by name. If they do not all fit a frame, those with the
// most players and spectators are listed, and Total says how many are
// open.
func (s *Server) roomList(now time.Duration) *protocol.Rooms {
	list := &protocol.Rooms{MaxRooms: uint16(min(s.opts.MaxRooms, protocol.MaxRooms))}
	for _, r := range s.rooms {
		st := r.core.Stats()
		round, ends, _ := r.core.Round()
		list.Rooms = append(list.Rooms, protocol.RoomInfo{
			Name:       r.name,
			Players:    uint16(st.Players),
			MaxPlayers: uint16(r.core.Config().MaxPlayers),
			Spectators: uint16(st.Spectators),
			Round:      uint16(round),
			LeftMS:     uint32(max(ends-now, 0).Milliseconds()),
		})
	}
	byName := func(a, b protocol.RoomInfo) int { return strings.Compare(a.Name, b.Name) }
	if n := protocol.FitRooms(list.Rooms); n < len(list.Rooms) {
		// The busiest first (the default room before all), then by name.
		busy := func(ri protocol.RoomInfo) int {
			if ri.Name == "" {
				return math.MaxInt
			}
			return int(ri.Players) + int(ri.Spectators)
		}
		slices.SortFunc(list.Rooms, func(a, b protocol.RoomInfo) int {
			if d := cmp.Compare(busy(b), busy(a)); d != 0 {
				return d
			}
			return byName(a, b)
		})
		list.Total = uint16(len(list.Rooms))
		list.Rooms = list.Rooms[:protocol.FitRooms(list.Rooms)]
	}
	slices.SortFunc(list.Rooms, byName)
	return list
}

// publishStats publishes the counters of the rooms touched for
// Server.Stats and Rooms, before the frames of a flush are queued: whoever
// reads one of them then sees the counters.
func (s *Server) publishStats() {
	s.mu.Lock()
	for _, r := range s.touched {
		s.published[r.name] = r.core.Stats()
	}
	s.mu.Unlock()
}

// RoomStats are one room's counters.
type RoomStats struct {
	Name  string // "" for the default room
	Stats Stats
}

// Rooms returns the counters of every open room, as of the last event the
// server handled, the default room first, the others by name.
func (s *Server) Rooms() []RoomStats {
	s.mu.Lock()
	rooms := make([]RoomStats, 0, len(s.published))
	for name, st := range s.published {
		rooms = append(rooms, RoomStats{Name: name, Stats: st})
	}
	s.mu.Unlock()
	slices.SortFunc(rooms, func(a, b RoomStats) int { return strings.Compare(a.Name, b.Name) })
	return rooms
}
