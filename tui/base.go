package tui

import (
	"fmt"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// screenBase is what every screen of the package embeds, the way tview's
// primitives embed *tview.Box: what one screen has in common with the
// others, written once. A screen (the game's UI, the lab's, the
// spectator's, the lobby) adds what it shows and when that changes:
// Frame, which draws through show, nextChange and signals.
//
//   - show: the presenter, which sends a frame to the terminal only when
//     it changed, with the help overlay over it while it is shown;
//   - HandleKey: the screen's key table, bound to the screen, read in the
//     screen's state (state), and once the screen is over (ended) any key
//     leaves;
//   - the help overlay of that table (? and Esc; a click closes it);
//   - quitting (q and Ctrl-C of every table: QuitAsked);
//   - fits: the notice of a terminal too small for the screen, in place
//     of the screen;
//   - tools: the instruments' overlays (instruments.go) of the screen's
//     players, and smoothing of their corrections, with their keys
//     (instrumentBinding, smoothBinding); the screen says where an
//     overlay goes and leaves out what it covers;
//   - HandleMouse: the widgets the last frame drew (controls), which take
//     the mouse.
//
// It belongs to the screen's goroutine, as the screen does.
type screenBase struct {
	opts     Options
	present  presenter
	controls controls // the widgets the last frame drew: the mouse goes to them

	keys     func(ev *tcell.EventKey, state string) // does what the key table says
	state    string                                 // the rows of the key table in force (see binding.state)
	helpHead string                                 // the help overlay's title
	helpKeys []helpRow                              // the help overlay's rows: the key table's
	// helpStates, if set, are the help overlay's rows in each state: those
	// of the state alone (the lab's, whose rows would not fit 80x24 all
	// at once).
	helpStates map[string][]helpRow
	legend     []helpRow   // the board's symbols, as the help explains them; nil for none
	tools      instruments // the instruments' overlays, on a screen with players

	// esc, if set, is what Esc does when the help overlay is not shown
	// (the game's screen closes the perception test's results).
	esc func()

	help     bool // the help overlay is shown
	quit     bool // the user asked to quit
	tooSmall bool // the last frame had no room for the screen
	ended    bool // what the screen shows is over (a session, a watch): any key leaves
	began    bool // the server let the screen's connection in (see unstarted)
}

// neverStarted reports whether the screen's connection ended before the
// server let it in (see unstarted): a screen of a connection notes
// began as its views come.
func (b *screenBase) neverStarted() bool { return !b.began }

// newBase returns the base of screen s, drawn on screen: its keys are
// table's, which the help overlay lists under title, followed by the
// board's legend if legend is set.
func newBase[T any](s T, screen tcell.Screen, opts Options, table []binding[T], title string, legend bool) screenBase {
	return screenBase{
		opts:    opts.withDefaults(),
		present: presenter{screen: screen},
		keys: func(ev *tcell.EventKey, state string) {
			if do := lookupKey(table, state, ev); do != nil {
				do(s)
			}
		},
		helpHead: title,
		helpKeys: helpRows(table),
		legend:   legendRows(legend),
	}
}

// base returns the base itself, for the rows every key table shares (see
// helpBinding).
func (b *screenBase) base() *screenBase { return b }

// baser is a screen, as the rows every key table shares reach its base.
type baser interface{ base() *screenBase }

// show draws a frame with render, the help overlay over it while it is
// shown, and shows the frame if it changed anything (see presenter); it
// reports whether it did. The widgets render draws through controls take
// the mouse until the next frame.
func (b *screenBase) show(render func(screen tcell.Screen)) bool {
	b.tools.take(b.opts.Clock.Now())
	return b.present.present(func(screen tcell.Screen) {
		b.controls.reset()
		render(screen)
		if b.help {
			w, h := screen.Size()
			rows := b.helpKeys
			if r, ok := b.helpStates[b.state]; ok {
				rows = r
			}
			drawHelpOverlay(screen, w, h, b.opts.LogPath, b.helpHead, rows, b.legend)
		}
	})
}

// fits notes whether the screen fits the terminal (fits); when it does
// not, it draws what it needs (needW x needH) in its place, and the frame
// takes no mouse. It returns fits.
func (b *screenBase) fits(screen tcell.Screen, fits bool, needW, needH int) bool {
	b.tooSmall = !fits
	if !fits {
		w, h := screen.Size()
		drawTooSmall(screen, w, h, needW, needH)
	}
	return fits
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

// HandleKey does what the screen's key table says of a key; once what
// the screen shows is over (the session ended), any key asks to quit.
func (b *screenBase) HandleKey(ev *tcell.EventKey) {
	if b.ended {
		b.quit = true
		return
	}
	b.keys(ev, b.state)
}

// HandleMouse handles one mouse action (as mouseTracker derives them
// from raw events): a click closes the help overlay; otherwise the action
// goes to the widget holding the mouse (a slider being dragged) or to the
// one under the pointer. It reports whether the action was used.
func (b *screenBase) HandleMouse(action tview.MouseAction, ev *tcell.EventMouse) bool {
	if b.help {
		if action == tview.MouseLeftClick {
			b.help = false
			return true
		}
		return false
	}
	if b.tooSmall {
		return false
	}
	return b.controls.mouse(action, ev)
}

// HelpVisible reports whether the help overlay is shown.
func (b *screenBase) HelpVisible() bool { return b.help }

// QuitAsked reports whether the user asked to quit (q, Ctrl-C, or any
// key once what the screen shows is over).
func (b *screenBase) QuitAsked() bool { return b.quit }

// requestQuit records that the user asked to quit.
func (b *screenBase) requestQuit() { b.quit = true }

// escape hides the help overlay, or, when it is not shown, does what
// the screen does with Esc.
func (b *screenBase) escape() {
	if !b.help && b.esc != nil {
		b.esc()
	}
	b.help = false
}

// toggleHelp shows the help overlay, or hides it.
func (b *screenBase) toggleHelp() { b.help = !b.help }

// resized notes that the terminal changed size (see presenter.resized).
func (b *screenBase) resized() { b.present.resized() }
