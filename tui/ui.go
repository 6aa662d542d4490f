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
	"gridlag/internal/perception"
	"gridlag/internal/wire"
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
	// On the teacher's screen it is where the class joins the room, said
	// as "students join: INVITE".
	Invite string
	// JoinCode, if set, says on the teacher's screen how students join
	// with the class's code (protocol version 6): the ways, most wanted
	// first (the web page's URL carrying it, then the SSH command whose
	// login is the code), of which the screen shows as many as fit
	// beside the code; nil: the code alone.
	JoinCode func(code string) []string
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
	// Perception is the design of the perception test's runs a
	// teacher's screen starts (v changes their prediction); the zero
	// value, or settings that fail their Check, are
	// perception.DefaultSettings.
	Perception perception.Settings
	// Wire, if set, counts what the player's connection carries, layer
	// by layer (the front end's and the game client's counters): the
	// wire overlay (key o) shows what a move costs it. Nil: the overlay
	// says there is nothing to count (the lab's network is simulated).
	Wire *wire.Meter
}

// UI is the interface of one session on one screen: the title line, a
// Board beside a Panel, the status line and the keys' reminder, laid out
// by arrange, with the help overlay and the end-of-session notice on
// top. It holds what the screen shows (the view of the last frame, the
// overlay, whether the session ended) and belongs to one goroutine: the
// loop of Run, or a test calling HandleKey, HandleMouse and Frame in turn.
type UI struct {
	screenBase
	session client.Session
	view    client.View // the view the last frame drew

	title  *textLine
	board  *Board
	panel  *Panel
	status *textLine
	keys   *textLine

	winner banner // the last round's winner, over the board for a while
	names  marks  // the room's marks, the board's and the scoreboard's

	// flash is why the player's last press of a switch changed nothing
	// (the teacher holds it), on the top line until flashUntil.
	flash      string
	flashUntil time.Duration
	// renamed: the player was told the server gave it another name than
	// the one it asked for.
	renamed bool

	// The perception test (trial.go): the panel of its rounds and of the
	// player's results, the player's own latency while in a run, and the
	// run whose results Esc closed.
	trial     *trialPanel
	own       ownNetwork
	closedRun int
}

// renameTime is how long the top line says the player plays under
// another name than the one it asked for.
const renameTime = 10 * time.Second

// flashTime is how long the top line says why a switch did not change.
const flashTime = 3 * time.Second

// flip flips switch t, or says on the top line why it cannot (the
// room's teacher holds it).
func (u *UI) flip(t *toggle) {
	v := u.session.View()
	if why := t.heldBy(&v); why != "" {
		u.say(why, v.Now)
	}
	t.flip(u.session)
}

// say shows why on the top line for flashTime from now.
func (u *UI) say(why string, now time.Duration) {
	u.flash, u.flashUntil = why, now+flashTime
}

// tellRenamed says on the top line, once, for renameTime, that the
// server gave the player another name than the one it asked for (a
// player of that name is in the room), and the mark the others' screens
// show it by.
func (u *UI) tellRenamed() {
	v := &u.view
	if u.renamed || v.AskedName == "" || v.Me == 0 {
		return
	}
	u.renamed = true
	u.flash = fmt.Sprintf("%s is taken here: you play as %s, marked %s on the others' screens", v.AskedName, v.Name, u.names.of(v.Me, v.Name))
	u.flashUntil = v.Now + renameTime
}

// flashing reports whether the top line says why a switch did not change.
func (u *UI) flashing() bool { return u.flash != "" && u.view.Now < u.flashUntil }

// New returns the interface for session s drawn on screen, which must
// already be initialised. New draws nothing; call Frame (or Run).
func New(screen tcell.Screen, s client.Session, opts Options) *UI {
	u := &UI{session: s}
	u.screenBase = newBase(u, screen, opts, keyTable, "gridlag: keys", true)
	view := func() *client.View { return &u.view }
	u.board = NewBoard(view)
	u.panel = NewPanel(s, view)
	u.board.names, u.panel.names = &u.names, &u.names
	u.panel.said = func(why string) { u.say(why, u.view.Now) }
	u.panel.flash = func() string {
		if u.flashing() {
			return u.flash
		}
		return ""
	}
	u.title = newTextLine(u.titleText, styleTitle)
	u.title.indent, u.title.fill = 1, true
	u.status = newTextLine(func(w int) string {
		if p := u.view.Perception; p.Blind() {
			return trialStatus(p)
		}
		return statusLine(&u.view, w)
	}, styleText)
	u.keys = newTextLine(func(int) string {
		if u.view.Perception.Blind() {
			return trialKeysLine()
		}
		return bottomLine()
	}, styleDim)
	u.tools.players = []client.Session{s}
	u.tools.wire.meter = u.opts.Wire
	u.trial = newTrialPanel(u)
	u.esc = u.closeResults
	all := u.screenBase.keys
	u.screenBase.keys = func(ev *tcell.EventKey, state string) {
		if !u.view.Perception.Blind() {
			all(ev, state)
			return
		}
		if do := lookupKey(blindKeyTable, state, ev); do != nil {
			do(u)
			return
		}
		if lookupKey(keyTable, state, ev) != nil {
			u.say("during the perception test: move, zap, answer (y n)", u.view.Now)
		}
	}
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
	return u.show(u.render)
}

// refresh takes a fresh View and notes whether a round ended and whether
// the session has.
func (u *UI) refresh() {
	prev := u.view
	u.view = u.session.View()
	u.perceive()
	blindView(&u.view)
	u.began = u.began || u.view.Connected
	u.names.takeView(&u.view)
	u.tellRenamed()
	u.winner.note(prev.Round, u.view.Round, u.view.LastWinner, u.view.Now)
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
	a, ok := arrange(w, h, u.view.Map)
	if needW, needH := minSize(u.view.Map); !u.fits(screen, ok, needW, needH) {
		return
	}
	u.drawParts(screen, a)
	u.drawInstruments(screen, a)
	if u.winner.shown(u.view.Now) {
		u.winner.draw(screen, a.board.x, a.board.y+1, a.board.w)
	}
	if u.ended {
		u.drawEnded(screen)
	}
}

// drawParts draws each part of the screen in its rectangle; the panel
// takes the mouse. An instrument's overlay covers the board and the
// panel: they are not drawn under it, and the panel takes no mouse.
func (u *UI) drawParts(screen tcell.Screen, a arrangement) {
	parts := []struct {
		p tview.Primitive
		r rect
	}{{u.title, a.title}, {u.status, a.status}, {u.keys, a.keys}, {u.board, a.board}}
	if u.tools.shown() {
		parts = parts[:3]
	}
	for _, part := range parts {
		part.p.SetRect(part.r.x, part.r.y, part.r.w, part.r.h)
		part.p.Draw(screen)
	}
	if !u.tools.shown() {
		var panel tview.Primitive = u.panel
		if u.view.Perception.Blind() || u.showsResults() {
			panel = u.trial
		}
		u.controls.draw(screen, panel, a.panel.x, a.panel.y, a.panel.w, a.panel.h)
	}
}

// drawInstruments draws the instrument overlay that is open (if one is)
// over the board and the panel; the title stays above it when it heads
// the panel's column, with its notices.
func (u *UI) drawInstruments(screen tcell.Screen, a arrangement) {
	r := rect{a.board.x, a.board.y, a.panel.x + a.panel.w - a.board.x, a.board.h}
	if a.title.y == r.y {
		r.y, r.h = r.y+1, r.h-1
	}
	u.tools.draw(screen, r)
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
	switch {
	case u.view.Reconnecting:
		notice = "reconnecting..."
	case notice != "" || u.ended:
	case u.flashing():
		notice = u.flash
	case trialTitle(u.view.Perception) != "":
		notice = trialTitle(u.view.Perception)
	case u.view.Teaching != nil:
		notice = TeachingLine(u.view.Teaching)
		if u.view.Me != 0 && u.view.Following == u.view.Me {
			notice = "on the projector: you  ·  " + notice
		}
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

// nextChange returns how soon the last frame changes with time alone:
// FrameInterval while something moves (the ledger's ages, a correction
// mark to expire, interpolated players, a beam to fade, a frozen
// countdown) unless an instrument's overlay hides it; else when the
// round's clock shows the next second, the winner's banner comes down or
// the net graph's next second ends, whichever is first; 0 for never.
func (u *UI) nextChange() time.Duration {
	v := &u.view
	if !u.tools.shown() && (len(v.Pending) > 0 ||
		v.LastCorrection != nil && v.Now-v.LastCorrection.At < CorrectionMarkTime+FrameInterval ||
		v.Interpolate && len(v.Others) > 0 ||
		v.Beam != nil || v.Frozen) {
		return FrameInterval // with an overlay open, none of it shows
	}
	next := roundNext(v.Round, v.RoundLeft, &u.winner, v.Now)
	if u.flashing() {
		next = sooner(next, u.flashUntil-v.Now)
	}
	if p := v.Perception; p.Blind() && p.Left > 0 {
		// The round's countdown shows whole seconds, rounded up.
		tick := p.Left % time.Second
		if tick == 0 {
			tick = time.Second
		}
		next = sooner(next, tick)
	}
	return sooner(next, u.tools.nextChange())
}

// roundNext returns how soon a round's clock (round, left) shows its
// next second or the winner's banner comes down, at now, whichever is
// first; 0 for neither.
func roundNext(round int, left time.Duration, winner *banner, now time.Duration) time.Duration {
	var next time.Duration
	if round > 0 && left > 0 {
		next = left % time.Second // clockText rounds up
		if next == 0 {
			next = time.Second
		}
	}
	if winner.shown(now) && (next == 0 || winner.until-now < next) {
		next = winner.until - now
	}
	return next
}

// sooner returns the sooner of two times to the next change, each 0 for
// never.
func sooner(a, b time.Duration) time.Duration {
	switch {
	case b <= 0:
		return a
	case a <= 0:
		return b
	}
	return min(a, b)
}

// BoardCell returns where the last frame drew map cell p: the screen
// column and row of its first character. ok is false when no board is
// drawn (no map yet, the terminal too small, an instrument over it) or p is
// off the map.
func (u *UI) BoardCell(p grid.Pos) (x, y int, ok bool) {
	if u.tooSmall || u.tools.shown() {
		return 0, 0, false
	}
	return u.board.Cell(p)
}

// Slider returns the latency slider, e.g. to find its track on screen.
func (u *UI) Slider() *Slider { return u.panel.Slider() }

// signals returns the session's: it changed, it ended.
func (u *UI) signals() (changed, done <-chan struct{}) {
	return u.session.Changed(), u.session.Done()
}
