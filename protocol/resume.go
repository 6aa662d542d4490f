package protocol

import (
	"encoding/binary"
	"fmt"
)

// TokenLen is the size of a resume token in bytes: 128 bits.
const TokenLen = 16

// Token lets a player whose connection dropped get its avatar back. The
// server draws it from crypto/rand, binds it to one player, and gives it in
// the Welcome; it works once, and each resume gives a new one. The zero
// Token is "none".
type Token [TokenLen]byte

// IsZero reports whether t is the zero Token, "none".
func (t Token) IsZero() bool { return t == Token{} }

// Resume is a returning player's first message, sent instead of Hello: it
// asks for the avatar the token is bound to. The server answers with a
// Welcome for the same player ID (and a new token), followed by the map
// (MapBits, or MapChunks to version 3) if it does not fit (see
// Welcome.MapFollows), then a Join for
// each player in the area of interest and a full State of it, whose Ack
// tells which inputs it processed before the drop.
// A token unknown or expired gets an Error of code ErrCodeResume.
//
// It is a message of its own rather than a field of Hello because it
// asks for something else: the avatar keeps its name, colour and bot flag,
// so none of Hello's fields (nor its name checks) apply, and a Hello keeps
// its bytes for every client and server of this Version.
type Resume struct {
	Version uint16 // the client's protocol version, checked as Hello's is
	Token   Token  // from the last Welcome; never zero
}

// Type implements Message.
func (*Resume) Type() Type { return TypeResume }

func (m *Resume) appendPayload(b []byte) ([]byte, error) {
	if m.Token.IsZero() {
		return b, fmt.Errorf("zero token: %w", ErrBadValue)
	}
	b = binary.BigEndian.AppendUint16(b, m.Version)
	return append(b, m.Token[:]...), nil
}

func (m *Resume) decodePayload(r *reader) error {
	m.Version = r.u16()
	m.Token = r.token()
	if r.err == nil && m.Token.IsZero() {
		r.fail(fmt.Errorf("zero token: %w", ErrBadValue))
	}
	return r.done()
}

func (r *reader) token() Token {
	var t Token
	copy(t[:], r.take(TokenLen))
	return t
}
