package tui

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/charmbracelet/log"
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"gridlag/client"
	"gridlag/grid"
)

// FrameInterval is the shortest time between two frames that take a fresh
// View: the interface draws at most 60 frames per second.
const FrameInterval = time.Second / 60

// Options configure the interface. The zero value is usable.
type Options struct {
	// LogPath is where the program writes its log; the help overlay shows
	// it. Empty means no log is written.
	LogPath string
	// Title is shown on the top line, e.g. "gridlag — 127.0.0.1:7777".
	Title string
	// EndGrace is how long Run keeps showing why the session ended before
	// it returns (any key returns at once). Zero means 3 seconds.
	EndGrace time.Duration
	// Logger receives the interface's few events (the session ended, the
	// player quit); nil discards them.
	Logger *log.Logger
	// Stop, when closed, makes Run return nil at once, as if the player
	// had quit (e.g. on a signal). Nil never stops.
	Stop <-chan struct{}
}

// UI is the interface for one session. It is a tview.Primitive filling the
// whole screen: it lays out and draws the board, the panel, the status and
// help lines and the help overlay, and handles every key and mouse event.
//
// Frame draws one frame synchronously and HandleKey and HandleMouse take
// input, which is how tests drive it; Run adds the event loop and the frame
// clock. All methods are safe for concurrent use.
type UI struct {
	mu      sync.Mutex
	screen  tcell.Screen
	session client.Session
	opts    Options
	slider  *LatencySlider
	canvas  canvas // the frame being drawn

	view      client.View // the view drawn by the last frame
	haveView  bool
	lay       layout
	x, y      int // the rectangle tview gives the UI
	w, h      int
	focused   bool
	help      bool
	ended     bool // the session is over; the screen says why
	dirty     bool // the UI changed since the last fresh frame
	check     bool // the session signalled a change: compare its view
	lastFrame time.Time
	now       func() time.Time

	quit     chan struct{}
	quitOnce sync.Once
	wake     chan struct{} // capacity 1: tells the frame clock a frame is due
}

// New returns the interface for session s drawn on screen, which must
// already be initialised. New draws nothing; call Frame (or Run).
func New(screen tcell.Screen, s client.Session, opts Options) *UI {
	if opts.EndGrace <= 0 {
		opts.EndGrace = 3 * time.Second
	}
	if opts.Logger == nil {
		opts.Logger = log.New(io.Discard)
	}
	u := &UI{
		screen:  screen,
		session: s,
		opts:    opts,
		slider:  NewLatencySlider(),
		now:     time.Now,
		quit:    make(chan struct{}),
		wake:    make(chan struct{}, 1),
		dirty:   true,
	}
	u.slider.SetValue(s.View().Latency)
	u.slider.SetChangedFunc(func(d time.Duration) {
		s.SetLatency(d)
		u.dirty = true
	})
	return u
}

// Frame takes a fresh View of the session and draws one whole frame on the
// screen, then shows it (tcell sends only the cells that changed).
func (u *UI) Frame() {
	u.mu.Lock()
	defer u.mu.Unlock()
	w, h := u.screen.Size()
	u.x, u.y, u.w, u.h = 0, 0, w, h
	u.refresh()
	u.paint(u.screen)
	u.screen.Show()
}

// Draw draws the interface; it is called by tview's event loop, which
// clears the screen before and shows it after. It takes a fresh View unless
// the last one is younger than FrameInterval, so a burst of events does not
// exceed the frame rate; the frame clock then draws the rest.
func (u *UI) Draw(screen tcell.Screen) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if !u.haveView || u.now().Sub(u.lastFrame) >= FrameInterval {
		u.refresh()
	}
	u.paint(screen)
}

// paint draws u.view on the canvas, then copies the canvas to screen with
// one write per cell, so tcell sends only the cells that really changed.
func (u *UI) paint(screen tcell.Screen) {
	w, h := screen.Size()
	u.canvas.reset(screen, w, h)
	u.render(&u.canvas)
	u.canvas.flush()
}

// refresh takes a fresh View and keeps the slider in step with it.
func (u *UI) refresh() {
	u.view = u.session.View()
	u.haveView = true
	u.dirty, u.check = false, false
	u.lastFrame = u.now()
	if !u.slider.Dragging() {
		u.slider.SetValue(u.view.Latency)
	}
	select {
	case <-u.session.Done():
		u.ended = true
	default:
	}
}

// render draws u.view.
func (u *UI) render(screen tcell.Screen) {
	v := &u.view
	u.lay = computeLayout(u.w, u.h, v.Map)
	l := u.lay
	if l.tooSmall {
		u.slider.SetRect(0, 0, 0, 0)
		drawTooSmall(screen, l)
		if u.help {
			drawHelpOverlay(screen, u.w, u.h, u.opts.LogPath)
		}
		return
	}
	title := u.opts.Title
	if title == "" {
		title = "gridlag"
	}
	if v.Name != "" {
		title += "  ·  playing as " + v.Name
	}
	if v.Notice != "" {
		title = v.Notice + "  ·  " + title
	}
	fill(screen, 0, 0, l.w, 1, styleTitle)
	putText(screen, 1, 0, l.w-2, title, styleTitle)

	drawBoard(screen, l, v)
	drawPanel(screen, l, v)
	u.slider.SetRect(l.panelX, l.panelY+panelSliderRow, panelWidth, 1)
	u.slider.Draw(screen)
	putText(screen, 0, l.statusY, l.w, statusLine(v, l.w), styleText)
	drawHelpLine(screen, l)
	if u.ended {
		u.drawEnded(screen)
	}
	if u.help {
		drawHelpOverlay(screen, l.w, l.h, u.opts.LogPath)
	}
}

// drawTooSmall replaces the interface by a message saying what size it
// needs.
func drawTooSmall(screen tcell.Screen, l layout) {
	msg := fmt.Sprintf("terminal too small: need %dx%d, have %dx%d", l.needW, l.needH, l.w, l.h)
	hint := "enlarge the window, or press q to quit"
	y := l.h/2 - 1
	putText(screen, max(0, (l.w-textWidth(msg))/2), max(0, y), l.w, msg, styleWarn)
	putText(screen, max(0, (l.w-textWidth(hint))/2), max(0, y+1), l.w, hint, styleDim)
}

// drawEnded writes why the session ended over the board.
func (u *UI) drawEnded(screen tcell.Screen) {
	l := u.lay
	msg := "session ended"
	if err := u.view.Err; err != nil {
		msg += ": " + err.Error()
	}
	hint := "press any key to leave"
	w := min(max(textWidth(msg), textWidth(hint))+4, l.areaW)
	x := l.areaX + (l.areaW-w)/2
	y := l.areaY + l.areaH/2 - 2
	fill(screen, x, y, w, 4, styleTitle)
	putText(screen, x+2, y+1, w-4, msg, styleTitle)
	putText(screen, x+2, y+2, w-4, hint, styleTitle)
}

// HandleKey handles one key event: moves, toggles, the latency slider's
// keys, help and quit.
func (u *UI) HandleKey(ev *tcell.EventKey) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.handleKey(ev)
}

func (u *UI) handleKey(ev *tcell.EventKey) {
	u.markDirty()
	if ev.Key() == tcell.KeyCtrlC || u.ended {
		u.requestQuit()
		return
	}
	if d := keyDir(ev); d != grid.None {
		u.session.Press(d)
		return
	}
	if _, ok := sliderStep(ev); ok {
		u.slider.InputHandler()(ev, func(tview.Primitive) {})
		return
	}
	switch ev.Key() {
	case tcell.KeyEscape:
		u.help = false
		return
	case tcell.KeyRune:
	default:
		return
	}
	switch r := ev.Rune(); r {
	case 'q', 'Q':
		u.requestQuit()
	case '?':
		u.help = !u.help
	case 'p', 'P', 'r', 'R', 'i', 'I':
		u.flip(r | 0x20)
	}
}

// flip turns the toggle with the given key over, from the session's
// current state.
func (u *UI) flip(key rune) {
	v := u.session.View()
	switch key {
	case 'p':
		u.session.SetPredict(!v.Predict)
	case 'r':
		u.session.SetReconcile(!v.Reconcile)
	case 'i':
		u.session.SetInterpolate(!v.Interpolate)
	}
}

// keyDir returns the direction a key asks for, or grid.None.
func keyDir(ev *tcell.EventKey) grid.Dir {
	switch ev.Key() {
	case tcell.KeyUp:
		return grid.Up
	case tcell.KeyDown:
		return grid.Down
	case tcell.KeyLeft:
		return grid.Left
	case tcell.KeyRight:
		return grid.Right
	case tcell.KeyRune:
		switch ev.Rune() {
		case 'k', 'K', 'w', 'W':
			return grid.Up
		case 'j', 'J', 's', 'S':
			return grid.Down
		case 'h', 'H', 'a', 'A':
			return grid.Left
		case 'l', 'L', 'd', 'D':
			return grid.Right
		}
	}
	return grid.None
}

// HandleMouse handles one mouse action as tview derives them from raw
// events (tview.MouseLeftDown, MouseMove, MouseLeftUp, MouseLeftClick, the
// wheel): the latency slider takes clicks and drags, a click on a toggle
// flips it, and any click closes the help overlay. It reports whether the
// event was used.
func (u *UI) HandleMouse(action tview.MouseAction, ev *tcell.EventMouse) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.handleMouse(action, ev)
}

func (u *UI) handleMouse(action tview.MouseAction, ev *tcell.EventMouse) bool {
	if u.help {
		if action == tview.MouseLeftClick {
			u.help = false
			u.markDirty()
			return true
		}
		return false
	}
	if u.lay.tooSmall {
		return false
	}
	x, y := ev.Position()
	if u.slider.Dragging() || u.slider.InRect(x, y) {
		if used, _ := u.slider.MouseHandler()(action, ev, func(tview.Primitive) {}); used {
			u.markDirty()
			return true
		}
	}
	if action == tview.MouseLeftClick && x >= u.lay.panelX && x < u.lay.panelX+panelWidth {
		for _, t := range toggles {
			if y == u.lay.panelY+t.row {
				u.flip(t.key)
				u.markDirty()
				return true
			}
		}
	}
	return false
}

// BoardCell returns where the last frame drew map cell p: the screen
// column and row of its first character. ok is false when no board is
// drawn (no map yet, or the terminal is too small) or p is off the map.
func (u *UI) BoardCell(p grid.Pos) (x, y int, ok bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if !u.haveView || u.view.Map == nil || u.lay.tooSmall || !u.view.Map.Inside(p) {
		return 0, 0, false
	}
	x, y = u.lay.cell(p)
	return x, y, true
}

// Slider returns the latency slider, e.g. to find its track on screen.
func (u *UI) Slider() *LatencySlider { return u.slider }

// HelpVisible reports whether the help overlay is shown.
func (u *UI) HelpVisible() bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.help
}

// Quit is closed when the player asks to quit (q, Ctrl-C, or any key once
// the session has ended).
func (u *UI) Quit() <-chan struct{} { return u.quit }

// NeedsFrame reports whether the screen is out of date: something changed
// since the last fresh frame, or what is drawn changes with time (ages in
// the ledger, a correction mark to expire, interpolated players).
func (u *UI) NeedsFrame() bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.dirty || u.check || u.animating()
}

// Stale reports whether a frame drawn now would differ from the last one:
// the UI is dirty, or the session's view changed in a way the screen shows.
// The frame clock skips frames that are not stale.
func (u *UI) Stale() bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.stale()
}

// frameDue is Stale for the frame clock: when the session's view turns
// out unchanged, the session's signal is settled.
func (u *UI) frameDue() bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.stale() {
		return true
	}
	u.check = false
	return false
}

func (u *UI) stale() bool {
	if u.dirty || !u.haveView {
		return true
	}
	v := u.session.View()
	return !sameDrawing(&v, &u.view)
}

// animating reports whether the last frame shows something that changes
// with time alone.
func (u *UI) animating() bool {
	v := &u.view
	return len(v.Pending) > 0 ||
		v.LastCorrection != nil && v.Now-v.LastCorrection.At < CorrectionMarkTime+FrameInterval ||
		v.Interpolate && len(v.Others) > 0
}

// SessionChanged tells the UI that the session signalled a change
// (Session.Changed). The next frame is drawn only if the view really looks
// different: many messages (a state that moves no one) change nothing on
// screen.
func (u *UI) SessionChanged() {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.check = true
	u.wakeClock()
}

// markDirty sets the dirty flag and wakes the frame clock.
func (u *UI) markDirty() {
	u.dirty = true
	u.wakeClock()
}

// wakeClock tells the frame clock to look for a frame to draw.
func (u *UI) wakeClock() {
	select {
	case u.wake <- struct{}{}:
	default:
	}
}

// untilNextFrame returns how long the frame clock must wait before the
// next fresh frame is allowed.
func (u *UI) untilNextFrame() time.Duration {
	u.mu.Lock()
	defer u.mu.Unlock()
	return max(0, FrameInterval-u.now().Sub(u.lastFrame))
}

// sessionEnded records that the session is over, so the screen says why.
func (u *UI) sessionEnded() {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.ended = true
	u.markDirty()
}

// requestQuit closes the quit channel once.
func (u *UI) requestQuit() {
	u.quitOnce.Do(func() { close(u.quit) })
}

// GetRect returns the UI's rectangle (tview.Primitive).
func (u *UI) GetRect() (int, int, int, int) {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.x, u.y, u.w, u.h
}

// SetRect sets the UI's rectangle (tview.Primitive); Run gives it the
// whole screen.
func (u *UI) SetRect(x, y, width, height int) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.x, u.y, u.w, u.h = x, y, width, height
}

// InputHandler returns the key handler (tview.Primitive).
func (u *UI) InputHandler() func(event *tcell.EventKey, setFocus func(p tview.Primitive)) {
	return func(event *tcell.EventKey, _ func(p tview.Primitive)) { u.HandleKey(event) }
}

// MouseHandler returns the mouse handler (tview.Primitive). While the
// slider is dragged the UI captures the mouse, so the drag goes on when the
// pointer leaves the track.
func (u *UI) MouseHandler() func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (consumed bool, capture tview.Primitive) {
	return func(action tview.MouseAction, event *tcell.EventMouse, _ func(p tview.Primitive)) (bool, tview.Primitive) {
		u.mu.Lock()
		defer u.mu.Unlock()
		used := u.handleMouse(action, event)
		if u.slider.Dragging() {
			return used, u
		}
		return used, nil
	}
}

// PasteHandler ignores pasted text (tview.Primitive).
func (u *UI) PasteHandler() func(text string, setFocus func(p tview.Primitive)) {
	return func(string, func(p tview.Primitive)) {}
}

// Focus is called when the UI receives focus (tview.Primitive).
func (u *UI) Focus(func(p tview.Primitive)) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.focused = true
}

// HasFocus reports whether the UI has focus (tview.Primitive).
func (u *UI) HasFocus() bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.focused
}

// Blur is called when the UI loses focus (tview.Primitive).
func (u *UI) Blur() {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.focused = false
}
