package tui

import (
	"errors"
	"fmt"
	"sync"
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
	app.SetScreen(initialised{screen})
	app.EnableMouse(true)
	app.SetRoot(u, true)
	if opts.Title != "" {
		app.SetTitle(opts.Title)
	}

	c := &frameClock{ui: u, app: app, session: s, stop: make(chan struct{})}
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
type initialised struct{ tcell.Screen }

// Init does nothing: the screen is initialised.
func (initialised) Init() error { return nil }

// EnableMouse asks the terminal for clicks and drags only, not for every
// motion of the pointer, which would cost an SSH player bytes for nothing.
func (s initialised) EnableMouse(...tcell.MouseFlags) {
	s.Screen.EnableMouse(tcell.MouseButtonEvents | tcell.MouseDragEvents)
}

// Clear does nothing. tview clears the screen before every frame, which
// would make tcell send every non-blank cell again; the UI paints every
// cell of every frame itself, so no clear is needed.
func (initialised) Clear() {}

// frameClock paces the frames of a running UI: it wakes when the UI is
// dirty or the session changed, and draws at most one fresh frame per
// FrameInterval, going on while what is drawn changes with time. It also
// stops the application when the player quits or the session has ended.
type frameClock struct {
	ui      *UI
	app     *tview.Application
	session client.Session
	stop    chan struct{}
	once    sync.Once
	wg      sync.WaitGroup

	// Set by run before it returns; read after halt.
	panicked    any
	sessionOver bool
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

	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	armed := false
	arm := func(d time.Duration) {
		if !armed {
			timer.Reset(d)
			armed = true
		}
	}
	var leave <-chan time.Time
	done := c.session.Done()
	for {
		select {
		case <-c.stop:
			return
		case <-c.ui.Quit():
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
			arm(c.ui.untilNextFrame())
		case <-timer.C:
			armed = false
			if c.ui.frameDue() {
				c.app.ForceDraw() // serialised with tview's own drawing
			}
			if c.ui.NeedsFrame() {
				arm(c.ui.untilNextFrame())
			}
		}
	}
}
