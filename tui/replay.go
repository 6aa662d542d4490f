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
	screenBase
	model ReplayModel

	panes     []ReplayPane
	world     client.WorldView
	hasServer bool

	boards []*Board
	strips []*Strip
	server *ServerBoard

	// The widgets: the what-if's switches (by name), the bar to seek on,
	// the buttons of the bottom row.
	switches map[string]*replaySwitch
	bar      *seekBar
	play     *button
	speed    *button
	bottom   []*button // the buttons after play: step, speed, start, seeks, help, quit
	focus    int
	single   bool
}

// NewReplayScreen returns the replay's screen for model, drawn on screen,
// which must already be initialised.
func NewReplayScreen(screen tcell.Screen, model ReplayModel, opts Options) *ReplayScreen {
	s := &ReplayScreen{model: model, switches: map[string]*replaySwitch{}}
	s.screenBase = newBase(s, screen, opts, replayKeyTable, "gridlag replay: keys", false)
	s.server = NewServerBoard(func() *client.WorldView { return &s.world })
	s.bar = &seekBar{Box: tview.NewBox(), model: model}
	s.play = newButton("[. play]", s.togglePause)
	s.speed = newButton("[/ 1x]", model.SlowDown)
	s.bottom = []*button{newButton("[n step]", model.Step), s.speed, newButton("[0 start]", s.restart)}
	for _, k := range replaySeekKeys {
		s.bottom = append(s.bottom, newButton("["+k.key+" "+k.word+"]", func() { model.SeekNext(k.kind) }))
	}
	s.bottom = append(s.bottom, newButton("[? help]", s.toggleHelp), newButton("[q quit]", s.requestQuit))
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
	return s.show(s.render)
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
			drawServerLines(screen, x, y+h, w, min(rows, len(s.world.Players)+1), &s.world, s.server.marks(&s.world))
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
	sideBySide := w >= n*mw+(n-1)*2 && h >= mh+2+replayBelow+replayBottom
	s.single = !sideBySide && w >= 2*mw && h >= mh+2
	if !s.fits(screen, sideBySide || s.single, 2*mw, mh+2) {
		return
	}
	switch {
	case sideBySide:
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
	default:
		s.focus %= n
		s.drawBoard(screen, s.focus, 0, 1, mw, mh, 0)
		s.drawSide(screen, mw+1, 1, w-mw-1, h-2)
	}
	s.drawHeader(screen, w)
	s.drawButtons(screen, w, h-1)
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
	r := &rowWriter{screen: screen, ctl: &s.controls, x: x, y: y, end: x + w}
	r.text("what-if:", styleDim)
	rows := 1
	for _, sw := range s.model.Switches() {
		b := s.switches[sw.Name]
		if b == nil {
			b = &replaySwitch{button: newButton("", func() { s.model.Toggle(sw.Name) })}
			s.switches[sw.Name] = b
		}
		b.label = boxText(sw.On) + replaySwitchKeys[sw.Name] + " " + replaySwitchWords[sw.Name]
		b.changed = sw.Changed
		if column {
			r = &rowWriter{screen: screen, ctl: &s.controls, x: x + 1, y: y + rows, end: x + w}
			rows++
		} else {
			r.text(" ", styleText)
		}
		r.put(b)
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
		drawServerLines(screen, x, y+r, w, max(n, 0), &s.world, s.server.marks(&s.world))
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
		}(r + 11)
	}
	r += s.drawNote(screen, x, y+r, w, 3)
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

// drawBar draws the bar to seek on at (x, y), w columns wide.
func (s *ReplayScreen) drawBar(screen tcell.Screen, x, y, w int) {
	if w < 4 || s.model.End() <= 0 {
		return
	}
	s.controls.draw(screen, s.bar, x, y, w, 1)
}

// seekBar is the recording's length as a bar, "[━━━····]", the time so
// far filled; a click on a column seeks to its time.
type seekBar struct {
	*tview.Box
	model ReplayModel
}

// Draw draws the bar.
func (b *seekBar) Draw(screen tcell.Screen) {
	x, y, w, _ := b.GetInnerRect()
	end, cols := b.model.End(), w-2
	if cols <= 0 || end <= 0 {
		return
	}
	done := int(int64(cols) * int64(b.model.Now()) / int64(end))
	putText(screen, x, y, 1, "[", styleDim)
	for c := range cols {
		glyph, st := "·", styleDim
		if c < done {
			glyph, st = "━", styleKey
		}
		putText(screen, x+1+c, y, 1, glyph, st)
	}
	putText(screen, x+w-1, y, 1, "]", styleDim)
}

// MouseHandler seeks to the time of the column clicked.
func (b *seekBar) MouseHandler() func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (consumed bool, capture tview.Primitive) {
	return b.WrapMouseHandler(func(action tview.MouseAction, event *tcell.EventMouse, _ func(tview.Primitive)) (bool, tview.Primitive) {
		mx, my := event.Position()
		if !clicked(action) || !b.InRect(mx, my) {
			return false, nil
		}
		x, _, w, _ := b.GetInnerRect()
		cols := w - 2
		if cols <= 0 {
			return false, nil
		}
		c := min(max(mx-x-1, 0), cols-1)
		b.model.Seek(time.Duration(int64(b.model.End()) * int64(c) / int64(cols)))
		return true, nil
	})
}

// replaySwitch is a what-if's switch as a button, "[x]p pred", drawn in
// the ghost's colour while it differs from the recording.
type replaySwitch struct {
	*button
	changed bool
}

// Draw draws the switch.
func (b *replaySwitch) Draw(screen tcell.Screen) {
	x, y, w, _ := b.GetInnerRect()
	st := styleKey
	if b.changed {
		st = styleOriginal
	}
	putText(screen, x, y, w, b.label, st)
}

// drawButtons draws the bottom row: the replay's clock and seeking, with
// their keys.
func (s *ReplayScreen) drawButtons(screen tcell.Screen, w, y int) {
	r := &rowWriter{screen: screen, ctl: &s.controls, x: 0, y: y, end: w}
	s.play.label = "[. pause]"
	if s.model.Paused() {
		s.play.label = "[. play]"
	}
	s.speed.label = "[/ " + s.model.Speed() + "]"
	r.put(s.play)
	for _, b := range s.bottom {
		r.text(" ", styleText)
		r.put(b)
	}
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

// nextChange returns FrameInterval while the replay's clock runs; 0 while
// it is paused.
func (s *ReplayScreen) nextChange() time.Duration {
	if s.model.Paused() {
		return 0
	}
	return FrameInterval
}

func (s *ReplayScreen) signals() (changed, done <-chan struct{}) { return nil, nil }
