package server

import (
	"fmt"
	"slices"
	"strings"

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
	name    string
	core    *Core
	conns   int        // connections routed here and not yet dropped
	touched bool       // in Server.touched
	kept    keptFrames // the frames of its big map, encoded once
}

// openRoom opens the room called name. A named room's Core is capped at
// RoomPlayers players; the default room keeps the Config's MaxPlayers.
func (s *Server) openRoom(name string) *room {
	cfg := s.opts.Config
	if name != "" {
		cfg.MaxPlayers = s.opts.RoomPlayers
	}
	r := &room{name: name, core: NewCore(cfg), kept: make(keptFrames)}
	s.rooms[name] = r
	if name != "" {
		s.log.Info("room opened", "room", name, "rooms", len(s.rooms))
	}
	return r
}

// roomFor returns the room a connection's first message m asks for,
// opening it if needed, or the Error that refuses it: a name CheckName
// refuses, or a new room over MaxRooms.
func (s *Server) roomFor(m protocol.Message) (*room, *protocol.Error) {
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
	if len(s.rooms) >= s.opts.MaxRooms {
		return nil, &protocol.Error{Code: protocol.ErrCodeFull, Text: fmt.Sprintf("server busy: %d rooms open, the most allowed", s.opts.MaxRooms)}
	}
	return s.openRoom(name), nil
}

// enter routes c to the room its first message m asks for. It reports
// false if c was refused (and dropped).
func (s *Server) enter(c *conn, m protocol.Message) bool {
	r, refusal := s.roomFor(m)
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
		s.mu.Lock()
		delete(s.published, r.name)
		s.retired.add(r.core.Stats())
		s.mu.Unlock()
		s.log.Info("room closed", "room", r.name, "rooms", len(s.rooms))
	}
	clear(s.touched)
	s.touched = s.touched[:0]
}

// listRooms answers a ListRooms from c with every room open now.
func (s *Server) listRooms(c *conn, m *protocol.ListRooms) {
	if !protocol.Supported(m.Version) {
		text := VersionRefusal(m.Version)
		s.drop(c, "refused: "+text, &protocol.Error{Code: protocol.ErrCodeVersion, Text: text}, true)
		return
	}
	c.lobby, c.version = true, m.Version
	s.send(c, s.roomList())
}

// roomList describes every open room, the default room first, the others
// by name; a lobby shows it.
func (s *Server) roomList() *protocol.Rooms {
	now := s.now()
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
	slices.SortFunc(list.Rooms, func(a, b protocol.RoomInfo) int { return strings.Compare(a.Name, b.Name) })
	if len(list.Rooms) > protocol.MaxRooms {
		list.Rooms = list.Rooms[:protocol.MaxRooms]
	}
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
