package tui

import (
	"errors"
	"strconv"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"

	"gridlag/client"
	"gridlag/internal/names"
	"gridlag/protocol"
)

// otherStyle returns the style of another player on the board: bold in
// their colour (the server's, by player, not by name), or for a bot, dark
// on a block of their colour.
func otherStyle(o client.Other) tcell.Style { return playerStyle(o.Color, isBot(o.Name)) }

// playerStyle returns the style of a player's mark in palette colour
// color: bold in it, or for a bot, dark on a block of it.
func playerStyle(color uint8, bot bool) tcell.Style {
	c := PlayerColor(color)
	if bot {
		return tcell.StyleDefault.Foreground(tcell.ColorBlack).Background(c)
	}
	return tcell.StyleDefault.Foreground(c).Bold(true)
}

// isBot reports whether a player is a bot: names such as "bot" and
// "bot-1" are reserved for bots (see names.CheckPlayer), so no
// human has one.
func isBot(name string) bool {
	return errors.Is(names.CheckPlayer(name, false), names.ErrBot)
}

// playerMarks draws each player with one mark and one colour on every
// board, the board's own player too (see Board.marks): the lab's three
// boards, where Player 1 is the same 1 in the same colour on its own
// board, the server's and Player 2's.
type playerMarks struct {
	// mark returns the mark of the named player.
	mark func(name string) string
	// self returns the board's own player's mark and palette colour.
	self func() (mark string, color uint8)
}

// ghostStyle is where the server last placed you, on a board that draws
// you in palette colour color: your mark in that colour, dimmed.
func ghostStyle(color uint8) tcell.Style {
	return tcell.StyleDefault.Foreground(PlayerColor(color)).Dim(true)
}

// distinctMarks returns one mark for each of the named players, never the
// same for two: the first character of each name when those differ
// ("A" and "B" for Ada and Bob), else their numbers, "1", "2", ... (the
// lab's "Player 1" and "Player 2").
func distinctMarks(names []string) []string {
	marks := make([]string, len(names))
	seen := map[string]bool{}
	for i, n := range names {
		marks[i] = playerGlyph(n, 1)
		if seen[marks[i]] || marks[i] == "?" {
			for i := range marks {
				marks[i] = strconv.Itoa(i + 1)
			}
			return marks
		}
		seen[marks[i]] = true
	}
	return marks
}

// playerGlyph returns another player's mark on the board, at most width
// columns: the first character of their name, or "?" when the name has
// none that fits. One character a cell keeps neighbours apart (the rest of
// a two-column cell stays blank), and colours tell them apart. The name
// comes from the network and is sanitised first.
func playerGlyph(name string, width int) string {
	name = strings.TrimSpace(protocol.SanitizeName(name))
	g, _, w, _ := uniseg.FirstGraphemeClusterInString(name, -1)
	if g == "" || w == 0 || w > width {
		return "?"
	}
	return g
}
