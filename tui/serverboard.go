package tui

import (
	"fmt"
	"strconv"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"gridlag/client"
	"gridlag/grid"
)

// ServerBoard draws the server's view of the world (a client.WorldView)
// into any rectangle: the map with every player where the server has them
// (no avatar, no ghost, no interpolation), and under it a line per player,
// its mark then `NAME (x,y) ack #N`, with the round trip the server measured once it is
// known, then the tick and the update rate. The lab's Server board and the
// spectator's screen use it; the lab's also shows, for JudgedZapTime, the
// last zap the server judged: its beam, and a faint mark of the target
// where the shooter saw it.
type ServerBoard struct {
	*tview.Box
	view  func() *client.WorldView
	board *Board
	world client.View // the server's world as a view the Board draws
	// judged returns the zap the server judged last, while the board shows
	// it; nil for none (a spectator's board has none).
	judged func() *LabZap
	// look is the cell the camera keeps in view on a map larger than the
	// board (see Look).
	look grid.Pos
	// names, when set, are the room's marks the board shares with the
	// rest of its screen; nil: the board makes its own from the view
	// (own).
	names *marks
	own   marks
}

// marks returns the room's marks the board draws with, made from the
// view unless its screen shares its own.
func (b *ServerBoard) marks(v *client.WorldView) *marks {
	if b.names != nil {
		return b.names
	}
	b.own.takeWorld(v)
	return &b.own
}

// Look points the camera at cell p on a map larger than the board: the
// board shows the part of the map around it, moving by chunks as Board's
// camera does for a player.
func (b *ServerBoard) Look(p grid.Pos) { b.look = p }

// NewServerBoard returns a board that draws the view returned by view.
func NewServerBoard(view func() *client.WorldView) *ServerBoard {
	b := &ServerBoard{Box: tview.NewBox(), view: view}
	b.board = NewBoard(func() *client.View { return &b.world })
	return b
}

// Draw draws the map in the top rows (as many as the map has) and the
// lines below it, as many as fit (none when the rectangle is only as high
// as the map).
func (b *ServerBoard) Draw(screen tcell.Screen) {
	v := b.view()
	x, y, w, h := b.GetInnerRect()
	b.world = worldAsView(v, b.world.Others[:0])
	b.world.Predicted = b.look // the camera follows it; with no State, nothing is drawn there
	b.board.names = b.marks(v)
	b.board.self = nil
	if st := followedSight(v); st != nil {
		// The followed student's view of itself: its avatar where it
		// draws it (the camera follows it), its ghost where it last
		// heard the server had it, in its colour.
		b.world.Me, b.world.Name, b.world.Facing = st.ID, followedName(v), st.Facing
		b.world.Predicted, b.world.Server, b.world.HasState = st.Pos, st.Ghost, st.HasState
		color := followedColor(v)
		b.board.self, b.board.arrow = func() uint8 { return color }, true
	}
	z := b.judgedZap()
	if z != nil {
		b.world.Beam = z.Beam
	}
	mapH := h
	if v.Map != nil {
		mapH = min(h, v.Map.Height()*max(b.board.sy, 1))
	}
	b.board.SetRect(x, y, w, mapH)
	b.board.Draw(screen)
	if z != nil && z.Target != "" {
		b.markSeen(screen, z)
	}
	if v.Map != nil {
		drawServerLines(screen, x, y+mapH, w, h-mapH, v, b.board.names)
	}
}

// drawServerLines draws the lines under the server's map into rows rows
// from (x, y) (see serverLines).
func drawServerLines(screen tcell.Screen, x, y, w, rows int, v *client.WorldView, names *marks) {
	for i, l := range serverLines(v, names, rows) {
		l.draw(screen, x, y+i, w)
	}
}

// serverLines returns the lines under the server's map, at most rows:
// one per player (its mark, then `NAME (x,y) ack #N`...), then the tick
// and the update rate (see serverSummary); when they do not all fit,
// the last says how many more there are. Only the lines shown are
// written: a world lists thousands of players, and the board is drawn
// every frame.
func serverLines(v *client.WorldView, names *marks, rows int) []panelLine {
	if rows <= 0 {
		return nil
	}
	players := v.Players
	more := 0
	if len(players)+1 > rows {
		players = players[:rows-1]
		more = len(v.Players) + 1 - len(players)
	}
	nameW, posW := 1, 1
	for _, p := range players {
		nameW = max(nameW, min(textWidth(p.Name), scoreNameWidth))
		posW = max(posW, len(p.Pos.String()))
	}
	lines := make([]panelLine, 0, len(players)+1)
	for _, p := range players {
		lines = append(lines, panelLine{
			{names.of(p.ID, p.Name), playerStyle(p.Color, p.Bot)},
			{" " + playerLine(p, nameW, posW), tcell.StyleDefault.Foreground(PlayerColor(p.Color))},
		})
	}
	if more > 0 {
		return append(lines, panelLine{{fmt.Sprintf("… and %d more", more), styleDim}})
	}
	return append(lines, panelLine{{serverSummary(v), styleText}})
}

// judgedZap returns the judged zap to show, nil if none.
func (b *ServerBoard) judgedZap() *LabZap {
	if b.judged == nil {
		return nil
	}
	return b.judged()
}

// markSeen draws a faint mark of a zap's target where the shooter saw it
// (what the server judged the zap against), unless a player stands there.
func (b *ServerBoard) markSeen(screen tcell.Screen, z *LabZap) {
	for _, o := range b.world.Others {
		if o.Pos == z.Seen {
			return
		}
	}
	if m := b.world.Map; m != nil && b.board.shows(m, z.Seen) {
		b.board.put(screen, z.Seen, b.board.mark(b.idOf(z.Target), z.Target), styleJudged)
	}
}

// idOf returns the ID of the player called name on the board, 0 if none.
func (b *ServerBoard) idOf(name string) grid.PlayerID {
	for _, p := range b.view().Players {
		if p.Name == name {
			return p.ID
		}
	}
	return 0
}

// followedSight returns the Sight of the student the room follows, nil
// when it follows nobody or the student has told nothing yet.
func followedSight(v *client.WorldView) *client.Sight {
	if v.Following == 0 || v.Sight == nil || v.Sight.ID != v.Following {
		return nil
	}
	return v.Sight
}

// followedName returns the name of the student the room follows, ""
// when the view does not list it.
func followedName(v *client.WorldView) string {
	if p, ok := v.Player(v.Following); ok {
		return p.Name
	}
	return ""
}

// followedColor returns the palette colour of the student the room
// follows.
func followedColor(v *client.WorldView) uint8 {
	if p, ok := v.Player(v.Following); ok {
		return p.Color
	}
	return 0
}

// Cell returns where the last Draw put map cell p (see Board.Cell).
func (b *ServerBoard) Cell(p grid.Pos) (x, y int, ok bool) { return b.board.Cell(p) }

// serverSummary is the last line under the server's map: the tick, the
// update rate, and how many players there are when not all are listed.
func serverSummary(v *client.WorldView) string {
	summary := "tick " + strconv.FormatUint(uint64(v.Tick), 10) + "  updates " + rateText(v.Rate)
	if v.Total > len(v.Players) {
		summary += fmt.Sprintf("  players %d (%d listed)", v.Total, len(v.Players))
	}
	return summary
}

// playerLine writes one player as the server has it: `NAME (x,y) ack #N`,
// the name padded to nameW columns and the cell to posW so that the
// lines' columns line up (see padText), the round trip the server
// measured, once it has, and "frozen" or "safe" (spawn protection) while
// the player is.
func playerLine(p client.WorldPlayer, nameW, posW int) string {
	s := fmt.Sprintf("%s %-*s ack #%d", padText(p.Name, nameW), posW, p.Pos, p.Ack)
	if p.HasRTT {
		s += "  rtt " + millis(p.RTT)
	}
	switch {
	case p.Frozen:
		s += "  frozen"
	case p.Protected:
		s += "  safe"
	}
	return s
}

// rateText writes an update rate: "3/s", or "per input" for 0.
func rateText(hz int) string {
	if hz <= 0 {
		return "per input"
	}
	return strconv.Itoa(hz) + "/s"
}

// worldAsView is the server's world as a client view for a Board: the map
// and every player as another player, where the server has them; no
// avatar of one's own. The others are appended to others, so that a board
// drawn every frame reuses the last frame's slice.
func worldAsView(v *client.WorldView, others []client.Other) client.View {
	for _, p := range v.Players {
		others = append(others, client.Other{ID: p.ID, Name: p.Name, Color: p.Color, Pos: p.Pos, Protected: p.Protected})
	}
	return client.View{Map: v.Map, Err: v.Err, Connected: v.Connected, Others: others}
}
