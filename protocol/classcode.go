package protocol

import (
	"fmt"
	"strings"
)

// Version 6 lets a class behind one address (a school's NAT) join its
// teacher's room with a class code instead of its address's caps. A
// room's teacher is told the class's code (ClassCode, from the server)
// when it begins to teach and whenever it changes; a teacher asks for a
// new one by sending ClassCode itself (its Code empty), and the old code
// admits nobody more at once (the students in stay). A student presents
// the code (Code) as its first message, before its Hello or Resume: the
// server then takes it into the code's room, counted against the room's
// own cap and not against its address's players; a code the server does
// not know now is refused with an Error of code ErrCodeClass, and each
// such refusal counts against its address's rate of wrong codes. A
// client of version 5 or before never sends Code, and is never sent
// ClassCode.

// ClassCodeSince is the first version that knows Code and ClassCode.
const ClassCodeSince uint16 = 6

// MaxCodeLen is the longest class code, in bytes.
const MaxCodeLen = 32

// ErrCodeClass (version 6): a Code the server does not know (wrong, or
// changed since), or one more from an address that sent too many wrong.
const ErrCodeClass uint8 = 12

// CodeAlphabet are the characters of a code's random part: no 0 nor O,
// no 1, I nor L, no U (read as V), so that a code read off a projector is
// typed right.
const CodeAlphabet = "23456789ABCDEFGHJKMNPQRSTVWXYZ"

// CodeLen is how many characters of CodeAlphabet a code has after its
// room's prefix: about 29 bits.
const CodeLen = 6

// NormCode is code as a server matches it: without surrounding space,
// in capitals.
func NormCode(code string) string { return strings.ToUpper(strings.TrimSpace(code)) }

// LooksLikeCode reports whether s has the shape of a class code, in any
// case: a prefix, a dash, then CodeLen characters of CodeAlphabet (a
// front end that reads codes from a login name tells them from names so).
func LooksLikeCode(s string) bool {
	s = NormCode(s)
	i := strings.LastIndexByte(s, '-')
	if i < 1 || len(s) > MaxCodeLen || len(s)-i-1 != CodeLen {
		return false
	}
	for _, r := range s[i+1:] {
		if !strings.ContainsRune(CodeAlphabet, r) {
			return false
		}
	}
	return CheckCode(s) == nil
}

// Code presents a class code: a student's first message, before its
// Hello or Resume (see ClassCodeSince).
type Code struct {
	Code string // at most MaxCodeLen bytes of printable ASCII
}

// ClassCode tells a teacher its class's code (from the server), or asks
// the server for a new one (from a teacher, its Code empty).
type ClassCode struct {
	Code string // at most MaxCodeLen bytes of printable ASCII; "" when a teacher asks for a new one
}

// Type implements Message.
func (*Code) Type() Type { return TypeCode }

// Type implements Message.
func (*ClassCode) Type() Type { return TypeClassCode }

// CheckCode reports whether s may be a class code on the wire: at most
// MaxCodeLen bytes of printable ASCII, no space. An empty s is checked
// by each message (a Code needs one).
func CheckCode(s string) error {
	if len(s) > MaxCodeLen {
		return fmt.Errorf("class code of %d bytes, longer than %d: %w", len(s), MaxCodeLen, ErrBadValue)
	}
	if i := strings.IndexFunc(s, func(r rune) bool { return r <= ' ' || r > '~' }); i >= 0 {
		return fmt.Errorf("class code with byte %#x: %w", s[i], ErrBadValue)
	}
	return nil
}

func appendCode(b []byte, code string, empty bool) ([]byte, error) {
	if code == "" && !empty {
		return b, fmt.Errorf("empty class code: %w", ErrBadValue)
	}
	if err := CheckCode(code); err != nil {
		return b, err
	}
	return appendStr(b, code)
}

func decodeCode(r *reader, empty bool) string {
	s := r.str()
	if r.err == nil && (CheckCode(s) != nil || s == "" && !empty) {
		r.fail(ErrBadValue)
	}
	return s
}

func (m *Code) appendPayload(b []byte) ([]byte, error) { return appendCode(b, m.Code, false) }

func (m *Code) decodePayload(r *reader) error {
	m.Code = decodeCode(r, false)
	return r.done()
}

func (m *ClassCode) appendPayload(b []byte) ([]byte, error) { return appendCode(b, m.Code, true) }

func (m *ClassCode) decodePayload(r *reader) error {
	m.Code = decodeCode(r, true)
	return r.done()
}
