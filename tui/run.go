package tui

import (
	"errors"
	"fmt"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"gridlag/client"
)

// Run runs the game's interface for session s on screen, which must not be
// initialised yet (a local terminal, or one bound to an SSH channel). It
// returns when the player quits (q or Ctrl-C) or Options.Stop is closed,
// or when the session ends: the screen then says why for Options.EndGrace
// (or until a key is pressed) and Run returns the session's error. Run
// always finalises the screen before it returns, panics included (the
// panic goes on after). It does not close s. See runApp for its loop.
func Run(screen tcell.Screen, s client.Session, opts Options) error {
	if s == nil {
		return errors.New("tui: no session")
	}
	var u *UI
	over, err := runApp(screen, opts, func() app {
		u = New(screen, s, opts)
		return u
	})
	if err != nil || u == nil {
		return err
	}
	if over {
		err := s.View().Err
		u.opts.Logger.Info("tui: session ended", "err", err)
		return err
	}
	u.opts.Logger.Info("tui: player quit")
	return nil
}

// app is a screen the event loop drives: the game's UI, the lab's screen
// or the spectator's. It belongs to the loop's goroutine.
type app interface {
	// Frame draws a frame and shows it if it changed anything; it reports
	// whether it did.
	Frame() bool
	// HandleKey does what a key says.
	HandleKey(ev *tcell.EventKey)
	// HandleMouse handles one mouse action; it reports whether it was used.
	HandleMouse(action tview.MouseAction, ev *tcell.EventMouse) bool
	// QuitAsked reports whether the user asked to quit.
	QuitAsked() bool
	// resized notes that the terminal changed size.
	resized()
	// nextChange returns how soon what the last frame shows changes with
	// time alone (FrameInterval while something moves, longer for a
	// clock that shows seconds), so that the loop ticks then; 0 for never.
	nextChange() time.Duration
	// signals returns a channel that receives when what the screen shows
	// changed by itself (a message arrived) and one that is closed when it
	// is over (the connection ended); nil channels for never.
	signals() (changed, done <-chan struct{})
}

// runApp initialises screen, makes the app with build and runs the event
// loop until the user quits, Options.Stop is closed, the grace after the
// app's end is over or the terminal fails. It reports whether the app
// ended by itself, and always finalises the screen, panics included (the
// panic goes on after).
//
// It owns its event loop rather than use tview.Application: the
// application draws from its own goroutine on a real clock, clears the
// screen before every frame (making tcell send cells that did not change)
// and has no notion of a frame that would change nothing. Here the
// caller's goroutine takes terminal events (from the screen's own queue),
// the app's signals and the clock's ticks, and is the only one to touch
// the app's state and draw it; tview lays out and draws the primitives.
// The package starts no goroutine of its own.
func runApp(screen tcell.Screen, opts Options, build func() app) (over bool, err error) {
	if screen == nil {
		return false, errors.New("tui: no screen")
	}
	queue, ok := screen.(eventQueue)
	if !ok {
		return false, fmt.Errorf("tui: the screen (%T) has no event queue", screen)
	}
	if err := screen.Init(); err != nil {
		return false, fmt.Errorf("tui: cannot start the terminal: %w", err)
	}
	defer screen.Fini() // runs on every path, panics included

	// Clicks and drags only, not every motion of the pointer, which would
	// cost an SSH player bytes for nothing.
	screen.EnableMouse(tcell.MouseButtonEvents | tcell.MouseDragEvents)
	if opts.Title != "" {
		screen.SetTitle(opts.Title)
	}
	over, err = newLoop(build(), opts).run(queue.EventQ(), queue.StopQ())
	if err != nil {
		return over, fmt.Errorf("tui: %w", err)
	}
	return over, nil
}

// eventQueue is where a tcell screen puts its events (keys, the mouse,
// resizes, a failed terminal) and how it says it stopped: every screen
// tcell makes, a terminal's or a simulation, has them. The loop reads the
// queue itself, where tcell's ChannelEvents would copy it to another
// channel on a goroutine of its own.
type eventQueue interface {
	EventQ() chan tcell.Event
	StopQ() <-chan struct{}
}

// loop is the event loop of a running app. It paces the frames: a change
// (a key, a click, a message from the server) is drawn at once if the last
// frame is at least FrameInterval old, else on the next tick; while what
// is drawn changes with time alone (ledger ages, interpolated players, a
// lab's running clock) it ticks every FrameInterval. So there are at most
// 60 frames a second, and none while nothing changes.
type loop struct {
	app   app
	opts  Options // its Clock paces the frames
	mouse mouseTracker

	tick   <-chan time.Time // the next frame; nil when none is due
	tickAt time.Time        // when it is due
	last   time.Time        // when the last frame was shown
	leave  <-chan time.Time // the end of the grace after the app ended
}

// newLoop returns the loop of a; opts gives its Clock, Stop and EndGrace.
func newLoop(a app, opts Options) *loop {
	return &loop{app: a, opts: opts.withDefaults()}
}

// run draws the first frame and handles the terminal's events until the
// user quits, Options.Stop is closed, the grace after the app's end is
// over, the screen stops or the terminal fails (its input is gone: the
// error is returned). It reports whether the app ended by itself.
func (l *loop) run(events <-chan tcell.Event, stopped <-chan struct{}) (over bool, err error) {
	changed, done := l.app.signals()
	l.changed()
	for !l.app.QuitAsked() {
		select {
		case ev, ok := <-events:
			if !ok {
				return over, nil
			}
			if e, failed := ev.(*tcell.EventError); failed {
				return over, e
			}
			l.event(ev)
		case <-changed:
			l.changed()
		case <-done:
			done = nil
			over = true
			if u, ok := l.app.(unstarted); ok && u.neverStarted() {
				return over, nil // refused: the caller says why, at once
			}
			l.leave = l.opts.Clock.After(l.opts.EndGrace)
			l.changed()
		case <-l.tick:
			l.ticked()
		case <-l.leave:
			return over, nil
		case <-stopped:
			return over, nil
		case <-l.opts.Stop:
			return over, nil
		}
		if h, ok := l.app.(handoff); ok {
			if next := h.handedOff(); next != nil {
				l.app = next
				changed, done = next.signals()
				next.resized()
				l.changed()
			}
		}
	}
	return over, nil
}

// unstarted is an app whose connection may end before it began: a
// server that refuses its handshake (full, too many from the address, a
// name taken by no variant). Then the loop leaves at once, without the
// grace an ended session's screen stays for: there is nothing to see
// but an empty board, and the front end says why (the terminal's last
// line, the SSH client's, the page's box).
type unstarted interface {
	// neverStarted reports whether the connection never got in.
	neverStarted() bool
}

// handoff is an app that hands the terminal over to another (the lobby,
// to the game in the room joined).
type handoff interface {
	// handedOff returns the app that takes over, once; nil until then.
	handedOff() app
}

// event handles one terminal event.
func (l *loop) event(ev tcell.Event) {
	switch ev := ev.(type) {
	case *tcell.EventKey:
		l.app.HandleKey(ev)
	case *tcell.EventMouse:
		for _, a := range l.mouse.actions(ev) {
			l.app.HandleMouse(a, ev)
		}
	case *tcell.EventResize:
		l.app.resized()
	default:
		return
	}
	l.changed()
}

// changed asks for a frame: at once if the last one shown is
// FrameInterval old, else when it is. A tick due later (the round's clock,
// once a second) is brought forward: a key is drawn in a frame, not when
// the clock next shows a second.
func (l *loop) changed() {
	now := l.opts.Clock.Now()
	wait := max(FrameInterval-now.Sub(l.last), 0)
	if l.tick != nil && !l.tickAt.After(now.Add(wait)) {
		return // the frame due comes soon enough
	}
	if wait > 0 {
		l.after(wait)
		return
	}
	l.tick = nil
	l.frame()
}

// after makes the next tick come in d.
func (l *loop) after(d time.Duration) {
	l.tick, l.tickAt = l.opts.Clock.After(d), l.opts.Clock.Now().Add(d)
}

// ticked draws the frame that was due.
func (l *loop) ticked() {
	l.tick = nil
	l.frame()
}

// frame draws a frame, and asks for the next one when what it shows
// changes with time (never sooner than FrameInterval). Only a frame that changed the screen counts
// for the frame rate: a message that changes nothing on screen does not
// delay the next key's frame.
func (l *loop) frame() {
	if l.app.Frame() {
		l.last = l.opts.Clock.Now()
	}
	if d := l.app.nextChange(); d > 0 {
		l.after(max(d, FrameInterval))
	}
}
