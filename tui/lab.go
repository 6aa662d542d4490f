package tui

import (
	"fmt"
	"slices"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/protocol"
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

// The fewest rows under the boards that each layout gives the panels.
const (
	threeMinRows = labPanelRows // every control and one ledger row
	pairMinRows  = 1            // the status line: a lesson's words may take the rest
)

// labLayout is how the lab's screen is laid out on a terminal of a size.
type labLayout uint8

const (
	// labThree: the three boards side by side, the strips between them
	// or under the server's board.
	labThree labLayout = iota
	// labPair: two boards side by side, the strip of the player shown
	// between them; Tab shows Player 1 and the server, or the server and
	// Player 2.
	labPair
	// labSingle: one board, what goes with it on its right; Tab goes to
	// the next.
	labSingle
)

// LabScreen is the screen of `gridlag lab`: Player 1's board, the
// server's and Player 2's side by side, each player's with its own status
// line, link controls, zap button, toggles, zap news and ledger, the
// server's with its players' lines, tick, update rate, lag compensation
// switch, scoreboard and last judged zap, and between them the strips of
// messages in flight. Each player has one mark (see distinctMarks) and
// one colour on every board, in its strip, its panel and its ledger. The
// header shows the lab's virtual time, speed and PAUSED; under the boards
// a caption says what the last step did, or what a lesson says; the
// bottom row has buttons for the lab's clock. At 160x45 everything shows
// at once, at 120x40 the strips go under the server's board, at 100x30
// two boards show side by side (Player 1 and the server, or with Tab the
// server and Player 2), and at 80x24 one at a time (Tab cycles). Every
// time it shows comes from the model, which it syncs every frame. It
// belongs to one goroutine: the loop of RunLab, or a test calling
// HandleKey, HandleMouse and Frame in turn.
type LabScreen struct {
	screenBase
	model   LabModel
	players [2]LabPlayer

	// What the last frame drew.
	views    [2]client.View
	world    client.WorldView
	flights  [2][]Flight
	scores   []client.ScoreLine
	zap      LabZap
	zapped   bool // zap is the last judged zap: there was one
	colors   [2]uint8
	marks    [2]string
	names    marks // the room's marks, the same on every board
	lesson   LabLesson
	inLesson bool
	offer    string // the lecture > starts from the free lab, "" for none
	test     LabPerception

	boards [2]*Board
	server *ServerBoard
	strips [2]*Strip

	// The widgets: each player's panel, the server's controls, the
	// buttons of the bottom row and the lesson's.
	panels           [2]*labPanel
	rateDown, rateUp *button
	lagComp          *checkbox
	pause, stepOne   *button
	speed, board     *button
	restartOn, pings *button
	goOnButton       *button
	helpOn, quitOn   *button
	// testLaggy and testFine answer a round of the perception test.
	testLaggy, testFine *button

	focus  int       // the board shown when one fits at a time
	right  bool      // two at a time: the server and Player 2, not Player 1 and the server
	layout labLayout // the last frame's layout
}

// NewLabScreen returns the lab's screen for model, drawn on screen, which
// must already be initialised. It draws nothing; call Frame (or RunLab).
func NewLabScreen(screen tcell.Screen, model LabModel, opts Options) *LabScreen {
	s := &LabScreen{model: model}
	s.screenBase = newBase(s, screen, opts, labKeyTable, "gridlag lab: keys", true)
	s.legend = labLegendHelp
	s.helpStates = helpRowsByState(labKeyTable)
	for i := range s.players {
		s.players[i] = model.Player(i)
		s.boards[i] = NewBoard(func() *client.View { return &s.views[i] })
		s.boards[i].names, s.boards[i].self = &s.names, func() uint8 { return s.colors[i] }
		s.strips[i] = NewStrip(labHeadings[2*i], i == 0, func() []Flight { return s.flights[i] })
		s.strips[i].color = func() uint8 { return s.colors[i] }
		s.panels[i] = newLabPanel(i, s.players[i], &s.views[i], func() uint8 { return s.colors[i] })
	}
	s.tools.players = []client.Session{s.players[0], s.players[1]}
	s.tools.names = []string{labHeadings[labPlayer1], labHeadings[labPlayer2]}
	for i := range s.players {
		s.tools.predictKeys = append(s.tools.predictKeys, tableGroupLabels(labKeyTable, labGroup("toggles", i))[:1])
	}
	s.server = NewServerBoard(func() *client.WorldView { return &s.world })
	s.server.judged = s.judgedZap
	s.server.names = &s.names
	s.rateDown = newButton("[-]", func() { s.changeRate(-1) })
	s.rateUp = newButton("[+]", func() { s.changeRate(1) })
	s.lagComp = newCheckbox(" lag compensation", "", model.LagComp, s.toggleLagComp)
	s.pause = newButton("[. pause]", s.togglePause)
	s.stepOne = newButton("[n step]", s.step)
	s.speed = newButton("[/ speed]", model.SlowDown)
	s.restartOn = newButton("[Bksp restart]", s.restart)
	s.pings = newButton("[h pings]", s.togglePings)
	s.board = newButton("[Tab board]", s.nextBoard)
	s.goOnButton = newButton("[Space]", s.goOn)
	s.helpOn = newButton("[? help]", s.toggleHelp)
	s.quitOn = newButton("[q quit]", s.requestQuit)
	s.testLaggy = newButton("[ y  laggy ]", func() { s.model.AnswerPerception(true) })
	s.testFine = newButton("[ n  fine ]", func() { s.model.AnswerPerception(false) })
	s.esc = s.closeTest
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
	s.lesson, s.inLesson = s.model.Lesson()
	s.offer = s.model.Offer()
	s.test = s.model.Perception()
	s.state = ""
	if s.test.Blind() {
		s.state = labTestState
		s.tools.open = noInstrument
	}
	s.takeMarks()
	return s.show(s.render)
}

// takeMarks notes each player's mark and colour: its room mark (see
// roomMarks) and its palette colour as the server has it, the same on
// every board.
func (s *LabScreen) takeMarks() {
	roster := make([]markee, 0, len(s.players)+len(s.world.Players))
	for i := range s.players {
		roster = append(roster, markee{s.views[i].Me, s.views[i].Name})
	}
	for _, p := range s.world.Players {
		roster = append(roster, markee{p.ID, p.Name})
	}
	s.names.take(roster)
	for i := range s.players {
		s.marks[i] = s.names.of(s.views[i].Me, s.views[i].Name)
		for _, p := range s.world.Players {
			if p.ID == s.views[i].Me {
				s.colors[i] = p.Color
			}
		}
	}
}

// render draws the whole screen in the layout the terminal's size allows
// (see labLayout).
func (s *LabScreen) render(screen tcell.Screen) {
	w, h := screen.Size()
	m := s.world.Map
	if m == nil { // a lab's server always has its map
		return
	}
	mw, mh := m.Width(), m.Height()
	below := h - 3 - mh // rows under the boards, between headings and the bottom row
	threeText := s.textLines(w, below-threeMinRows)
	pairText := s.textLines(w, below-pairMinRows)
	switch {
	case w >= 3*mw && below-len(threeText) >= threeMinRows:
		s.layout = labThree
	case w >= 2*mw+stripMinWidth+2 && below-len(pairText) >= pairMinRows:
		s.layout = labPair
	default:
		s.layout = labSingle
	}
	if !s.fits(screen, s.layout != labSingle || w >= 2*mw && h >= mh+2, 2*mw, mh+2) {
		return
	}
	if s.test.Blind() {
		s.drawBlind(screen, w, h, mw, mh)
		return
	}
	if s.test.Phase == protocol.TrialOver {
		s.drawHeader(screen, w)
		drawLabResults(screen, 0, 1, w, h-1, s.test)
		return
	}
	if s.tools.shown() {
		// An instrument's overlay covers the boards and panels: they are
		// not drawn under it. The caption or the lesson's words stay
		// under it, in at most a third of the rows.
		text := s.textLines(w, (h-2)/3)
		end := h - 1 - len(text)
		s.tools.draw(screen, rect{0, 1, w, end - 1})
		s.drawText(screen, 0, end, w, text)
		s.drawHeader(screen, w)
		s.drawButtons(screen, w, h-1)
		return
	}
	switch s.layout {
	case labThree:
		gap := 0
		if w >= 3*mw+2*(stripMinWidth+2) {
			gap = (w - 3*mw) / 2
		}
		s.drawThree(screen, w, h, mw, mh, gap, threeText)
	case labPair:
		s.drawPair(screen, w, h, mw, mh, pairText)
	default:
		s.drawSingle(screen, w, h, mw, mh)
	}
	s.drawHeader(screen, w)
	s.drawButtons(screen, w, h-1)
}

// drawHeadings draws the boards' headings over boards of width mw at xs,
// each in its player's colour (the server's plain).
func (s *LabScreen) drawHeadings(screen tcell.Screen, boards []int, xs []int, mw int) {
	for i, b := range boards {
		heading := labHeadings[b]
		st := styleHeading
		if b != labServer {
			heading = s.marks[b/2] + " " + heading
			st = playerStyle(s.colors[b/2], false)
		}
		putText(screen, xs[i]+(mw-textWidth(heading))/2, 1, mw, heading, st)
	}
}

// drawThree draws the three boards side by side, gap columns apart, with
// the strips in the gaps, or under the server's board when gap is 0; the
// caption or the lesson's text takes the rows above the bottom row.
func (s *LabScreen) drawThree(screen tcell.Screen, w, h, mw, mh, gap int, text []panelLine) {
	xs := []int{0, mw + gap, 2*mw + 2*gap}
	top := 2
	under := top + mh
	end := h - 1 - len(text) // the row after the panels
	s.drawHeadings(screen, []int{labPlayer1, labServer, labPlayer2}, xs, mw)
	pw := mw - 1 // a blank column between columns of text that touch
	if gap > 0 {
		pw = mw
	}
	for i, b := range s.boards {
		b.SetRect(xs[2*i], top, mw, mh)
		b.Draw(screen)
		s.panels[i].draw(screen, &s.controls, xs[2*i], under, pw, end-under)
	}
	s.server.SetRect(xs[labServer], top, mw, mh)
	s.server.Draw(screen)
	rows := s.drawServerInfo(screen, xs[labServer], under, pw, end-under)
	s.drawText(screen, 0, end, w, text)
	if gap > 0 {
		for i, st := range s.strips {
			st.SetRect(mw+1+i*(mw+gap), top, gap-2, end-top)
			st.Draw(screen)
		}
		return
	}
	s.drawStripsStacked(screen, xs[labServer], under+rows, mw-1, end-under-rows)
}

// drawPair draws two boards side by side, Player 1's and the server's or
// the server's and Player 2's, the player's strip between them, each
// board's panel under it.
func (s *LabScreen) drawPair(screen tcell.Screen, w, h, mw, mh int, text []panelLine) {
	gap := w - 2*mw
	xs := []int{0, mw + gap}
	top, under := 2, 2+mh
	end := h - 1 - len(text)
	i, boards := 0, []int{labPlayer1, labServer}
	if s.right {
		i, boards = 1, []int{labServer, labPlayer2}
	}
	s.drawHeadings(screen, boards, xs, mw)
	player, server := xs[0], xs[1]
	if s.right {
		player, server = xs[1], xs[0]
	}
	s.boards[i].SetRect(player, top, mw, mh)
	s.boards[i].Draw(screen)
	s.panels[i].draw(screen, &s.controls, player, under, mw-1, end-under)
	s.server.SetRect(server, top, mw, mh)
	s.server.Draw(screen)
	s.drawServerInfo(screen, server, under, mw-1, end-under)
	s.strips[i].SetRect(mw+1, top, gap-2, end-top)
	s.strips[i].Draw(screen)
	s.drawText(screen, 0, end, w, text)
}

// drawSingle draws one board, the focused one, with what goes with it on
// its right: the caption or the lesson's text first.
func (s *LabScreen) drawSingle(screen tcell.Screen, w, h, mw, mh int) {
	x, y, rw, rows := mw+1, 1, w-mw-1, h-2
	st := styleHeading
	heading := labHeadings[s.focus]
	if s.focus != labServer {
		heading = s.marks[s.focus/2] + " " + heading
		st = playerStyle(s.colors[s.focus/2], false)
	}
	n := putText(screen, x, y, rw, heading, st)
	putText(screen, x+n, y, rw-n, "  (Tab: next board)", styleDim)
	most := max(rows-1-threeMinRows, 2)
	if s.inLesson && s.lesson.Long {
		most = rows - 1
	}
	text := s.textLines(rw, most)
	s.drawText(screen, x, y+1, rw, text)
	y, rows = y+1+len(text), rows-1-len(text)
	if s.focus == labServer {
		s.server.SetRect(0, 1, mw, mh)
		s.server.Draw(screen)
		n := s.drawServerInfo(screen, x, y, rw, rows)
		s.drawStripsStacked(screen, x, y+n, rw, rows-n)
		return
	}
	i := s.focus / 2
	s.boards[i].SetRect(0, 1, mw, mh)
	s.boards[i].Draw(screen)
	s.panels[i].draw(screen, &s.controls, x, y, rw, rows)
}

// drawServerInfo draws the server's lines, its rate control and its zap
// tag (see drawZapInfo) from (x, y), and returns the rows used.
func (s *LabScreen) drawServerInfo(screen tcell.Screen, x, y, w, rows int) int {
	if rows <= len(s.world.Players) { // no room for every line: the player shown first
		return s.drawServerPlayers(screen, x, y, w, rows)
	}
	n := min(len(s.world.Players)+1, rows)
	drawServerLines(screen, x, y, w, n, &s.world, &s.names)
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

// drawServerPlayers draws the server's line of each player, the one
// whose board shows beside the server's first (Player 1, or Player 2
// when Tab showed it), in at most rows rows; it returns how many it drew.
func (s *LabScreen) drawServerPlayers(screen tcell.Screen, x, y, w, rows int) int {
	ps := slices.Clone(s.world.Players)
	shown := s.views[0].Me
	if s.right && s.layout == labPair {
		shown = s.views[1].Me
	}
	if first := slices.IndexFunc(ps, func(p client.WorldPlayer) bool { return p.ID == shown }); first > 0 {
		ps[0], ps[first] = ps[first], ps[0]
	}
	n := min(rows, len(ps))
	for i, p := range ps[:n] {
		putText(screen, x, y+i, w, playerLine(p, textWidth(p.Name), len(p.Pos.String())), playerStyle(p.Color, false).Bold(false))
	}
	return n
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
// PAUSED, what the strips hide and whether the players' corrections
// slide (smoothing).
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
	if !s.model.Pings() {
		line += "   pings hidden"
	}
	if s.views[0].Smooth {
		line += "   smoothing"
	}
	putText(screen, 1, 0, w-2, line, styleTitle)
}

// drawButtons draws the bottom row: the buttons of the lab's clock and
// screen, with their keys, as many as fit, help and quit always.
func (s *LabScreen) drawButtons(screen tcell.Screen, w, y int) {
	s.pause.label = "[. pause]"
	if s.model.Paused() {
		s.pause.label = "[. run]"
	}
	s.speed.label = "[/ speed " + s.model.Speed() + "]"
	s.pings.label = "[h hide pings]"
	if !s.model.Pings() {
		s.pings.label = "[h show pings]"
	}
	s.board.label = "[Tab board]"
	if s.layout == labPair {
		s.board.label = "[Tab Player 2]"
		if s.right {
			s.board.label = "[Tab Player 1]"
		}
	}
	buttons := []*button{s.pause, s.stepOne, s.restartOn, s.speed, s.pings, s.board, s.helpOn, s.quitOn}
	if s.layout == labThree {
		buttons = slices.DeleteFunc(buttons, func(b *button) bool { return b == s.board }) // every board shows
	}
	// Drop the least needed until the row fits: the speed, the pings.
	for _, drop := range []*button{s.pings, s.speed} {
		width := len(buttons) - 1
		for _, b := range buttons {
			width += b.width()
		}
		if width <= w {
			break
		}
		buttons = slices.DeleteFunc(buttons, func(b *button) bool { return b == drop })
	}
	r := &rowWriter{screen: screen, ctl: &s.controls, x: 0, y: y, end: w}
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

// restart plays the lab's script again from t=0 (a lesson's step from its
// start).
func (s *LabScreen) restart() { s.model.Restart() }

// togglePings hides or shows the background traffic on the strips.
func (s *LabScreen) togglePings() { s.model.SetPings(!s.model.Pings()) }

// goOn goes on with a lesson.
func (s *LabScreen) goOn() { s.model.Continue() }

// nextPart goes to a lecture's next part, or starts the lecture offered.
func (s *LabScreen) nextPart() { s.model.NextPart() }

// prevPart goes to the start of a lecture's part, or the part before.
func (s *LabScreen) prevPart() { s.model.PrevPart() }

// changeRate changes the server's update rate by d per second.
func (s *LabScreen) changeRate(d int) { s.model.SetRate(max(s.model.Rate()+d, 0)) }

// nextBoard shows the next board, when one shows at a time, or the other
// pair, when two do.
func (s *LabScreen) nextBoard() {
	if s.layout == labPair {
		s.right = !s.right
		return
	}
	s.focus = (s.focus + 1) % labBoards
}

// BoardCell returns where the last frame drew map cell p on board b (0
// Player 1, 1 the server, 2 Player 2): the screen column and row of its
// first character. ok is false when that board is not drawn.
func (s *LabScreen) BoardCell(b int, p grid.Pos) (x, y int, ok bool) {
	if s.tooSmall || s.tools.shown() || !s.shows(b) {
		return 0, 0, false
	}
	if b == labServer {
		return s.server.Cell(p)
	}
	return s.boards[b/2].Cell(p)
}

// shows reports whether the last frame drew board b.
func (s *LabScreen) shows(b int) bool {
	switch s.layout {
	case labSingle:
		return b == s.focus
	case labPair:
		return b == labServer || b == labPlayer1 && !s.right || b == labPlayer2 && s.right
	}
	return true
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
