package tui

import (
	"fmt"
	"slices"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
	"gridlag/grid"
)

// The boards of the lab's screen, left to right.
const (
	labPlayer1 = iota
	labServer
	labPlayer2
	labBoards // how many there are
)

// labHeadings are the boards' headings.
var labHeadings = [labBoards]string{"Player 1", "Server", "Player 2"}

// stripMinWidth is the narrowest strip drawn between two boards; with
// less room the strips go under the server's board.
const stripMinWidth = 12

// LabScreen is the screen of `gridlag lab`: Player 1's board, the
// server's and Player 2's side by side, each player's with its own status
// line, link controls, zap button, toggles, zap news and ledger, the
// server's with its players' lines, tick, update rate, lag compensation
// switch, scoreboard and last judged zap, and between them the strips of
// messages in flight. The header shows the lab's virtual time, speed and
// PAUSED; the bottom row has buttons for the lab's clock. At 160x45
// everything shows at once, at 120x40 the strips go under the server's
// board, and from 80x24 one board shows at a time (Tab cycles). Every
// time it shows comes from the model, which it syncs every frame. It
// belongs to one goroutine: the loop of RunLab, or a test calling
// HandleKey, HandleMouse and Frame in turn.
type LabScreen struct {
	screenBase
	model   LabModel
	players [2]LabPlayer

	// What the last frame drew.
	views   [2]client.View
	world   client.WorldView
	flights [2][]Flight
	scores  []client.ScoreLine
	zap     LabZap
	zapped  bool // zap is the last judged zap: there was one

	boards [2]*Board
	server *ServerBoard
	strips [2]*Strip

	// The widgets: each player's panel, the server's controls, the
	// buttons of the bottom row.
	panels           [2]*labPanel
	rateDown, rateUp *button
	lagComp          *checkbox
	pause, stepOne   *button
	speed, board     *button
	helpOn, quitOn   *button

	focus  int  // the board shown when one fits at a time
	single bool // the last frame showed one board at a time
}

// NewLabScreen returns the lab's screen for model, drawn on screen, which
// must already be initialised. It draws nothing; call Frame (or RunLab).
func NewLabScreen(screen tcell.Screen, model LabModel, opts Options) *LabScreen {
	s := &LabScreen{model: model}
	s.screenBase = newBase(s, screen, opts, labKeyTable, "gridlag lab: keys", true)
	for i := range s.players {
		s.players[i] = model.Player(i)
		s.boards[i] = NewBoard(func() *client.View { return &s.views[i] })
		s.strips[i] = NewStrip(labHeadings[2*i], i == 0, func() []Flight { return s.flights[i] })
		s.panels[i] = newLabPanel(i, s.players[i], &s.views[i])
	}
	s.tools.players = []client.Session{s.players[0], s.players[1]}
	s.tools.names = []string{labHeadings[labPlayer1], labHeadings[labPlayer2]}
	for i := range s.players {
		s.tools.predictKeys = append(s.tools.predictKeys, tableGroupLabels(labKeyTable, labGroup("toggles", i))[:1])
	}
	s.server = NewServerBoard(func() *client.WorldView { return &s.world })
	s.server.judged = s.judgedZap
	s.rateDown = newButton("[-]", func() { s.changeRate(-1) })
	s.rateUp = newButton("[+]", func() { s.changeRate(1) })
	s.lagComp = newCheckbox(" lag compensation", "", model.LagComp, s.toggleLagComp)
	s.pause = newButton("[. pause]", s.togglePause)
	s.stepOne = newButton("[n step]", s.step)
	s.speed = newButton("[/ speed]", model.SlowDown)
	s.board = newButton("[Tab board]", s.nextBoard)
	s.helpOn = newButton("[? help]", s.toggleHelp)
	s.quitOn = newButton("[q quit]", s.requestQuit)
	return s
}

// RunLab runs the lab's screen for model on screen, which must not be
// initialised yet, until the user quits or Options.Stop is closed.
func RunLab(screen tcell.Screen, model LabModel, opts Options) error {
	_, err := runApp(screen, opts, func() app { return NewLabScreen(screen, model, opts) })
	return err
}

// Frame brings the lab up to its clock's time, takes the views and the
// messages in flight, and draws them; it shows the frame if it changed
// anything and reports whether it did.
func (s *LabScreen) Frame() bool {
	s.model.Sync()
	for i, p := range s.players {
		s.views[i] = p.View()
		s.flights[i] = p.InFlight(s.flights[i][:0])
	}
	s.world = s.model.Overview()
	s.scores = s.model.Scores()
	s.zap, s.zapped = s.model.LastZap()
	return s.show(s.render)
}

// render draws the whole screen in the layout the terminal's size allows:
// the three boards side by side (the strips between them, or under the
// server's board when they do not fit), else one at a time.
func (s *LabScreen) render(screen tcell.Screen) {
	w, h := screen.Size()
	m := s.world.Map
	if m == nil { // a lab's server always has its map
		return
	}
	mw, mh := m.Width(), m.Height()
	below := h - 3 - mh // rows under the boards, between headings and the bottom row
	sideBySide := w >= 3*mw && below >= labPanelRows
	s.single = !sideBySide && w >= 2*mw && h >= mh+2
	if !s.fits(screen, sideBySide || s.single, 2*mw, mh+2) {
		return
	}
	switch {
	case s.tools.shown():
		// An instrument's overlay covers the boards: they are not drawn
		// under it.
		s.tools.draw(screen, rect{0, 1, w, h - 2})
	case s.single:
		s.drawSingle(screen, w, h, mw, mh)
	case w >= 3*mw+2*(stripMinWidth+2):
		s.drawSideBySide(screen, w, h, mw, mh, (w-3*mw)/2)
	default:
		s.drawSideBySide(screen, w, h, mw, mh, 0)
	}
	s.drawHeader(screen, w)
	s.drawButtons(screen, w, h-1)
}

// drawSideBySide draws the three boards side by side, gap columns apart,
// with the strips in the gaps, or under the server's board when gap is 0.
func (s *LabScreen) drawSideBySide(screen tcell.Screen, w, h, mw, mh, gap int) {
	xs := [labBoards]int{0, mw + gap, 2*mw + 2*gap}
	top := 2
	under := top + mh
	for i, x := range xs {
		heading := labHeadings[i]
		putText(screen, x+(mw-textWidth(heading))/2, 1, mw, heading, styleHeading)
	}
	for i, b := range s.boards {
		b.SetRect(xs[2*i], top, mw, mh)
		b.Draw(screen)
		s.panels[i].draw(screen, &s.controls, xs[2*i], under, mw, h-1-under)
	}
	s.server.SetRect(xs[labServer], top, mw, mh)
	s.server.Draw(screen)
	rows := s.drawServerInfo(screen, xs[labServer], under, mw, h-1-under)
	if gap > 0 {
		for i, st := range s.strips {
			st.SetRect(mw+1+i*(mw+gap), top, gap-2, h-1-top)
			st.Draw(screen)
		}
		return
	}
	s.drawStripsStacked(screen, xs[labServer], under+rows, mw, h-1-under-rows)
}

// drawSingle draws one board, the focused one, with what goes with it on
// its right.
func (s *LabScreen) drawSingle(screen tcell.Screen, w, h, mw, mh int) {
	x, y, rw, rows := mw+1, 1, w-mw-1, h-2
	putText(screen, x, y, rw, labHeadings[s.focus]+"  (Tab: next board)", styleHeading)
	if s.focus == labServer {
		s.server.SetRect(0, 1, mw, mh)
		s.server.Draw(screen)
		n := s.drawServerInfo(screen, x, y+1, rw, rows-1)
		s.drawStripsStacked(screen, x, y+1+n, rw, rows-1-n)
		return
	}
	i := s.focus / 2
	s.boards[i].SetRect(0, 1, mw, mh)
	s.boards[i].Draw(screen)
	s.panels[i].draw(screen, &s.controls, x, y+1, rw, rows-1)
}

// drawServerInfo draws the server's lines, its rate control and its zap
// tag (see drawZapInfo) from (x, y), and returns the rows used.
func (s *LabScreen) drawServerInfo(screen tcell.Screen, x, y, w, rows int) int {
	n := min(len(s.world.Players)+1, rows)
	drawServerLines(screen, x, y, w, n, &s.world)
	if n >= rows {
		return n
	}
	r := &rowWriter{screen: screen, ctl: &s.controls, x: x, y: y + n, end: x + w}
	r.text("rate ", styleText)
	r.put(s.rateDown)
	r.text(" "+rateText(s.model.Rate())+" ", styleText)
	r.put(s.rateUp)
	r.text("  "+tableGroupLabels(labKeyTable, "rate"), styleDim)
	return n + 1 + s.drawZapInfo(screen, x, y+n+1, w, rows-n-1)
}

// drawStripsStacked draws both strips one above the other.
func (s *LabScreen) drawStripsStacked(screen tcell.Screen, x, y, w, rows int) {
	half := rows / 2
	for i, st := range s.strips {
		st.SetRect(x, y+i*half, w, half)
		st.Draw(screen)
	}
}

// drawHeader draws the top row: the title, the virtual time, the speed,
// PAUSED and whether the players' corrections slide (smoothing).
func (s *LabScreen) drawHeader(screen tcell.Screen, w int) {
	fill(screen, 0, 0, w, 1, styleTitle)
	title := s.opts.Title
	if title == "" {
		title = "gridlag lab"
	}
	line := fmt.Sprintf("%s   t %.3fs   speed %s", title, s.model.Now().Seconds(), s.model.Speed())
	if s.model.Paused() {
		line += "   PAUSED"
	}
	if s.views[0].Smooth {
		line += "   smoothing"
	}
	putText(screen, 1, 0, w-2, line, styleTitle)
}

// drawButtons draws the bottom row: the buttons of the lab's clock and
// screen, with their keys.
func (s *LabScreen) drawButtons(screen tcell.Screen, w, y int) {
	r := &rowWriter{screen: screen, ctl: &s.controls, x: 0, y: y, end: w}
	s.pause.label = "[. pause]"
	if s.model.Paused() {
		s.pause.label = "[. resume]"
	}
	s.speed.label = "[/ speed " + s.model.Speed() + "]"
	buttons := []*button{s.pause, s.stepOne, s.speed, s.board, s.helpOn, s.quitOn}
	if !s.single {
		buttons = slices.Delete(buttons, 3, 4) // no Tab: every board shows
	}
	for i, b := range buttons {
		if i > 0 {
			r.text(" ", styleText)
		}
		r.put(b)
	}
}

// togglePause pauses the lab's clock, or lets it run again.
func (s *LabScreen) togglePause() {
	if s.model.Paused() {
		s.model.Resume()
	} else {
		s.model.Pause()
	}
}

// step pauses and moves the lab to its next event.
func (s *LabScreen) step() { s.model.Step() }

// changeRate changes the server's update rate by d per second.
func (s *LabScreen) changeRate(d int) { s.model.SetRate(max(s.model.Rate()+d, 0)) }

// nextBoard shows the next board, when one shows at a time.
func (s *LabScreen) nextBoard() { s.focus = (s.focus + 1) % labBoards }

// BoardCell returns where the last frame drew map cell p on board b (0
// Player 1, 1 the server, 2 Player 2): the screen column and row of its
// first character. ok is false when that board is not drawn.
func (s *LabScreen) BoardCell(b int, p grid.Pos) (x, y int, ok bool) {
	if s.tooSmall || s.tools.shown() || s.single && b != s.focus {
		return 0, 0, false
	}
	if b == labServer {
		return s.server.Cell(p)
	}
	return s.boards[b/2].Cell(p)
}

// nextChange returns FrameInterval while the lab's clock runs: then what
// the screen shows changes with time alone; 0 while it is paused.
func (s *LabScreen) nextChange() time.Duration {
	if s.model.Paused() {
		return 0
	}
	return FrameInterval
}

// signals returns no channels: the lab changes only with its clock, which
// nextChange follows.
func (s *LabScreen) signals() (changed, done <-chan struct{}) { return nil, nil }
