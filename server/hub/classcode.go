package hub

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"gridlag/protocol"
)

// A class's code (protocol version 6) lets a class behind one address (a
// school's NAT) join its teacher's room: a connection that presents the
// code (Code, before its Hello or Resume) goes to the code's room and is
// held to that room's own cap (its world's players) instead of its
// address's share of the players (MaxPlayersPerAddr), and its joins to
// the class's rate instead of its address's. Every class has a code from
// its first teacher until its last leaves: the room's name (its letters
// and digits, "class" for the default room), a dash, and protocol.CodeLen
// characters drawn from protocol.CodeAlphabet by a generator seeded with
// Options.CodeSeed. A teacher of version 6 is told it (ClassCode) and
// asks for a new one with a ClassCode of its own: the old one admits
// nobody more at once, those in stay. A code the hub does not know is
// refused like any stranger ("unknown class code", ErrCodeClass) and
// counts against its address's CodeTries a minute; past them an
// address's codes are refused unread until it has tries again, so that
// no address can guess: with 30^6 codes, an address at 20 a minute tries
// every live code of a class in about 70 years. Codes are matched
// whatever their case.

// codePrefixLen is the most characters of a room's name a code begins
// with.
const codePrefixLen = 8

// codePrefix is what a code of the room called name begins with: its
// name's letters and digits (at most codePrefixLen), in small letters,
// or "class".
func codePrefix(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		if b.Len() < codePrefixLen && (r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return "class"
	}
	return b.String()
}

// newCode draws a code for r that no other class has.
func (h *Hub) newCode(r *room) string {
	for {
		b := []byte(codePrefix(r.name) + "-")
		for range protocol.CodeLen {
			b = append(b, protocol.CodeAlphabet[h.codeRand.IntN(len(protocol.CodeAlphabet))])
		}
		if code := string(b); h.codes[protocol.NormCode(code)] == nil {
			return code
		}
	}
}

// newCodeRand is the generator of the codes of a hub of seed.
func newCodeRand(seed [32]byte) *rand.Rand { return rand.New(rand.NewChaCha8(seed)) }

// setCode gives r's class a new code, asked for by teacher c at now (the
// first teacher when the class begins), forgetting its old one, and
// tells every teacher of version 6 of the room.
func (h *Hub) setCode(r *room, c *conn) {
	if old := r.class.code; old != "" {
		delete(h.codes, protocol.NormCode(old))
	}
	r.class.code = h.newCode(r)
	h.codes[protocol.NormCode(r.class.code)] = r
	for _, t := range r.class.teachers {
		h.tellCode(t, r)
	}
	h.notes = append(h.notes, Note{Kind: NoteCode, Conn: c.id, Host: c.from.Host, Room: r.name, Code: r.class.code})
}

// endCode forgets the code of r's class, which ends.
func (h *Hub) endCode(r *room, last *conn) {
	if r.class.code == "" {
		return
	}
	delete(h.codes, protocol.NormCode(r.class.code))
	h.notes = append(h.notes, Note{Kind: NoteCode, Conn: last.id, Host: last.from.Host, Room: r.name})
}

// tellCode tells t, a teacher of r, the code of r's class, if its version
// knows codes.
func (h *Hub) tellCode(t *conn, r *room) {
	if t.version >= protocol.ClassCodeSince {
		h.sendLater(t.id, &protocol.ClassCode{Code: r.class.code})
	}
}

// presentCode takes the code c presents before its handshake, at now, or
// refuses c: a second code, an address out of tries, a code no class
// has now (which uses one of its address's tries).
func (h *Hub) presentCode(now time.Duration, c *conn, m *protocol.Code) {
	host := c.from.Host
	var e *protocol.Error
	switch {
	case c.code != "":
		e = &protocol.Error{Code: protocol.ErrCodeProtocol, Text: "protocol violation: a second class code"}
	case !c.from.Own && h.wrongCodes.Wait(host, now) > 0:
		e = &protocol.Error{Code: protocol.ErrCodeClass, Text: fmt.Sprintf(
			"rate limited: too many wrong class codes from your address, at most %d a minute; try again in a minute", h.opts.CodeTries)}
	case h.codes[protocol.NormCode(m.Code)] == nil:
		if !c.from.Own {
			h.wrongCodes.Allow(host, now)
		}
		e = unknownCode()
	}
	if e != nil {
		h.refuse(now, c, e.Text, e)
		return
	}
	c.code = protocol.NormCode(m.Code)
}

// unknownCode refuses a code no class has now.
func unknownCode() *protocol.Error {
	return &protocol.Error{Code: protocol.ErrCodeClass, Text: "unknown class code: ask your teacher for the code on their screen (it changes when they ask)"}
}

// codeRoom is the room of the code c presented, for its handshake m: the
// code's class's room for a Hello or Spectate, nil if the code changed
// since c presented it (refused with the Error), nil and no Error when c
// presented none or m is a Resume (routed by its token).
func (h *Hub) codeRoom(c *conn, m protocol.Message) (*room, *protocol.Error) {
	if c.code == "" {
		return nil, nil
	}
	r := h.codes[c.code]
	if _, resume := m.(*protocol.Resume); resume {
		return nil, nil
	}
	if r == nil {
		return nil, unknownCode() // changed since: no try used, it was right
	}
	return r, nil
}

// classed reports whether c joins under its class's code: it presented
// the code of its room's class, which is still the class's.
func (c *conn) classed(h *Hub) bool {
	return c.code != "" && c.room != nil && h.codes[c.code] == c.room
}

// joinKey is the key of c's joins for JoinRate: its class's, when it
// presents a code, else its address's.
func (h *Hub) joinKey(c *conn) string {
	if c.code != "" {
		return "\x00class " + c.code
	}
	return c.from.Host
}
