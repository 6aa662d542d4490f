package tui

import (
	"fmt"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

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
	model   LabModel
	players [2]LabPlayer
	opts    Options
	present presenter
	hs      hotspots // the buttons of the last frame

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

	tools  instruments // both players' waterfalls, net graphs and budgets
	smooth bool        // both players' corrections slide (SetSmooth)

	focus    int  // the board shown when one fits at a time
	single   bool // the last frame showed one board at a time
	tooSmall bool
	help     bool
	quit     bool
}

// NewLabScreen returns the lab's screen for model, drawn on screen, which
// must already be initialised. It draws nothing; call Frame (or RunLab).
func NewLabScreen(screen tcell.Screen, model LabModel, opts Options) *LabScreen {
	s := &LabScreen{model: model, opts: opts.withDefaults(), present: presenter{screen: screen}}
	for i := range s.players {
		s.players[i] = model.Player(i)
		s.boards[i] = NewBoard(func() *client.View { return &s.views[i] })
		s.strips[i] = NewStrip(labHeadings[2*i], i == 0, func() []Flight { return s.flights[i] })
	}
	s.server = NewServerBoard(func() *client.WorldView { return &s.world })
	s.server.judged = s.judgedZap
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
	s.tools.take(s.players[0], s.players[1])
	return s.present.present(s.render)
}

// render draws the whole screen in the layout the terminal's size allows.
func (s *LabScreen) render(screen tcell.Screen) {
	s.hs = s.hs[:0]
	w, h := screen.Size()
	m := s.world.Map
	if m == nil { // a lab's server always has its map
		return
	}
	mw, mh := m.Width(), m.Height()
	below := h - 3 - mh // rows under the boards, between headings and the bottom row
	s.tooSmall, s.single = false, false
	switch {
	case s.tools.open != noInstrument && w >= 2*mw && h >= mh+2:
		// The overlay covers the boards: they are not drawn under it.
	case w >= 3*mw+2*(stripMinWidth+2) && below >= labPanelRows:
		s.drawSideBySide(screen, w, h, mw, mh, (w-3*mw)/2)
	case w >= 3*mw && below >= labPanelRows:
		s.drawSideBySide(screen, w, h, mw, mh, 0)
	case w >= 2*mw && h >= mh+2:
		s.single = true
		s.drawSingle(screen, w, h, mw, mh)
	default:
		s.tooSmall = true
		drawTooSmall(screen, w, h, 2*mw, mh+2)
	}
	if !s.tooSmall {
		s.drawInstruments(screen, rect{0, 1, w, h - 2})
		s.drawHeader(screen, w)
		s.drawButtons(screen, w, h-1)
	}
	if s.help {
		drawHelpOverlay(screen, w, h, s.opts.LogPath, "gridlag lab: keys", helpRows(labKeyTable))
	}
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
		labPanel{i: i, player: s.players[i], view: &s.views[i]}.draw(screen, &s.hs, xs[2*i], under, mw, h-1-under)
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
	labPanel{i: i, player: s.players[i], view: &s.views[i]}.draw(screen, &s.hs, x, y+1, rw, rows-1)
}

// drawServerInfo draws the server's lines, its rate control and its zap
// tag (see drawZapInfo) from (x, y), and returns the rows used.
func (s *LabScreen) drawServerInfo(screen tcell.Screen, x, y, w, rows int) int {
	n := min(len(s.world.Players)+1, rows)
	drawServerLines(screen, x, y, w, n, &s.world)
	if n >= rows {
		return n
	}
	r := &rowWriter{screen: screen, hs: &s.hs, x: x, y: y + n, end: x + w}
	r.text("rate ", styleText)
	r.button("[-]", styleKey, func() { s.changeRate(-1) })
	r.text(" "+rateText(s.model.Rate())+" ", styleText)
	r.button("[+]", styleKey, func() { s.changeRate(1) })
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

// drawHeader draws the top row: the title, the virtual time, the speed
// and PAUSED.
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
	if s.smooth {
		line += "   smoothing"
	}
	putText(screen, 1, 0, w-2, line, styleTitle)
}

// drawButtons draws the bottom row: the buttons of the lab's clock and
// screen, with their keys.
func (s *LabScreen) drawButtons(screen tcell.Screen, w, y int) {
	r := &rowWriter{screen: screen, hs: &s.hs, x: 0, y: y, end: w}
	pause := "[. pause]"
	if s.model.Paused() {
		pause = "[. resume]"
	}
	r.button(pause, styleKey, s.togglePause)
	r.text(" ", styleText)
	r.button("[n step]", styleKey, s.step)
	r.text(" ", styleText)
	r.button("[/ speed "+s.model.Speed()+"]", styleKey, s.model.SlowDown)
	r.text(" ", styleText)
	if s.single {
		r.button("[Tab board]", styleKey, s.nextBoard)
		r.text(" ", styleText)
	}
	r.button("[? help]", styleKey, func() { s.help = !s.help })
	r.text(" ", styleText)
	r.button("[q quit]", styleKey, func() { s.quit = true })
}

// HandleKey does what the lab's key table says of a key.
func (s *LabScreen) HandleKey(ev *tcell.EventKey) {
	if do := lookupKey(labKeyTable, ev); do != nil {
		do(s)
	}
}

// HandleMouse handles one mouse action: a click closes the help overlay,
// or presses the button under it. It reports whether the action was used.
func (s *LabScreen) HandleMouse(action tview.MouseAction, ev *tcell.EventMouse) bool {
	if action != tview.MouseLeftClick {
		return false
	}
	if s.help {
		s.help = false
		return true
	}
	x, y := ev.Position()
	return s.hs.click(x, y)
}

// drawInstruments draws the instrument overlay that is open over r: the
// two players' halves, Player 1 above (or on the left, when wide).
func (s *LabScreen) drawInstruments(screen tcell.Screen, r rect) {
	if s.tools.open == noInstrument {
		return
	}
	halves := [2]rect{{r.x, r.y, r.w, r.h / 2}, {r.x, r.y + r.h/2, r.w, r.h - r.h/2}}
	if r.w >= 160 {
		halves = [2]rect{{r.x, r.y, r.w / 2, r.h}, {r.x + r.w/2 + 1, r.y, r.w - r.w/2 - 1, r.h}}
	}
	for i, half := range halves {
		ins := &s.tools.data[i]
		name := labHeadings[2*i]
		switch s.tools.open {
		case waterfallView:
			drawWaterfall(screen, half, name+": waterfall of the last inputs", "t", ins)
		case netGraphView:
			drawNetGraph(screen, half, name+": net graph, the last 30 s", "g", ins)
		case budgetView:
			other := &s.tools.data[1-i]
			seer := labHeadings[2*(1-i)]
			b := client.NewBudget(ins.Side, other.Side, seer+"'s ")
			drawBudgets(screen, half, name+": latency budget", "b",
				[]string{"from " + name + "'s press to " + seer + " seeing it"}, []client.Budget{b}, tableGroupLabels(labKeyTable, labGroup("toggles", i))[:1])
		}
	}
}

// toggleSmooth turns smoothing of corrections on or off for both players.
func (s *LabScreen) toggleSmooth() {
	s.smooth = !s.smooth
	for _, p := range s.players {
		setSmooth(p, s.smooth)
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
	if s.tooSmall || s.single && b != s.focus {
		return 0, 0, false
	}
	if b == labServer {
		return s.server.Cell(p)
	}
	return s.boards[b/2].Cell(p)
}

// HelpVisible reports whether the help overlay is shown.
func (s *LabScreen) HelpVisible() bool { return s.help }

// QuitAsked reports whether the user asked to quit.
func (s *LabScreen) QuitAsked() bool { return s.quit }

// resized notes that the terminal changed size.
func (s *LabScreen) resized() { s.present.resized() }

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
