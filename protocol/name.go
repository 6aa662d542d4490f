package protocol

import (
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxNameRunes is the longest player name, in characters.
const MaxNameRunes = 16

// Name errors returned by CheckName (and names.CheckPlayer), one for each
// way a name can be refused.
var (
	ErrNameEmpty     = errors.New("name is empty")
	ErrNameLong      = errors.New("name is longer than 16 characters")
	ErrNameUTF8      = errors.New("name is not valid UTF-8")
	ErrNameControl   = errors.New("name contains a control character")
	ErrNameInvisible = errors.New("name contains an invisible character")
	ErrNameSpace     = errors.New("name has leading, trailing, repeated or unusual spaces")
	ErrNameBlank     = errors.New("name has no visible character")
	ErrNameMarks     = errors.New("name stacks more than 3 combining marks on one character")
)

// CheckName reports whether s is acceptable as a player name: valid UTF-8,
// 1 to MaxNameRunes characters, no control character (tabs and newlines
// included), no invisible character (format characters such as zero-width
// spaces and bidi overrides, default-ignorable ones such as U+3164 HANGUL
// FILLER and variation selectors, U+2800 BRAILLE PATTERN BLANK, unassigned
// code points), single plain spaces between words only, and at least one
// visible character that is not a combining mark, and no more than
// MaxNameMarks combining marks on one character. The error names the first
// problem found. CheckName accepts exactly the names that are not empty and
// that SanitizeName leaves unchanged.
func CheckName(s string) error {
	if strings.TrimSpace(s) == "" {
		return ErrNameEmpty
	}
	if utf8.RuneCountInString(s) > MaxNameRunes {
		return ErrNameLong
	}
	base := false
	for _, r := range s {
		switch {
		case r == utf8.RuneError:
			return ErrNameUTF8
		case unicode.IsControl(r):
			return ErrNameControl
		case r != ' ' && unicode.IsSpace(r):
			return ErrNameSpace
		case !visible(r):
			return ErrNameInvisible
		}
		base = base || isBase(r)
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' || strings.Contains(s, "  ") {
		return ErrNameSpace
	}
	if !base {
		return ErrNameBlank
	}
	if heavyMarks(s) {
		return ErrNameMarks
	}
	return nil
}

// SanitizeName turns any string into a name that is safe to show in a
// terminal: invalid UTF-8, control characters (escape sequences included),
// format characters and other invisible runes (see CheckName) are removed,
// and so are combining marks past MaxNameMarks on one character,
// white space is folded to single spaces, and the result is cut to
// MaxNameRunes characters. It returns "" when nothing visible but combining
// marks is left.
func SanitizeName(s string) string {
	var b strings.Builder
	n, marks := 0, 0
	space, base := false, false
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
		case unicode.Is(unicode.M, r):
			if marks++; marks > MaxNameMarks {
				continue
			}
		default:
			marks = 0
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
		base = base || isBase(r)
	}
	if !base {
		return ""
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

// brailleBlank is U+2800 BRAILLE PATTERN BLANK: a symbol that shows as
// nothing.
const brailleBlank = '\u2800'

// visible reports whether r may be shown and shows as something: valid,
// printable, not a format character, not default-ignorable (fillers,
// variation selectors), not the blank braille pattern.
func visible(r rune) bool {
	return r != utf8.RuneError && r != brailleBlank && unicode.IsPrint(r) &&
		!unicode.In(r, unicode.Cf, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector)
}

// isBase reports whether r, a visible rune, takes a cell of its own: not a
// space and not a combining mark (which is drawn on the character before
// it).
func isBase(r rune) bool { return r != ' ' && !unicode.Is(unicode.M, r) }

// MaxNameMarks is the most combining marks a name may stack on one
// character: enough for the scripts that stack them (a Vietnamese vowel
// in decomposed form has two, a Devanagari syllable up to three), not for
// "heavy" names whose marks spill over the lines around them.
const MaxNameMarks = 3

// heavyMarks reports whether s stacks more than MaxNameMarks combining
// marks on one character.
func heavyMarks(s string) bool {
	run := 0
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		s = s[n:]
		if !unicode.Is(unicode.M, r) {
			run = 0
			continue
		}
		if run++; run > MaxNameMarks {
			return true
		}
	}
	return false
}
