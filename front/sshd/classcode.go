package sshd

import (
	"strings"

	"gridlag/protocol"
)

// A student of a class joins its teacher's room over SSH with the class's
// code as the login: ssh -p 2222 3b-K7Q2XM@host plays as "player" (the
// game numbers it if taken), ssh -p 2222 3b-K7Q2XM+ada@host as ada. A
// login with a code's shape (protocol.LooksLikeCode) is presented to the
// game server as a code: one it knows now (Options.ClassCode) is held to
// the class's cap instead of its address's session cap; one it does not
// is refused by the game server ("unknown class code"), which counts its
// address's wrong codes. Any other login is a player's name, as ever.

// classLogin reads a login that is a class code, "CODE" or "CODE+NAME":
// the code and the name ("" for none); ok is false for any other login.
func classLogin(user string) (code, name string, ok bool) {
	code, name, _ = strings.Cut(user, "+")
	if !protocol.LooksLikeCode(code) {
		return "", "", false
	}
	return code, name, true
}

// classKey is the key of the session caps of a session whose login is a
// code the game server knows now: its class's, which only the cap in
// all holds; "" for any other session.
func (s *Server) classKey(user string) string {
	code, _, ok := classLogin(user)
	if !ok || s.opts.ClassCode == nil {
		return ""
	}
	if _, known := s.opts.ClassCode(code); !known {
		return ""
	}
	return "class " + protocol.NormCode(code)
}
