package protocol

//go:generate go run gen_confusables.go

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// NameKey returns the key names are compared by, so that two names that
// look alike have the same key: "bot-1", "BOT-1", "bоt-1" (a Cyrillic о),
// "ｂｏｔ-1" (fullwidth) and "b0t-1" all have the key of "bot-1". It is
// the name's compatibility form (NFKC: fullwidth, ligatures and styled
// letters become plain ones), its Unicode skeleton (Unicode Technical
// Standard #39: each character that may be confused with others replaced
// by their prototype, from confusables.txt), case-folded, and the
// skeleton again (so that "I" and "l", "O" and "0" meet). A key is for
// comparing only, never for showing: it mixes scripts at will.
func NameKey(name string) string {
	return skeleton(foldCase.String(skeleton(norm.NFKC.String(name))))
}

// foldCase folds case for comparison (ß and ss alike).
var foldCase = cases.Fold()

// skeleton is Unicode's skeleton of s: NFD, each character replaced by
// its prototype, NFD again.
func skeleton(s string) string {
	s = norm.NFD.String(s)
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if p, ok := confusables[r]; ok {
			b.WriteString(p)
		} else {
			b.WriteRune(r)
		}
	}
	return norm.NFD.String(b.String())
}

// reservedForBots reports whether name starts with something that looks
// like "bot", in any case and script, marks aside, and no letter follows:
// "bot", "bot-1", "Bot_2", "bоt-1" (a Cyrillic о), "ｂｏｔ-1", "b0t 3",
// "bót-1". A letter after it makes an ordinary word ("botanist").
func reservedForBots(name string) bool {
	s := norm.NFKC.String(name)
	for i, r := range s {
		if i == 0 || unicode.Is(unicode.M, r) {
			continue // never split a character from its marks
		}
		if bareKey(s[:i]) == "bot" && !unicode.IsLetter(r) {
			return true
		}
	}
	return bareKey(s) == "bot"
}

// bareKey is s's NameKey without its combining marks.
func bareKey(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.Is(unicode.M, r) {
			return -1
		}
		return r
	}, NameKey(s))
}

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
