package tui

import (
	"fmt"
	"io"
	"time"

	"github.com/charmbracelet/log"
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"gridlag/client"
	"gridlag/grid"
)

// FrameInterval is the shortest time between two frames: the interface
// draws at most 60 frames per second.
const FrameInterval = time.Second / 60

// Options configure the interface. The zero value is usable.
type Options struct {
	// LogPath is where the program writes its log; the help overlay shows
	// it. Empty means no log is written.
	LogPath string
	// Title is shown on the top line, e.g. "gridlag — 127.0.0.1:7777".
	Title string
	// Invite, if set, is what the host of a local game gives friends to
	// join it, e.g. "ssh -p 2222 192.168.1.5": the top line says
	// "friends join: INVITE" after the title, and "friends: INVITE" in
	// place of the title and the player's name when the line is short.
	Invite string
	// EndGrace is how long Run keeps showing why the session ended before
	// it returns (any key returns at once). Zero means 3 seconds.
	EndGrace time.Duration
	// Logger receives the interface's few events (the session ended, the
	// player quit); nil discards them.
	Logger *log.Logger
	// Stop, when closed, makes Run return nil at once, as if the player
	// had quit (e.g. on a signal). Nil never stops.
	Stop <-chan struct{}
	// Clock paces the frames and the end-of-session grace. Nil is the
	// real clock.
	Clock Clock
}

// UI is the interface of one session on one screen: the title line, a
// Board beside a Panel, the status line and the keys' reminder, laid out
// by arrange, with the help overlay and the end-of-session notice on
// top. It holds what the screen shows (the view of the last frame, the
// overlay, whether the session ended) and belongs to one goroutine: the
// loop of Run, or a test calling HandleKey, HandleMouse and Frame in turn.
type UI struct {
	session client.Session
	opts    Options
	view    client.View // the view the last frame drew

	title   *textLine
	board   *Board
	panel   *Panel
	status  *textLine
	keys    *textLine
	capture tview.Primitive // the primitive holding the mouse (a slider drag)
	present presenter

	winner banner      // the last round's winner, over the board for a while
	tools  instruments // the waterfall, the net graph, the budget

	tooSmall bool // the last frame had no room for board and panel
	help     bool // the help overlay is shown
	ended    bool // the session is over; the screen says why
	quit     bool // the player asked to quit
}

// New returns the interface for session s drawn on screen, which must
// already be initialised. New draws nothing; call Frame (or Run).
func New(screen tcell.Screen, s client.Session, opts Options) *UI {
	opts = opts.withDefaults()
	u := &UI{session: s, opts: opts, present: presenter{screen: screen}}
	view := func() *client.View { return &u.view }
	u.board = NewBoard(view)
	u.panel = NewPanel(s, view)
	u.title = newTextLine(u.titleText, styleTitle)
	u.title.indent, u.title.fill = 1, true
	u.status = newTextLine(func(w int) string { return statusLine(&u.view, w) }, styleText)
	u.keys = newTextLine(func(int) string { return bottomLine() }, styleDim)
	return u
}

// withDefaults fills in the defaults of the zero fields.
func (o Options) withDefaults() Options {
	if o.EndGrace <= 0 {
		o.EndGrace = 3 * time.Second
	}
	if o.Logger == nil {
		o.Logger = log.New(io.Discard)
	}
	if o.Clock == nil {
		o.Clock = realClock{}
	}
	return o
}

// Frame takes a fresh View of the session and draws it on the off-screen
// canvas. When that differs from the frame last shown, or the terminal
// was resized, Frame copies it to the screen and shows it (tcell sends
// only the cells that changed) and reports true; otherwise the screen is
// left alone and nothing is sent.
func (u *UI) Frame() bool {
	u.refresh()
	return u.present.present(u.render)
}

// refresh takes a fresh View and notes whether a round ended and whether
// the session has.
func (u *UI) refresh() {
	prev := u.view
	u.view = u.session.View()
	u.winner.note(&prev, &u.view)
	u.tools.take(u.session)
	select {
	case <-u.session.Done():
		u.ended = true
	default:
	}
}

// render draws the whole screen for u.view: the parts where arrange puts
// them, or why they do not fit.
func (u *UI) render(screen tcell.Screen) {
	w, h := screen.Size()
	a, fits := arrange(w, h, u.view.Map)
	u.tooSmall = !fits
	if u.tooSmall {
		needW, needH := minSize(u.view.Map)
		drawTooSmall(screen, w, h, needW, needH)
	} else {
		u.drawParts(screen, a)
		u.drawInstruments(screen, a)
		if u.winner.shown(u.view.Now) {
			u.winner.draw(screen, a.board.x, a.board.y+1, a.board.w)
		}
		if u.ended {
			u.drawEnded(screen)
		}
	}
	if u.help {
		drawHelpOverlay(screen, w, h, u.opts.LogPath, "gridlag: keys", helpRows(keyTable))
	}
}

// drawParts draws each part of the screen in its rectangle.
// An instrument's overlay covers the board and the panel: they are not
// drawn under it.
func (u *UI) drawParts(screen tcell.Screen, a arrangement) {
	parts := []struct {
		p tview.Primitive
		r rect
	}{{u.title, a.title}, {u.status, a.status}, {u.keys, a.keys}, {u.board, a.board}, {u.panel, a.panel}}
	if u.tools.open != noInstrument {
		parts = parts[:3]
	}
	for _, part := range parts {
		part.p.SetRect(part.r.x, part.r.y, part.r.w, part.r.h)
		part.p.Draw(screen)
	}
}

// drawInstruments draws the instrument overlay that is open over the
// board and the panel.
func (u *UI) drawInstruments(screen tcell.Screen, a arrangement) {
	r := rect{a.board.x, a.board.y, a.panel.x + a.panel.w - a.board.x, a.board.h}
	if a.title.y == r.y { // the title heads the panel's column: it stays, with its notices
		r.y, r.h = r.y+1, r.h-1
	}
	ins := &u.tools.data[0]
	switch u.tools.open {
	case waterfallView:
		drawWaterfall(screen, r, "Waterfall: your last inputs, key to server's word", "t", ins)
	case netGraphView:
		drawNetGraph(screen, r, "Net graph: the last 30 s", "g", ins)
	case budgetView:
		drawBudgets(screen, r, "Latency budget", "b", []string{ownBudgetHeading}, []client.Budget{ins.Budget}, "p")
	}
}

// titleText returns the top line for width columns: the title and the
// player's name, or the name alone when both do not fit.
func (u *UI) titleText(width int) string {
	title := u.opts.Title
	if title == "" {
		title = "gridlag"
	}
	notice := u.view.Notice
	if u.ended {
		notice = "" // the countdown is over: the board says why it ended
	}
	if u.view.Reconnecting {
		notice = "reconnecting..."
	}
	if notice != "" {
		// The operator's notice (e.g. a restart) or the connection's state
		// leads the line.
		title = notice + "  ·  " + title
	}
	if u.opts.Invite != "" {
		title += "  ·  friends join: " + u.opts.Invite
	}
	if u.view.Name == "" {
		return title
	}
	playing := "playing as " + u.view.Name
	if full := title + "  ·  " + playing; textWidth(full) <= width {
		return full
	}
	switch short := "friends: " + u.opts.Invite; {
	case notice != "":
		return notice
	case u.opts.Invite != "" && textWidth(short) <= width:
		return short
	case u.opts.Invite != "":
		return u.opts.Invite
	}
	return playing
}

// drawTooSmall replaces the interface by a message saying what size it
// needs.
func drawTooSmall(screen tcell.Screen, w, h, needW, needH int) {
	msg := fmt.Sprintf("terminal too small: need %dx%d, have %dx%d", needW, needH, w, h)
	hint := "enlarge the window, or press q to quit"
	y := h/2 - 1
	putText(screen, max(0, (w-textWidth(msg))/2), max(0, y), w, msg, styleWarn)
	putText(screen, max(0, (w-textWidth(hint))/2), max(0, y+1), w, hint, styleDim)
}

// drawEnded writes why the session ended over the board, wrapped to fit
// (over the whole width when the board is too narrow for a sentence).
func (u *UI) drawEnded(screen tcell.Screen) {
	areaX, areaY, areaW, areaH := u.board.GetRect()
	if sw, _ := screen.Size(); areaW < endedMinWidth {
		areaX, areaW = 0, sw
	}
	msg := "session ended"
	if err := u.view.Err; err != nil {
		msg += ": " + err.Error()
	}
	drawEndedBox(screen, areaX, areaY, areaW, areaH, msg)
}

// drawEndedBox writes msg, why a connection ended, and how to leave in a
// box in the middle of the area, msg wrapped to fit.
func drawEndedBox(screen tcell.Screen, areaX, areaY, areaW, areaH int, msg string) {
	hint := "press any key to leave"
	w := min(max(textWidth(msg), textWidth(hint))+4, areaW)
	lines := append(wrap(msg, w-4), hint)
	x := areaX + (areaW-w)/2
	y := max(areaY+areaH/2-1-len(lines)/2, areaY)
	fill(screen, x, y, w, len(lines)+2, styleTitle)
	for i, line := range lines {
		putText(screen, x+2, y+1+i, w-4, line, styleTitle)
	}
}

// endedMinWidth is the narrowest board drawEnded writes its sentence on.
const endedMinWidth = 40

// HandleKey does what the key table says of a key; once the session has
// ended, any key asks to quit.
func (u *UI) HandleKey(ev *tcell.EventKey) {
	if u.ended {
		u.requestQuit()
		return
	}
	if do := keyAction(ev); do != nil {
		do(u)
	}
}

// HandleMouse handles one mouse action (as mouseTracker derives them
// from raw events): any click closes the help overlay; otherwise the action
// goes to the primitive holding the mouse, or to the one under the
// pointer (the panel's slider and toggles use them). It reports whether
// the action was used.
func (u *UI) HandleMouse(action tview.MouseAction, ev *tcell.EventMouse) bool {
	if u.help {
		if action == tview.MouseLeftClick {
			u.help = false
			return true
		}
		return false
	}
	if u.tooSmall || u.tools.open != noInstrument {
		return false // an overlay covers the slider and the toggles
	}
	target := u.capture
	if target == nil {
		target = u.panel // the only part that takes the mouse
	}
	used, capture := target.MouseHandler()(action, ev, func(tview.Primitive) {})
	u.capture = capture
	return used
}

// resized notes that the terminal changed size (see presenter.resized).
func (u *UI) resized() { u.present.resized() }

// nextChange returns how soon the last frame changes with time alone:
// FrameInterval while something moves (the ledger's ages, a correction
// mark to expire, interpolated players, a beam to fade, a frozen
// countdown) unless an instrument's overlay hides it; else when the
// round's clock shows the next second, the winner's banner comes down or
// the net graph's next second ends, whichever is first; 0 for never.
func (u *UI) nextChange() time.Duration {
	v := &u.view
	if u.tools.open == noInstrument && (len(v.Pending) > 0 ||
		v.LastCorrection != nil && v.Now-v.LastCorrection.At < CorrectionMarkTime+FrameInterval ||
		v.Interpolate && len(v.Others) > 0 ||
		v.Beam != nil || v.Frozen) {
		return FrameInterval // with an overlay open, none of it shows
	}
	var next time.Duration
	if v.Round > 0 && v.RoundLeft > 0 {
		next = v.RoundLeft % time.Second // clockText rounds up
		if next == 0 {
			next = time.Second
		}
	}
	if u.winner.shown(v.Now) && (next == 0 || u.winner.until-v.Now < next) {
		next = u.winner.until - v.Now
	}
	if graph := time.Second / 4; u.tools.open == netGraphView && (next == 0 || graph < next) {
		next = graph // the net graph's seconds roll by
	}
	return next
}

// BoardCell returns where the last frame drew map cell p: the screen
// column and row of its first character. ok is false when no board is
// drawn (no map yet, or the terminal is too small) or p is off the map.
func (u *UI) BoardCell(p grid.Pos) (x, y int, ok bool) {
	if u.tooSmall {
		return 0, 0, false
	}
	return u.board.Cell(p)
}

// Slider returns the latency slider, e.g. to find its track on screen.
func (u *UI) Slider() *LatencySlider { return u.panel.Slider() }

// HelpVisible reports whether the help overlay is shown.
func (u *UI) HelpVisible() bool { return u.help }

// signals returns the session's: it changed, it ended.
func (u *UI) signals() (changed, done <-chan struct{}) {
	return u.session.Changed(), u.session.Done()
}

// QuitAsked reports whether the player asked to quit (q, Ctrl-C, or any
// key once the session has ended).
func (u *UI) QuitAsked() bool { return u.quit }

// requestQuit records that the player asked to quit.
func (u *UI) requestQuit() { u.quit = true }
