package remote

import (
	"fmt"
	"sync"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/gdamore/tcell/v2/terminfo"
)

// finiGrace is how long a session's screen waits for tcell to let go of
// the terminal (Fini) before the session goes on ending without it.
const finiGrace = 5 * time.Second

// newScreen returns the screen of a remote session: tcell's, on tty with
// the terminal description ti, not yet initialised, whose input the tty
// scans itself (see Tty) and whose Fini lets go of the terminal in
// bounded time (see screen.Fini). Its lines go to log.
func newScreen(tty *Tty, ti *terminfo.Terminfo, log *SessionLog) (tcell.Screen, error) {
	s, err := tcell.NewTerminfoScreenFromTtyTerminfo(tty, ti)
	if err != nil {
		return nil, err
	}
	q, ok := s.(eventQueue)
	if !ok {
		return nil, fmt.Errorf("remote: tcell's screen (%T) has no event queue", s)
	}
	return &screen{Screen: s, tty: tty, queue: q, log: log, grace: finiGrace}, nil
}

// eventQueue is where tcell's screen puts its events, and how it says it
// stopped (as tui reads them).
type eventQueue interface {
	EventQ() chan tcell.Event
	StopQ() <-chan struct{}
}

// screen is tcell's screen of a remote session: the tty scans its input
// into its events, and its Fini cannot hold the session.
type screen struct {
	tcell.Screen
	tty   *Tty
	queue eventQueue
	log   *SessionLog
	grace time.Duration // finiGrace
	once  sync.Once
}

// EventQ and StopQ are tcell's: the interface reads the events itself.
func (s *screen) EventQ() chan tcell.Event { return s.queue.EventQ() }
func (s *screen) StopQ() <-chan struct{}   { return s.queue.StopQ() }

// Init starts tcell's screen, then has the tty scan the client's input
// into its event queue.
func (s *screen) Init() error {
	if err := s.Screen.Init(); err != nil {
		return err
	}
	s.tty.attach(tcell.NewInputProcessor(s.queue.EventQ()))
	return nil
}

// Fini lets go of the terminal: tcell's Fini, and the end of the tty's
// scanning. Both post events with a send that blocks until the event
// queue takes them, which the interface no longer reads: while they stop,
// the events are taken and dropped (tcell's own Fini waited for ever on
// a full queue: TestTcellFiniWaitsOnAFullEventQueue). The session waits
// for them at most finiGrace (a write to a client that stopped reading
// blocks until the connection is closed, which the front end does once
// the session ended): then it goes on ending, tcell finishing on its own.
func (s *screen) Fini() {
	s.once.Do(func() {
		done := make(chan struct{})
		go func() {
			defer close(done)
			s.Screen.Fini()
			s.tty.stopScanning()
		}()
		go func() {
			events := s.queue.EventQ()
			for {
				select {
				case <-events:
				case <-done:
					// What is left goes too: a post still on its way
					// (a size's, an Escape's timer) finds room.
					for {
						select {
						case <-events:
						default:
							return
						}
					}
				}
			}
		}()
		grace := time.NewTimer(s.grace)
		defer grace.Stop()
		select {
		case <-done:
		case <-grace.C:
			s.log.Warn("terminal", "the terminal did not let go in time; the session ends without waiting for it", "waited", s.grace)
		}
	})
}
