package web

import (
	"gridlag/protocol"
)

// A page carries a class code in its socket's address (/ws?code=...,
// from the page's own ?code= or the field beside the name): the session
// presents it to the game server before its Hello, and plays in the
// class's room. A code the game server knows now (Options.ClassCode)
// takes a session slot of its class's, held only to the cap in all
// (-web-max), not to the address's (-web-per-addr): a class behind one
// school's address plays whole. Any other code takes the address's slot
// as a page without one, and the game server refuses it ("unknown class
// code", counting its address's wrong codes).

// classSlot is the key of the session slot of a page from address key
// presenting code, and whether it is a class's (held to the cap in all
// only); bad says why a code is refused at once (not one at all).
func (s *Server) classSlot(key, code string) (slot string, class bool, bad string) {
	switch {
	case code == "":
		return key, false, ""
	case protocol.CheckCode(code) != nil:
		return key, false, "that is not a class code: it is letters, digits and a dash, as your teacher's screen shows it"
	case s.opts.ClassCode != nil:
		if _, ok := s.opts.ClassCode(code); ok {
			return "class " + protocol.NormCode(code), true, ""
		}
	}
	return key, false, ""
}
