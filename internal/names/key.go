// Package names is how players' names are compared: Key folds names that
// look alike (case, compatibility forms, Unicode's confusables) to one
// key, which the game server holds unique among the players of a room,
// and CheckPlayer is protocol.CheckName for the name a player joins with,
// which keeps names that look like a bot's for bots. The table of
// look-alikes (confusables_table.go, 6,565 entries) and
// golang.org/x/text live here, so that the wire's package, protocol, and
// what imports only it (a load generator) carry neither.
package names

//go:generate go run gen_confusables.go

import (
	"errors"
	"strings"
	"unicode"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"gridlag/protocol"
)

// ErrBot is CheckPlayer's error for a human's name that looks like a
// bot's.
var ErrBot = errors.New(`name is reserved for bots (it starts with "bot", or something that looks like it, and no letter follows)`)

// CheckPlayer is protocol.CheckName for the name a player joins with; bot
// says whether the player says they are a bot (Hello.Bot). gridlag's bots
// are named bot-1, bot-2, ... (the bot package's default prefix), and
// such names are reserved for bots, so that a human can be told apart
// from one: a human's name may not start with "bot", in any case, or
// anything that looks like it (Key), unless a letter follows ("bot",
// "bot-1", "Bot_2", "BOT 3", "bоt-1" with a Cyrillic о and "ｂｏｔ-1" are
// refused, "botanist" and "robot" are not).
func CheckPlayer(name string, bot bool) error {
	if err := protocol.CheckName(name); err != nil {
		return err
	}
	if !bot && reservedForBots(name) {
		return ErrBot
	}
	return nil
}

// Key returns the key names are compared by, so that two names that
// look alike have the same key: "bot-1", "BOT-1", "bоt-1" (a Cyrillic о),
// "ｂｏｔ-1" (fullwidth) and "b0t-1" all have the key of "bot-1". It is
// the name's compatibility form (NFKC: fullwidth, ligatures and styled
// letters become plain ones), its Unicode skeleton (Unicode Technical
// Standard #39: each character that may be confused with others replaced
// by their prototype, from confusables.txt), case-folded, and the
// skeleton again (so that "I" and "l", "O" and "0" meet). A key is for
// comparing only, never for showing: it mixes scripts at will.
func Key(name string) string {
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

// bareKey is s's Key without its combining marks.
func bareKey(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.Is(unicode.M, r) {
			return -1
		}
		return r
	}, Key(s))
}
