package tui

import (
	"fmt"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"gridlag/client"
)

// styleOriginal is the recording's avatar beside the changed run's: a
// ghost of what was.
var styleOriginal = tcell.StyleDefault.Foreground(tcell.ColorFuchsia)

// replayBelow are the rows under a player's board: its status line, what
// the recording had, and its ledger.
const replayBelow = 3

// ReplayScreen is the screen of `gridlag replay`: the recording's boards
// as the lab draws them (Player 1, the server, Player 2, with the
// messages in flight between them; a game's player alone), the
// recording's avatar as a ghost (○) where a what-if moved the player,
// the lines of the differences so far, a header with the time, the end,
// the speed, PAUSED and the what-if, a bar to seek on, and the buttons
// of the replay's keys. From 80x24 one board shows at a time (Tab
// cycles). It belongs to one goroutine: the loop of RunReplay, or a test
// calling HandleKey, HandleMouse and Frame in turn.
type ReplayScreen struct {
	model   ReplayModel
	opts    Options
	present presenter
	hs      hotspots

	panes     []ReplayPane
	world     client.WorldView
	hasServer bool

	boards []*Board
	strips []*Strip
	server *ServerBoard

	focus    int
	single   bool
	tooSmall bool
	help     bool
	quit     bool
}

// NewReplayScreen returns the replay's screen for model, drawn on screen,
// which must already be initialised.
func NewReplayScreen(screen tcell.Screen, model ReplayModel, opts Options) *ReplayScreen {
	s := &ReplayScreen{model: model, opts: opts.withDefaults(), present: presenter{screen: screen}}
	s.server = NewServerBoard(func() *client.WorldView { return &s.world })
	return s
}

// RunReplay runs the replay's screen for model on screen, which must not
// be initialised yet, until the user quits or Options.Stop is closed.
func RunReplay(screen tcell.Screen, model ReplayModel, opts Options) error {
	_, err := runApp(screen, opts, func() app { return NewReplayScreen(screen, model, opts) })
	return err
}

// Frame brings the replay to its clock's time, takes the panes and the
// server's world, and draws them; it shows the frame if it changed
// anything and reports whether it did.
func (s *ReplayScreen) Frame() bool {
	s.model.Sync()
	s.panes = s.model.Panes()
	s.world, s.hasServer = s.model.Server()
	for len(s.boards) < len(s.panes) {
		i := len(s.boards)
		s.boards = append(s.boards, NewBoard(func() *client.View { return &s.panes[i].View }))
		s.strips = append(s.strips, NewStrip(s.panes[i].Name, i == 0, func() []Flight { return s.panes[i].Flights }))
	}
	return s.present.present(s.render)
}

// boardCount is how many boards the screen has: the players', and the
// server's when the replay has it.
func (s *ReplayScreen) boardCount() int {
	if s.hasServer {
		return len(s.panes) + 1
	}
	return len(s.panes)
}

// drawBoard draws board b (in the order Player 1, the server, Player 2;
// a player and the server; a player) in the rectangle, with what goes
// under it in rows rows below it.
func (s *ReplayScreen) drawBoard(screen tcell.Screen, b, x, y, w, h, rows int) {
	i := b
	if s.hasServer {
		switch {
		case b == 1:
			s.server.SetRect(x, y, w, h)
			s.server.Draw(screen)
			drawServerLines(screen, x, y+h, w, min(rows, len(s.world.Players)+1), &s.world)
			return
		case b > 1:
			i = b - 1
		}
	}
	p := &s.panes[i]
	s.boards[i].SetRect(x, y, w, h)
	s.boards[i].Draw(screen)
	if p.Ghost != nil {
		if gx, gy, ok := s.boards[i].Cell(*p.Ghost); ok {
			putText(screen, gx, gy, 1, "○", styleOriginal)
		}
	}
	if rows <= 0 {
		return
	}
	putText(screen, x, y+h, w, statusLine(&p.View, w), styleText)
	if rows > 1 && p.Ghost != nil {
		putText(screen, x, y+h+1, w, "○ the recording: you "+p.Ghost.String(), styleOriginal)
	}
	if rows > 2 {
		putText(screen, x, y+h+2, w, replayLedger(&p.View), styleDim)
	}
}

// replayLedger is a line of a player's ledger: its pending inputs, its
// last ack and its corrections.
func replayLedger(v *client.View) string {
	s := fmt.Sprintf("ack #%d  corrections %d  pending", v.LastAck, v.Corrections)
	if len(v.Pending) == 0 {
		return s + " -"
	}
	for _, p := range v.Pending {
		s += fmt.Sprintf(" #%d", p.Seq)
	}
	return s
}

// replayBottom are the rows under the boards side by side: the last
// difference (or the note), the what-if's switches, the bar, the buttons.
const replayBottom = 4

// render draws the whole screen in the layout the terminal's size allows.
func (s *ReplayScreen) render(screen tcell.Screen) {
	s.hs = s.hs[:0]
	w, h := screen.Size()
	n := s.boardCount()
	if n == 0 || len(s.panes) == 0 || s.panes[0].View.Map == nil {
		putText(screen, 1, 2, w-2, "nothing to show yet at this time of the recording: step on (n) or play (.)", styleDim)
		s.drawHeader(screen, w)
		s.drawNote(screen, 0, h-4, w, 1)
		s.drawSwitches(screen, 0, h-3, w, false)
		s.drawBar(screen, 0, h-2, w)
		s.drawButtons(screen, w, h-1)
		return
	}
	m := s.panes[0].View.Map
	mw, mh := m.Width(), m.Height()
	s.tooSmall, s.single = false, false
	switch {
	case w >= n*mw+(n-1)*2 && h >= mh+2+replayBelow+replayBottom:
		gap := 2
		if n > 1 {
			gap = (w - n*mw) / (n - 1)
		}
		for b := range n {
			x := b * (mw + gap)
			s.heading(screen, b, x, mw)
			s.drawBoard(screen, b, x, 2, mw, mh, h-replayBottom-2-mh)
		}
		s.drawStrips(screen, mw, gap, 2, h-replayBottom-2)
		s.drawNote(screen, 0, h-4, w, 1)
		s.drawSwitches(screen, 0, h-3, w, false)
		s.drawBar(screen, 0, h-2, w)
	case w >= 2*mw && h >= mh+2:
		s.single = true
		s.focus %= n
		s.drawBoard(screen, s.focus, 0, 1, mw, mh, 0)
		s.drawSide(screen, mw+1, 1, w-mw-1, h-2)
	default:
		s.tooSmall = true
		drawTooSmall(screen, w, h, 2*mw, mh+2)
		return
	}
	s.drawHeader(screen, w)
	s.drawButtons(screen, w, h-1)
	if s.help {
		drawHelpOverlay(screen, w, h, s.opts.LogPath, "gridlag replay: keys", helpRows(replayKeyTable))
	}
}

// drawNote draws the last difference so far (how many, too), or the
// replay's note, in rows rows from (x, y).
func (s *ReplayScreen) drawNote(screen tcell.Screen, x, y, w, rows int) int {
	line, st := s.model.Note(), styleDim
	if d := s.model.Differences(); len(d) > 0 {
		line, st = fmt.Sprintf("%s  (%d so far)", d[len(d)-1], len(d)), styleOriginal
	}
	used := 0
	for _, part := range wrap(line, w) {
		if used == rows {
			break
		}
		putText(screen, x, y+used, w, part, st)
		used++
	}
	return used
}

// drawSwitches draws the what-if's switches, on a row or one a row, and
// returns the rows used.
func (s *ReplayScreen) drawSwitches(screen tcell.Screen, x, y, w int, column bool) int {
	r := &rowWriter{screen: screen, hs: &s.hs, x: x, y: y, end: x + w}
	r.text("what-if:", styleDim)
	rows := 1
	for _, sw := range s.model.Switches() {
		box := "[ ]"
		if sw.On {
			box = "[x]"
		}
		st := styleKey
		if sw.Changed {
			st = styleOriginal
		}
		word := replaySwitchWords[sw.Name]
		if column {
			r = &rowWriter{screen: screen, hs: &s.hs, x: x + 1, y: y + rows, end: x + w}
			rows++
		} else {
			r.text(" ", styleText)
		}
		r.button(box+replaySwitchKeys[sw.Name]+" "+word, st, func() { s.model.Toggle(sw.Name) })
	}
	return rows
}

// headingText names board b.
func (s *ReplayScreen) headingText(b int) string {
	switch {
	case s.hasServer && b == 1:
		return "Server"
	case s.hasServer && b > 1:
		return s.panes[b-1].Name
	}
	return s.panes[b].Name
}

func (s *ReplayScreen) heading(screen tcell.Screen, b, x, w int) {
	t := s.headingText(b)
	putText(screen, x+(w-textWidth(t))/2, 1, w, t, styleHeading)
}

// drawStrips draws each player's messages in flight in the gap beside
// its board, when the gaps are wide enough and the players have links.
func (s *ReplayScreen) drawStrips(screen tcell.Screen, mw, gap, y, h int) {
	if gap < stripMinWidth+2 || !s.hasServer {
		return
	}
	for i := range s.panes {
		if !s.panes[i].Link || i > 1 {
			continue
		}
		s.strips[i].SetRect(mw+1+i*(mw+gap), y, gap-2, h)
		s.strips[i].Draw(screen)
	}
}

// drawSide draws, beside the one board shown, its heading, the focused
// player's lines (or the server's), the last difference, the what-if's
// switches, the bar to seek on and the player's messages in flight.
func (s *ReplayScreen) drawSide(screen tcell.Screen, x, y, w, rows int) {
	b := s.focus
	putText(screen, x, y, w, s.headingText(b)+"  (Tab: next board)", styleHeading)
	r := 1
	if s.hasServer && b == 1 {
		n := min(rows-r-9, len(s.world.Players)+1)
		drawServerLines(screen, x, y+r, w, max(n, 0), &s.world)
		r += max(n, 0)
	} else {
		i := b
		if s.hasServer && b > 1 {
			i = b - 1
		}
		p := &s.panes[i]
		putText(screen, x, y+r, w, statusLine(&p.View, w), styleText)
		r++
		if p.Ghost != nil {
			putText(screen, x, y+r, w, "○ the recording: you "+p.Ghost.String(), styleOriginal)
			r++
		}
		putText(screen, x, y+r, w, replayLedger(&p.View), styleDim)
		r++
		defer func(r int) {
			if left := rows - r; p.Link && left > 3 {
				s.strips[i].SetRect(x, y+r, w, left)
				s.strips[i].Draw(screen)
			}
		}(r + 10)
	}
	r += s.drawNote(screen, x, y+r, w, 2)
	r += s.drawSwitches(screen, x, y+r, w, true)
	s.drawBar(screen, x, y+r, w)
}

// drawHeader draws the top row: the title, the time and the end, the
// speed, PAUSED and the what-if.
func (s *ReplayScreen) drawHeader(screen tcell.Screen, w int) {
	fill(screen, 0, 0, w, 1, styleTitle)
	line := fmt.Sprintf("%s  t %.3f/%.3fs  %s", s.model.Title(), s.model.Now().Seconds(), s.model.End().Seconds(), s.model.Speed())
	if s.model.Paused() {
		line += "  PAUSED"
	}
	if wi := s.model.WhatIf(); wi != "" {
		line += "  what-if: " + wi
	}
	putText(screen, 1, 0, w-2, line, styleTitle)
}

// drawBar draws the recording's length as a bar, the time so far filled;
// a click on it seeks there.
func (s *ReplayScreen) drawBar(screen tcell.Screen, x, y, w int) {
	end := s.model.End()
	if w < 4 || end <= 0 {
		return
	}
	cols := w - 2
	done := int(int64(cols) * int64(s.model.Now()) / int64(end))
	putText(screen, x, y, 1, "[", styleDim)
	for c := range cols {
		glyph, st := "·", styleDim
		if c < done {
			glyph, st = "━", styleKey
		}
		at := time.Duration(int64(end) * int64(c) / int64(cols))
		s.hs.put(screen, x+1+c, y, 1, glyph, st, func() { s.model.Seek(at) })
	}
	putText(screen, x+w-1, y, 1, "]", styleDim)
}

// drawButtons draws the bottom row: the replay's clock and seeking, with
// their keys.
func (s *ReplayScreen) drawButtons(screen tcell.Screen, w, y int) {
	r := &rowWriter{screen: screen, hs: &s.hs, x: 0, y: y, end: w}
	play := "[. pause]"
	if s.model.Paused() {
		play = "[. play]"
	}
	r.button(play, styleKey, s.togglePause)
	r.text(" ", styleText)
	r.button("[n step]", styleKey, s.model.Step)
	r.text(" ", styleText)
	r.button("[/ "+s.model.Speed()+"]", styleKey, s.model.SlowDown)
	r.text(" ", styleText)
	r.button("[0 start]", styleKey, s.restart)
	r.text(" ", styleText)
	for _, k := range replaySeekKeys {
		r.button("["+k.key+" "+k.word+"]", styleKey, func() { s.model.SeekNext(k.kind) })
		r.text(" ", styleText)
	}
	r.button("[? help]", styleKey, func() { s.help = !s.help })
	r.text(" ", styleText)
	r.button("[q quit]", styleKey, func() { s.quit = true })
}

// HandleKey does what the replay's key table says of a key.
func (s *ReplayScreen) HandleKey(ev *tcell.EventKey) {
	if do := lookupKey(replayKeyTable, ev); do != nil {
		do(s)
	}
}

// HandleMouse handles one mouse action: a click closes the help overlay,
// or presses the button (or the bar's column) under it.
func (s *ReplayScreen) HandleMouse(action tview.MouseAction, ev *tcell.EventMouse) bool {
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

func (s *ReplayScreen) togglePause() {
	if s.model.Paused() {
		s.model.Resume()
	} else {
		s.model.Pause()
	}
}

// restart goes back to the start, paused.
func (s *ReplayScreen) restart() {
	s.model.Pause()
	s.model.Seek(0)
}

// seekBy moves the replay's time by d.
func (s *ReplayScreen) seekBy(d time.Duration) { s.model.Seek(max(s.model.Now()+d, 0)) }

func (s *ReplayScreen) nextBoard() { s.focus = (s.focus + 1) % max(s.boardCount(), 1) }

// HelpVisible reports whether the help overlay is shown.
func (s *ReplayScreen) HelpVisible() bool { return s.help }

// QuitAsked reports whether the user asked to quit.
func (s *ReplayScreen) QuitAsked() bool { return s.quit }

func (s *ReplayScreen) resized() { s.present.resized() }

// nextChange returns FrameInterval while the replay's clock runs; 0 while
// it is paused.
func (s *ReplayScreen) nextChange() time.Duration {
	if s.model.Paused() {
		return 0
	}
	return FrameInterval
}

func (s *ReplayScreen) signals() (changed, done <-chan struct{}) { return nil, nil }
