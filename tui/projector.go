package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
)

// The spectator's screen is a projector: a class watches it on a wall.
// Its board fills what the panel leaves of the window, each map cell
// scaled to as many columns and rows as fit (see ScaleFor), people drawn
// as blocks of their colour; the panel beside it, on the right, says the
// round and its time left, the room's scoreboard (protocol version 6
// sends it to spectators), and, while the room's teacher follows a
// student, what that student sees of itself: where it draws its avatar
// and its ghost (also drawn on the board, in its colour: the avatar an
// arrow, the ghost its mark, dim), its round trip, its switches and its
// ledger of pending inputs; then, where there is room, the server's word
// on each player (its cell and its last input processed), the tick and
// the update rate. At its foot: the keys.

// projectorPanelMin is the narrowest the projector's panel is: a
// scoreboard's line (rank, mark, a name of 16 columns, points, "frozen").
const projectorPanelMin = 34

// projectorLayout lays out a projector of w x h (its top row the title)
// for a map of mw x mh cells: the board's width from the left and its
// scale, the panel taking the columns right of it. A map larger than
// what the panel leaves is seen at one column and one row a cell,
// through the board's camera.
func projectorLayout(mw, mh, w, h int) (boardW, sx, sy int) {
	avail := w - 1 - projectorPanelMin
	if mw > avail || mh > h-1 {
		return avail, 1, 1
	}
	sx, sy = ScaleFor(mw, mh, avail, h-1)
	return mw * sx, sx, sy
}

// projectorPanel returns the lines of the projector's panel, at most rows
// of w columns: the round, the scoreboard, the followed student, the
// server's word on each player (`NAME (x,y) ack #N`, its round trip,
// then the tick and the update rate; the list itself from a server that
// sends no scoreboard), and at its foot the keys. When they do not all
// fit, the server's lines give way first, then the followed student's
// ledger, then the scoreboard, which keeps its top lines (and the
// followed student's).
func projectorPanel(v *client.WorldView, names *marks, w, rows int) []panelLine {
	if rows <= 0 {
		return nil
	}
	foot := []panelLine{{{tableBottomLine(spectateKeyTable), styleDim}}}
	listed := len(v.Scoreboard)
	if listed == 0 {
		listed = len(v.Players)
	}
	head := roundHeading(v.Round, v.RoundLeft, max(v.Online, v.Total), listed)
	follow, ledger := followLines(v, names, w)
	room := rows - 1 - len(foot) - len(follow)
	scored := len(v.Scoreboard) > 0
	want := len(v.Players) + 1 // a server of version 5 sends spectators no scoreboard: its lines
	if scored {
		want = len(v.Scoreboard)
	}
	if len(ledger) > 0 {
		want = min(want, max(room-min(len(ledger), 4), scoreCompactRows))
	}
	want = min(want, max(room, 0))
	var board []panelLine
	if scored {
		board = scoreLines(scoreboard{lines: v.Scoreboard, names: names, follow: v.Following,
			color: func(l client.ScoreLine) uint8 { return worldColor(v, l) }}, want)
	} else {
		board = serverLines(v, names, want)
	}
	room -= len(board)
	if len(ledger) > room {
		n := max(room-1, 0)
		ledger = append(ledger[:n:n], panelLine{{fmt.Sprintf("… and %d more", len(ledger)-n), styleDim}})
		if room <= 0 {
			ledger = nil
		}
	}
	lines := append([]panelLine{head}, board...)
	if len(follow) > 0 {
		lines = append(lines, follow...)
		lines = append(lines, ledger...)
		room -= len(ledger)
	}
	// Below, where there is room, the server's word on each player:
	// its cell, its last input processed, its round trip.
	if scored && room >= 3 {
		lines = append(lines, nil, panelLine{{"Server", styleHeading}, {" cell, ack, round trip", styleDim}})
		lines = append(lines, serverLines(v, names, room-2)...)
	}
	for len(lines)+len(foot) > rows && len(lines) > 0 {
		lines = lines[:len(lines)-1]
	}
	for len(lines)+len(foot) < rows {
		lines = append(lines, nil) // the foot at the bottom
	}
	return append(lines, foot[:min(len(foot), rows-len(lines))]...)
}

// roundHeading is the heading of a scoreboard: "Round 3  2:41 left",
// and how many play ("40 online") when the scoreboard lists fewer;
// "Players" before the server's first word of a round.
func roundHeading(round int, left time.Duration, online, listed int) panelLine {
	h := panelLine{{"Players", styleHeading}}
	if round > 0 {
		h = roundLine(round, left)
	}
	if online > listed {
		h = append(h, span{fmt.Sprintf("  %d online", online), styleDim})
	}
	return h
}

// followLines returns what the panel says of the student the room
// follows (nothing when it follows nobody): a heading with its mark and
// name in its colour, where it sees itself and where it last heard the
// server had it, its round trip, own latency and interpolation delay,
// its switches and corrections, then the heading of its ledger; and the
// ledger's rows, its pending inputs oldest first with their ages.
func followLines(v *client.WorldView, names *marks, w int) (lines, ledger []panelLine) {
	if v.Following == 0 {
		return nil, nil
	}
	p, listed := v.Player(v.Following)
	name := p.Name
	if !listed {
		name = fmt.Sprintf("player %d", v.Following)
	}
	lines = append(lines, nil, panelLine{
		{"Following ", styleHeading},
		{names.of(v.Following, name), playerStyle(p.Color, p.Bot)},
		{" " + name, tcell.StyleDefault.Foreground(PlayerColor(p.Color)).Bold(true)},
	})
	st := followedSight(v)
	switch {
	case st == nil && v.Perception.Running():
		return append(lines, panelLine{{"its view is hidden during the test", styleDim}}), nil
	case st == nil:
		return append(lines, panelLine{{"waiting for " + name + "'s view…", styleDim}}), nil
	}
	text := func(s string) panelLine { return panelLine{{s, styleText}} }
	if st.HasState {
		lines = append(lines, panelLine{
			{"sees itself ", styleText}, {avatarGlyph(st.Facing) + " " + st.Pos.String(), playerStyle(p.Color, false)},
		}, panelLine{
			{"server said ", styleText}, {names.of(v.Following, name) + " " + st.Ghost.String(), ghostStyle(p.Color)},
			{fmt.Sprintf("  ack #%d", st.Ack), styleText},
		})
	}
	rtt := "rtt -"
	if st.HasRTT {
		rtt = "rtt " + millis(st.RTT)
	}
	lines = append(lines, text(fmt.Sprintf("%s  lag %s  interp %s", rtt, millis(st.Latency), millis(st.InterpDelay))))
	var sw []string
	for _, t := range []struct {
		name string
		on   bool
	}{{"prediction", st.Predict}, {"reconciliation", st.Reconcile}, {"interpolation", st.Interpolate}} {
		word := "off"
		if t.on {
			word = "on"
		}
		sw = append(sw, t.name+" "+word)
	}
	for _, l := range wrap(strings.Join(sw, ", ")+fmt.Sprintf(", corrections %d", st.Corrections), w) {
		lines = append(lines, text(l))
	}
	lines = append(lines, panelLine{{"Pending inputs", styleHeading}, {fmt.Sprintf(" %d, sent, not acked", len(st.Pending)), styleDim}})
	for _, in := range st.Pending {
		ledger = append(ledger, text(ledgerRow(in)))
	}
	return lines, ledger
}

// worldColor returns the palette colour of a scoreboard line's player:
// the scoreboard's, else the server's view's.
func worldColor(v *client.WorldView, l client.ScoreLine) uint8 {
	if l.Color != 0 {
		return l.Color
	}
	if p, ok := v.Player(l.ID); ok {
		return p.Color
	}
	return 0
}
