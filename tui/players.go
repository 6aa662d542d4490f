package tui

import (
	"errors"
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

// ghostStyle is where the server last placed you, on a board that draws
// you in palette colour color: your mark in that colour, dimmed.
func ghostStyle(color uint8) tcell.Style {
	return tcell.StyleDefault.Foreground(PlayerColor(color)).Dim(true)
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
