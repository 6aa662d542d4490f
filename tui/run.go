package tui

import (
	"errors"
	"fmt"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
)

// Run runs the interface for session s on screen, which must not be
// initialised yet (a local terminal, or one bound to an SSH channel). It
// returns when the player quits (q or Ctrl-C) or Options.Stop is closed,
// or when the session ends: the screen then says why for Options.EndGrace
// (or until a key is pressed) and Run returns the session's error. Run
// always finalises the screen before it returns, panics included (the
// panic goes on after). It does not close s.
//
// Run owns its event loop rather than use tview.Application: the
// application draws from its own goroutine on a real clock, clears the
// screen before every frame (making tcell send cells that did not change)
// and has no notion of a frame that would change nothing. Here one
// goroutine takes terminal events, the session's signals and the clock's
// ticks, and is the only one to touch the interface's state and draw it;
// tview lays out and draws the primitives.
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

	// Clicks and drags only, not every motion of the pointer, which would
	// cost an SSH player bytes for nothing.
	screen.EnableMouse(tcell.MouseButtonEvents | tcell.MouseDragEvents)
	if opts.Title != "" {
		screen.SetTitle(opts.Title)
	}
	events := make(chan tcell.Event, 16)
	stop := make(chan struct{})
	defer close(stop)
	go screen.ChannelEvents(events, stop)

	u := New(screen, s, opts)
	clock := opts.Clock
	if clock == nil {
		clock = realClock{}
	}
	over, err := newLoop(u, clock).run(events)
	if err != nil {
		return fmt.Errorf("tui: %w", err)
	}
	if over {
		err := s.View().Err
		u.opts.Logger.Info("tui: session ended", "err", err)
		return err
	}
	u.opts.Logger.Info("tui: player quit")
	return nil
}

// loop is the event loop of a running UI. It paces the frames: a change
// (a key, a click, a message from the server) is drawn at once if the last
// frame is at least FrameInterval old, else on the next tick; while what
// is drawn changes with time alone (ledger ages, interpolated players) it
// ticks every FrameInterval. So there are at most 60 frames a second, and
// none while nothing changes.
type loop struct {
	ui    *UI
	clock Clock
	mouse mouseTracker

	tick  <-chan time.Time // the next frame; nil when none is due
	last  time.Time        // when the last frame was shown
	leave <-chan time.Time // the end of the grace after the session ended
}

// newLoop returns the loop of u on clock.
func newLoop(u *UI, clock Clock) *loop {
	return &loop{ui: u, clock: clock}
}

// run draws the first frame and handles events until the player quits,
// Options.Stop is closed, the grace after the session's end is over or
// the terminal fails (its input is gone: the error is returned). It
// reports whether the session ended.
func (l *loop) run(events <-chan tcell.Event) (over bool, err error) {
	s := l.ui.session
	done := s.Done()
	l.changed()
	for !l.ui.quit {
		select {
		case ev, ok := <-events:
			if !ok { // the screen stopped
				return over, nil
			}
			if e, failed := ev.(*tcell.EventError); failed {
				return over, e
			}
			l.event(ev)
		case <-s.Changed():
			l.changed()
		case <-done:
			done = nil
			over = true
			l.leave = l.clock.After(l.ui.opts.EndGrace)
			l.changed()
		case <-l.tick:
			l.ticked()
		case <-l.leave:
			return over, nil
		case <-l.ui.opts.Stop:
			return over, nil
		}
	}
	return over, nil
}

// event handles one terminal event.
func (l *loop) event(ev tcell.Event) {
	switch ev := ev.(type) {
	case *tcell.EventKey:
		l.ui.HandleKey(ev)
	case *tcell.EventMouse:
		for _, a := range l.mouse.actions(ev) {
			l.ui.HandleMouse(a, ev)
		}
	case *tcell.EventResize:
		l.ui.resized()
	default:
		return
	}
	l.changed()
}

// changed asks for a frame: at once if the last one shown is
// FrameInterval old, else at the next tick.
func (l *loop) changed() {
	if l.tick != nil {
		return
	}
	if wait := FrameInterval - l.clock.Now().Sub(l.last); wait > 0 {
		l.tick = l.clock.After(wait)
		return
	}
	l.frame()
}

// ticked draws the frame that was due.
func (l *loop) ticked() {
	l.tick = nil
	l.frame()
}

// frame draws a frame, and asks for the next one in FrameInterval if what
// it shows changes with time. Only a frame that changed the screen counts
// for the frame rate: a message that changes nothing on screen does not
// delay the next key's frame.
func (l *loop) frame() {
	if l.ui.Frame() {
		l.last = l.clock.Now()
	}
	if l.ui.animating() {
		l.tick = l.clock.After(FrameInterval)
	}
}
