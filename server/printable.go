package server

import (
	"strings"
	"unicode"
)

// printable returns s without control, format and other invisible
// characters (and without invalid UTF-8), so that text a client sent is
// safe to log and show.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if r == unicode.ReplacementChar || !unicode.IsPrint(r) || unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, s)
}
