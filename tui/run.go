package tui

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"gridlag/client"
)

// Run runs the interface for session s on screen, which must not be
// initialised yet (a local terminal, or one bound to an SSH channel). It
// returns when the player quits (q or Ctrl-C), or when the session ends:
// the screen then says why for Options.EndGrace (or until a key is
// pressed) and Run returns the session's error. Run always finalises the
// screen before it returns, panics included (the panic goes on after). It
// does not close s.
func Run(screen tcell.Screen, s client.Session, opts Options) (err error) {
	if screen == nil {
		return errors.New("tui: no screen")
	}
	if s == nil {
		return errors.New("tui: no session")
	}
	if err := screen.Init(); err != nil {
		return fmt.Errorf("tui: cannot start the terminal: %w", err)
	}
	defer screen.Fini() // runs on every path, panics included

	u := New(screen, s, opts)
	app := tview.NewApplication()
	wrapped := &initialised{Screen: screen, app: app}
	app.SetScreen(wrapped)
	app.EnableMouse(true)
	app.SetRoot(u, true)
	if opts.Title != "" {
		app.SetTitle(opts.Title)
	}

	c := &frameClock{ui: u, app: app, screen: screen, session: s, stop: make(chan struct{}), drawn: make(chan struct{}, 1)}
	wrapped.onDraw = c.frameDrawn
	c.wg.Add(1)
	go c.run()
	defer c.halt()

	if err := app.Run(); err != nil {
		return fmt.Errorf("tui: %w", err)
	}
	c.halt()
	if p := c.panicked; p != nil {
		panic(p)
	}
	if c.sessionOver {
		err := s.View().Err
		u.opts.Logger.Info("tui: session ended", "err", err)
		return err
	}
	u.opts.Logger.Info("tui: player quit")
	return nil
}

// initialised wraps a screen Run has already initialised, so that tview,
// which initialises the screens it is given and ignores the error, does
// not initialise it a second time.
type initialised struct {
	tcell.Screen
	app    *tview.Application
	onDraw func() // called after each frame drawn for the clock
}

// drawRequest marks the interrupt events with which the frame clock asks
// for a frame.
type drawRequest struct{}

// Init does nothing: the screen is initialised.
func (*initialised) Init() error { return nil }

// EnableMouse asks the terminal for clicks and drags only, not for every
// motion of the pointer, which would cost an SSH player bytes for nothing.
func (s *initialised) EnableMouse(...tcell.MouseFlags) {
	s.Screen.EnableMouse(tcell.MouseButtonEvents | tcell.MouseDragEvents)
}

// Clear does nothing. tview clears the screen before every frame, which
// would make tcell send every non-blank cell again; the UI paints every
// cell of every frame itself, so no clear is needed.
func (*initialised) Clear() {}

// PollEvent draws the frames the clock asks for, on tview's own event
// poller, and hands every other event to tview. tview's Run waits for its
// poller before it lets go of the screen, so a frame drawn here can never
// race with the end of Run, as a draw from another goroutine could.
func (s *initialised) PollEvent() tcell.Event {
	for {
		ev := s.Screen.PollEvent()
		if _, ok := ev.(*tcell.EventResize); ok {
			// After a resize the terminal's content is not what tcell
			// remembers: clear for real (tview's Clear is a no-op here),
			// so that the next frame repaints every cell.
			s.Screen.Clear()
		}
		if in, ok := ev.(*tcell.EventInterrupt); ok {
			if _, ok := in.Data().(drawRequest); ok {
				s.app.ForceDraw()
				if s.onDraw != nil {
					s.onDraw()
				}
				continue
			}
		}
		return ev
	}
}

// frameClock paces the frames of a running UI: it wakes when the UI is
// dirty or the session changed, and draws at most one fresh frame per
// FrameInterval, going on while what is drawn changes with time. It also
// stops the application when the player quits or the session has ended.
type frameClock struct {
	ui      *UI
	app     *tview.Application
	screen  tcell.Screen
	session client.Session
	drawn   chan struct{} // a frame the clock asked for was drawn
	asked   atomic.Bool   // a frame was asked for and not drawn yet
	stop    chan struct{}
	once    sync.Once
	wg      sync.WaitGroup

	// Set by run before it returns; read after halt.
	panicked    any
	sessionOver bool
}

// frameDrawn is called by the event poller after drawing a frame the
// clock asked for.
func (c *frameClock) frameDrawn() {
	c.asked.Store(false)
	select {
	case c.drawn <- struct{}{}:
	default:
	}
}

// halt stops the clock and waits for it.
func (c *frameClock) halt() {
	c.once.Do(func() { close(c.stop) })
	c.wg.Wait()
}

func (c *frameClock) run() {
	defer c.wg.Done()
	defer func() {
		if p := recover(); p != nil {
			c.panicked = p
			c.app.Stop()
		}
	}()

	// The clock ticks at the frame rate while the screen may be out of
	// date, and stops when it is not. A frame is drawn when one is due (no
	// frame requested and not drawn yet, and the screen would look
	// different).
	ticker := time.NewTicker(FrameInterval)
	defer ticker.Stop()
	ticking := true
	var leave <-chan time.Time
	done := c.session.Done()
	for {
		tick := false
		select {
		case <-c.stop:
			return
		case <-c.ui.Quit():
			c.app.Stop()
			return
		case <-c.ui.opts.Stop:
			c.app.Stop()
			return
		case <-leave:
			c.app.Stop()
			return
		case <-done:
			done = nil
			c.sessionOver = true
			c.ui.sessionEnded()
			leave = time.After(c.ui.opts.EndGrace)
		case <-c.session.Changed():
			c.ui.SessionChanged()
		case <-c.ui.wake:
		case <-ticker.C:
			tick = true
		case <-c.drawn:
		}
		// While ticking, frames are drawn on ticks only: at most one a
		// tick. An idle clock draws at once (a key after a quiet spell
		// shows on the very next frame) and starts ticking from there.
		if !c.asked.Load() && (tick || !ticking && c.ui.untilNextFrame() == 0) && c.ui.frameDue() {
			// Drawn by the screen's event poller (see PollEvent), one
			// request at a time.
			c.asked.Store(true)
			if c.screen.PostEvent(tcell.NewEventInterrupt(drawRequest{})) != nil {
				c.asked.Store(false)
			}
			if !tick {
				ticker.Reset(FrameInterval)
				ticking = true
			}
		}
		if want := c.ui.NeedsFrame() || c.asked.Load(); want != ticking {
			if want {
				ticker.Reset(FrameInterval)
			} else {
				ticker.Stop()
			}
			ticking = want
		}
	}
}
