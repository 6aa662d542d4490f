package protocol

import (
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxNameRunes is the longest player name, in characters.
const MaxNameRunes = 16

// Name errors returned by CheckName.
var (
	ErrNameEmpty   = errors.New("name is empty")
	ErrNameLong    = errors.New("name is longer than 16 characters")
	ErrNameControl = errors.New("name contains control or invisible characters")
	ErrNameSpace   = errors.New("name has leading, trailing or repeated spaces")
)

// CheckName reports whether s is acceptable as a player name: 1 to
// MaxNameRunes printable characters, valid UTF-8, no control characters, no
// leading or trailing space.
func CheckName(s string) error {
	if s == "" || strings.TrimSpace(s) == "" {
		return ErrNameEmpty
	}
	if !utf8.ValidString(s) || SanitizeName(s) != s {
		switch {
		case utf8.RuneCountInString(s) > MaxNameRunes:
			return ErrNameLong
		case SanitizeName(s) == strings.Join(strings.Fields(s), " "):
			return ErrNameSpace
		}
		return ErrNameControl
	}
	return nil
}

// SanitizeName turns any string into a name that is safe to show in a
// terminal: invalid UTF-8, control characters (escape sequences included),
// format characters and other invisible runes are removed, white space is
// folded to single spaces, and the result is cut to MaxNameRunes characters.
// It may return "".
func SanitizeName(s string) string {
	var b strings.Builder
	n := 0
	space := false
	for _, r := range s {
		if n >= MaxNameRunes {
			break
		}
		switch {
		case unicode.IsSpace(r):
			space = n > 0
			continue
		case !visible(r):
			continue
		}
		if space {
			if n+1 >= MaxNameRunes {
				break
			}
			b.WriteByte(' ')
			n++
			space = false
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// Printable returns s without invalid UTF-8, control characters (escape
// sequences included), format characters and other invisible runes: text
// that came over the wire (a Bye's reason, an Error's text) made safe to log
// or show in a terminal. Unlike SanitizeName it keeps the length and the
// spaces.
func Printable(s string) string {
	return strings.Map(func(r rune) rune {
		if !visible(r) {
			return -1
		}
		return r
	}, s)
}

// visible reports whether r may be shown: valid, printable, not a format
// character.
func visible(r rune) bool {
	return r != utf8.RuneError && unicode.IsPrint(r) && !unicode.Is(unicode.Cf, r)
}
