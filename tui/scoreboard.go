package tui

import (
	"fmt"
	"strconv"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
	"gridlag/grid"
)

// scoreCompactRows is the fewest rows the panel gives the scoreboard
// when the player's lines must be cut to one: the top three and your own.
const scoreCompactRows = 4

// span is a piece of a panel line in its own style.
type span struct {
	text  string
	style tcell.Style
}

// panelLine is one line of the panel, in pieces of their own styles.
type panelLine []span

// draw writes the line at (x, y), at most w columns.
func (l panelLine) draw(screen tcell.Screen, x, y, w int) {
	used := 0
	for _, s := range l {
		used += putText(screen, x+used, y, w-used, s.text, s.style)
	}
}

// scoreNameWidth is the columns a scoreboard's names take: the longest
// name a player may have, one column a character.
const scoreNameWidth = 16

// scoreboard is what a scoreboard's lines are drawn from: a player's
// (its own line marked by its avatar) or a spectator's.
type scoreboard struct {
	lines []client.ScoreLine // most points first
	names *marks             // the room's marks
	me    string             // the mark of the player's own line (its avatar); "" for a spectator
	// follow is the player the room's teacher follows, its line marked
	// "▸" after its rank; 0 for none.
	follow grid.PlayerID
	// color returns the palette index of a line's player.
	color func(l client.ScoreLine) uint8
}

// playerScoreboard is the scoreboard of a player's view.
func playerScoreboard(v *client.View, names *marks) scoreboard {
	return scoreboard{lines: v.Scoreboard, names: names, me: avatarGlyph(v.Facing), color: func(l client.ScoreLine) uint8 { return otherColor(v, l) }}
}

// scoreLines returns the scoreboard in at most rows lines (see
// scoreShown), one player each: rank, the player's room mark as the
// board draws it (a bot's on a block of its colour), name, points and
// "frozen" or "safe" (spawn protection) while the server says so; your
// own line in your colour. The columns line up whatever the names'
// characters (see padText), and the ranks take as many digits as the
// largest shown.
func scoreLines(sb scoreboard, rows int) []panelLine {
	shown := scoreShown(sb.lines, rows)
	digits := 2
	for _, i := range shown {
		digits = max(digits, len(strconv.Itoa(rank(sb.lines, i))))
	}
	var out []panelLine
	for _, i := range shown {
		out = append(out, scoreLine(sb, i, digits))
	}
	return out
}

// scoreShown returns which lines of a scoreboard (most points first) fit
// in rows: all of them if they fit, else the top ones and, when you are
// not among them, your own last.
func scoreShown(board []client.ScoreLine, rows int) []int {
	n := min(len(board), max(rows, 0))
	shown := make([]int, 0, n)
	for i := range n {
		shown = append(shown, i)
	}
	if n == 0 || n == len(board) {
		return shown
	}
	for i := n; i < len(board); i++ {
		if board[i].Me {
			shown[n-1] = i
		}
	}
	return shown
}

// scoreLine writes line i of the scoreboard, its rank in digits columns.
func scoreLine(sb scoreboard, i, digits int) panelLine {
	l := sb.lines[i]
	glyph, glyphStyle, nameStyle := sb.me, styleMe, styleMe
	if !l.Me || sb.me == "" {
		glyph, glyphStyle, nameStyle = sb.names.of(l.ID, l.Name), playerStyle(sb.color(l), l.Bot), styleText
	}
	after := " "
	if sb.follow != 0 && l.ID == sb.follow {
		after = "▸"
	}
	line := panelLine{
		{fmt.Sprintf("%*d%s", digits, rank(sb.lines, i), after), styleDim},
		{glyph, glyphStyle},
		{fmt.Sprintf(" %s %3d", padText(l.Name, scoreNameWidth), l.Points), nameStyle},
	}
	switch {
	case l.Frozen:
		line = append(line, span{" frozen", styleFrozen})
	case l.Protected:
		line = append(line, span{" safe", styleProtectedText})
	}
	return line
}

// rank returns the place of line i of a scoreboard (most points first):
// the server's word, else one more than the players listed with more
// points, so that ties share it.
func rank(board []client.ScoreLine, i int) int {
	if board[i].Rank > 0 {
		return board[i].Rank
	}
	r := 1
	for _, l := range board[:i] {
		if l.Points > board[i].Points {
			r++
		}
	}
	return r
}

// otherColor returns the palette index of the player of a scoreboard line,
// as the board draws it: the scoreboard's, else the board's; 0 when
// neither knows it.
func otherColor(v *client.View, l client.ScoreLine) uint8 {
	if l.Color != 0 {
		return l.Color
	}
	for _, o := range v.Others {
		if o.ID == l.ID {
			return o.Color
		}
	}
	return 0
}
