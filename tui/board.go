package tui

import (
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/protocol"
)

// CorrectionMarkTime is how long the board marks the cell where a
// prediction was wrong.
const CorrectionMarkTime = time.Second

// drawBoard draws the map and everyone on it: floor and walls, the mark of
// a recent correction, the ghost where the server has you, the other
// players by their initials, and your avatar where prediction puts it.
func drawBoard(screen tcell.Screen, l layout, v *client.View) {
	m := v.Map
	if m == nil {
		msg := "waiting for the server…"
		if v.Err != nil {
			msg = "not connected"
		}
		putText(screen, l.areaX+(l.areaW-textWidth(msg))/2, l.areaY+l.areaH/2, l.areaW, msg, styleDim)
		return
	}
	floor, wall := "·", "█"
	if l.cellW == 2 {
		floor, wall = " ·", "██"
	}
	for y := 0; y < m.Height(); y++ {
		for x := 0; x < m.Width(); x++ {
			p := grid.Pos{X: x, Y: y}
			if m.Wall(p) {
				putCell(screen, l, p, wall, styleWall)
			} else {
				putCell(screen, l, p, floor, styleFloor)
			}
		}
	}
	if v.HasState && v.Server != v.Predicted && m.Inside(v.Server) {
		putCell(screen, l, v.Server, "@", styleGhost)
	}
	for _, o := range v.Others {
		if !m.Inside(o.Pos) {
			continue
		}
		st := tcell.StyleDefault.Foreground(PlayerColor(o.Color)).Bold(true)
		putCell(screen, l, o.Pos, initials(o.Name, l.cellW), st)
	}
	if c := v.LastCorrection; correctionVisible(v) && m.Inside(c.From) {
		drawCorrectionMark(screen, l, v, c.From)
	}
	if v.HasState && m.Inside(v.Predicted) {
		putCell(screen, l, v.Predicted, "@", styleMe)
	}
}

// drawCorrectionMark marks the cell where a prediction was wrong: a red
// cross on an empty cell, or a red background under the player who took
// the cell first.
func drawCorrectionMark(screen tcell.Screen, l layout, v *client.View, p grid.Pos) {
	for _, o := range v.Others {
		if o.Pos == p {
			st := tcell.StyleDefault.Foreground(tcell.ColorWhite).Background(styleCorrectionBg).Bold(true)
			putCell(screen, l, p, initials(o.Name, l.cellW), st)
			return
		}
	}
	putCell(screen, l, p, "×", styleCorrection)
}

// putCell draws one map cell: s padded with spaces to the cell's width.
func putCell(screen tcell.Screen, l layout, p grid.Pos, s string, st tcell.Style) {
	x, y := l.cell(p)
	n := putText(screen, x, y, l.cellW, s, st)
	for ; n < l.cellW; n++ {
		screen.Put(x+n, y, " ", st)
	}
}

// correctionVisible reports whether the last correction is recent enough
// to be marked on the board.
func correctionVisible(v *client.View) bool {
	c := v.LastCorrection
	return c != nil && v.Now >= c.At && v.Now-c.At < CorrectionMarkTime
}

// initials returns up to width columns of a player's initials: the first
// character of each word, then more characters of the first word if there
// is room. The name comes from the network and is sanitised first; an
// empty name gives "?".
func initials(name string, width int) string {
	words := strings.Fields(protocol.SanitizeName(name))
	if len(words) == 0 {
		return "?"
	}
	var b strings.Builder
	used := 0
	add := func(g string) bool {
		w := uniseg.StringWidth(g)
		if w == 0 || used+w > width {
			return false
		}
		b.WriteString(g)
		used += w
		return true
	}
	for _, word := range words {
		g, _, _, _ := uniseg.FirstGraphemeClusterInString(word, -1)
		if !add(g) {
			break
		}
	}
	// A name that ends in a number (bot-1, bot-2, player7) shows its
	// first letter and last digit, so that numbered players can be told
	// apart.
	if last := words[len(words)-1]; used < width && len(words) == 1 && len(last) > 1 && last[len(last)-1] >= '0' && last[len(last)-1] <= '9' {
		add(last[len(last)-1:])
		return b.String()
	}
	if used < width && len(words) == 1 {
		rest := words[0]
		_, rest, _, _ = uniseg.FirstGraphemeClusterInString(rest, -1)
		for rest != "" && used < width {
			var g string
			g, rest, _, _ = uniseg.FirstGraphemeClusterInString(rest, -1)
			if !add(g) {
				break
			}
		}
	}
	if used == 0 {
		return "?"
	}
	return b.String()
}
