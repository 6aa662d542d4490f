package server

import (
	"crypto/rand"

	"gridlag/protocol"
	"gridlag/server/hub"
)

// The classes' codes, as the hub last said (hub.NoteCode): for the front
// ends in the server's process, which hold a session that presents one
// to its class's cap instead of its address's (the hub decides again
// when the session's Code comes). A code is the class's secret: the log
// names it only cut short.

// seedCodes draws the secret seed of the hub's class codes, unless the
// caller gave one (a test).
func seedCodes(o *hub.Options) {
	if o.CodeSeed == ([32]byte{}) {
		rand.Read(o.CodeSeed[:]) // never fails (crypto/rand.Read)
	}
}

// noteCode keeps a class's new code (or its end) for ClassCode, and logs
// it cut short.
func (s *Server) noteCode(n hub.Note, remote string) {
	s.mu.Lock()
	for code, room := range s.codes {
		if room == n.Room {
			delete(s.codes, code)
		}
	}
	if n.Code != "" {
		s.codes[protocol.NormCode(n.Code)] = n.Room
	}
	s.mu.Unlock()
	if n.Code == "" {
		s.log.Info("class code ended with the class", "room", n.Room)
		return
	}
	s.log.Info("class code", "room", n.Room, "code", ShortCode(n.Code), "remote", remote, "conn", n.Conn)
}

// ShortCode is code as a log may name it: its room's prefix and the
// first of its random characters, the rest hidden.
func ShortCode(code string) string {
	for i := len(code) - 1; i >= 0; i-- {
		if code[i] == '-' {
			return code[:min(i+2, len(code))] + "…"
		}
	}
	return "…"
}

// ClassCode reports whether code (in any case, surrounded by spaces or
// not) is a class's code now, and the class's room.
func (s *Server) ClassCode(code string) (room string, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	room, ok = s.codes[protocol.NormCode(code)]
	return room, ok
}
