package tui_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/internal/notify"
	"gridlag/lab/sim"
	"gridlag/server/world"
	"gridlag/tui"
)

// running is Run on a simulated terminal in the background, on a
// frameClock: the test waits for the frames that show what it expects,
// as they are shown, and moves the clock by hand for what waits longer
// than a frame (the grace after a session's end).
type running struct {
	t      *testing.T
	screen *readyScreen
	clock  *frameClock
	world  *sim.World
	me     *sim.Client
	done   chan error
	panic  chan any
}

// readyScreen is a simulation screen that says when Run has initialised
// it, and keeps a copy of the text of every frame shown, saying when one
// is: a simulation screen's contents may not be read while another
// goroutine draws.
type readyScreen struct {
	tcell.SimulationScreen
	ready   chan struct{}
	changed chan struct{} // receives when a frame was shown
	mu      sync.Mutex
	shown   []string
	shows   int
	mouse   []tcell.MouseFlags // what EnableMouse asked for
}

// eventQueue is the simulation screen's queue of events, which the loop
// reads.
type eventQueue interface {
	EventQ() chan tcell.Event
	StopQ() <-chan struct{}
}

func (s *readyScreen) EventQ() chan tcell.Event { return s.SimulationScreen.(eventQueue).EventQ() }

func (s *readyScreen) StopQ() <-chan struct{} { return s.SimulationScreen.(eventQueue).StopQ() }

func (s *readyScreen) EnableMouse(flags ...tcell.MouseFlags) {
	s.mu.Lock()
	s.mouse = flags
	s.mu.Unlock()
	s.SimulationScreen.EnableMouse(flags...)
}

func (s *readyScreen) Init() error {
	err := s.SimulationScreen.Init()
	s.SetSize(120, 40)
	close(s.ready)
	return err
}

func (s *readyScreen) Show() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.SimulationScreen.Show()
	s.shows++
	s.shown = rows(s.SimulationScreen)
	notify.Poke(s.changed)
}

// text returns the last frame shown.
func (s *readyScreen) text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Join(s.shown, "\n")
}

// row returns row y of the last frame shown.
func (s *readyScreen) rows() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.shown...)
}

// frameClock is a virtual clock on which every reading is a frame
// (tui.FrameInterval) later than the one before, and whose timers fire
// as soon as a reading, or the test, moves it past them: the loop never
// holds a change back for the frame rate, and the clock stands still
// while the loop waits. It is safe for concurrent use.
type frameClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []frameTimer
}

type frameTimer struct {
	at time.Time
	ch chan time.Time
}

func (c *frameClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(tui.FrameInterval)
	c.fire()
	return c.now
}

func (c *frameClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan time.Time, 1)
	c.timers = append(c.timers, frameTimer{c.now.Add(d), ch})
	c.fire()
	return ch
}

// advance moves the clock on by d.
func (c *frameClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	c.fire()
}

// fire sends on the channels whose time has come; c.mu is held.
func (c *frameClock) fire() {
	kept := c.timers[:0]
	for _, t := range c.timers {
		if t.at.After(c.now) {
			kept = append(kept, t)
			continue
		}
		t.ch <- t.at
	}
	c.timers = kept
}

func startRun(t *testing.T, s client.Session, world *sim.World, me *sim.Client, opts tui.Options) *running {
	t.Helper()
	r := startApp(t, "Run", func(scr tcell.Screen, clock tui.Clock) error {
		opts.Clock = clock
		return tui.Run(scr, s, opts)
	})
	r.world, r.me = world, me
	return r
}

// startApp runs the screen's loop run (named what) on a simulated
// terminal and the frame clock it is given, in the background, and waits
// until it has initialised the terminal.
func startApp(t *testing.T, what string, run func(scr tcell.Screen, clock tui.Clock) error) *running {
	t.Helper()
	scr := &readyScreen{SimulationScreen: tcell.NewSimulationScreen("UTF-8"), ready: make(chan struct{}), changed: make(chan struct{}, 1)}
	r := &running{t: t, screen: scr, clock: &frameClock{}, done: make(chan error, 1), panic: make(chan any, 1)}
	go func() {
		defer func() {
			if p := recover(); p != nil {
				r.panic <- p
			}
		}()
		r.done <- run(scr, r.clock)
	}()
	select {
	case <-scr.ready:
	case <-time.After(time.Minute): // a guard against a hang, not a bound
		t.Fatal(what + " did not initialise the screen")
	}
	return r
}

func newRunning(t *testing.T, opts tui.Options) *running {
	w := sim.New(world.Config{Rate: 20})
	me := w.Join("alice", client.Options{Latency: 200 * time.Millisecond})
	return startRun(t, me, w, me, opts)
}

// waitFor waits for a frame that shows s.
func (r *running) waitFor(s string) {
	r.t.Helper()
	guard := time.After(time.Minute) // a guard against a hang, not a bound
	for !strings.Contains(r.screen.text(), s) {
		select {
		case <-r.screen.changed:
		case err := <-r.done:
			r.t.Fatalf("Run returned %v; the screen never showed %q:\n%s", err, s, r.screen.text())
		case <-guard:
			r.t.Fatalf("screen never showed %q:\n%s", s, r.screen.text())
		}
	}
}

// result waits for Run to return.
func (r *running) result() error {
	r.t.Helper()
	select {
	case err := <-r.done:
		return err
	case p := <-r.panic:
		r.t.Fatalf("Run panicked: %v", p)
	case <-time.After(time.Minute): // a guard against a hang, not a bound
		r.t.Fatal("Run did not return")
	}
	return nil
}

// finalised reports whether the screen was finalised (a finalised
// simulation screen has no cells).
func (r *running) finalised() bool {
	w, h := r.screen.Size()
	return w == 0 && h == 0
}

func TestRunPlayAndQuit(t *testing.T) {
	r := newRunning(t, tui.Options{Title: "gridlag — run test"})
	r.waitFor("you (10,10)  server (10,10)")
	r.waitFor("gridlag — run test")
	r.screen.mu.Lock()
	mouse := r.screen.mouse
	r.screen.mu.Unlock()
	if len(mouse) != 1 || mouse[0] != tcell.MouseButtonEvents|tcell.MouseDragEvents {
		t.Fatalf("mouse reporting %v, want clicks and drags only (no motion: SSH bytes)", mouse)
	}
	r.screen.InjectKey(tcell.KeyRight, 0, tcell.ModNone)
	r.waitFor("you (11,10)  server (10,10)")
	r.waitFor("#1 ")
	r.world.Advance(time.Second) // the acknowledgement arrives; Changed fires
	r.waitFor("you (11,10)  server (11,10)")
	r.waitFor("last ack #1   pending 0")
	r.screen.InjectKey(tcell.KeyRune, '+', tcell.ModNone)
	r.waitFor("┤ 210ms")
	if got := r.me.View().Latency; got != 210*time.Millisecond {
		t.Fatalf("latency %v after +", got)
	}
	r.screen.InjectKey(tcell.KeyRune, 'q', tcell.ModNone)
	if err := r.result(); err != nil {
		t.Fatalf("Run after q: %v", err)
	}
	if !r.finalised() {
		t.Fatal("screen not finalised after Run returned")
	}
}

func TestRunCtrlC(t *testing.T) {
	r := newRunning(t, tui.Options{})
	r.waitFor("you (10,10)")
	r.screen.InjectKey(tcell.KeyCtrlC, 0, tcell.ModCtrl)
	if err := r.result(); err != nil {
		t.Fatalf("Run after Ctrl-C: %v", err)
	}
	if !r.finalised() {
		t.Fatal("screen not finalised after Ctrl-C")
	}
}

func TestRunMouseDragsSlider(t *testing.T) {
	r := newRunning(t, tui.Options{})
	r.waitFor("┤ 200ms")
	row := -1
	col := -1
	for y, s := range r.screen.rows() {
		if i := strings.Index(s, "├"); i >= 0 {
			row, col = y, len([]rune(s[:i]))
		}
	}
	if row < 0 {
		t.Fatal("no slider track on screen")
	}
	// Press at the left end, drag right by five columns, release; then
	// the help, whose frame comes after every event before it.
	r.screen.InjectMouse(col, row, tcell.Button1, tcell.ModNone)
	r.waitFor("┤ 0ms")
	r.screen.InjectMouse(col+5, row, tcell.Button1, tcell.ModNone)
	r.screen.InjectMouse(col+5, row, tcell.ButtonNone, tcell.ModNone)
	r.screen.InjectKey(tcell.KeyRune, '?', tcell.ModNone)
	r.waitFor("gridlag: keys")
	if got := r.me.View().Latency; got < 100*time.Millisecond {
		t.Fatalf("drag did not raise the latency: %v", got)
	}
	r.screen.InjectKey(tcell.KeyRune, 'q', tcell.ModNone)
	r.result()
}

func TestRunSessionEnds(t *testing.T) {
	r := newRunning(t, tui.Options{EndGrace: time.Minute})
	r.waitFor("you (10,10)")
	r.me.Close()
	r.waitFor("session ended")
	r.screen.InjectKey(tcell.KeyRune, 'x', tcell.ModNone) // any key leaves
	err := r.result()
	if want := r.me.View().Err; err != want {
		t.Fatalf("Run returned %v, want the session's error %v", err, want)
	}
	if !r.finalised() {
		t.Fatal("screen not finalised after the session ended")
	}
}

func TestRunSessionEndsAlone(t *testing.T) {
	r := newRunning(t, tui.Options{EndGrace: 50 * time.Millisecond})
	r.waitFor("you (10,10)")
	r.me.Close()
	r.waitFor("session ended")
	r.clock.advance(50 * time.Millisecond) // the grace is over
	r.result()
	if !r.finalised() {
		t.Fatal("screen not finalised after the session ended")
	}
}

// panicky is the real simulated client whose Press panics, to check that
// Run finalises the terminal on a panic.
type panicky struct{ *sim.Client }

func (panicky) Press(grid.Dir) { panic("boom") }

func TestRunFinalisesOnPanic(t *testing.T) {
	w := sim.New(world.Config{Rate: 20})
	me := w.Join("alice", client.Options{})
	r := startRun(t, panicky{me}, w, me, tui.Options{})
	r.waitFor("you (10,10)")
	r.screen.InjectKey(tcell.KeyRight, 0, tcell.ModNone)
	select {
	case p := <-r.panic:
		if p != "boom" {
			t.Fatalf("panic %v, want boom", p)
		}
	case err := <-r.done:
		t.Fatalf("Run returned %v instead of panicking", err)
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return")
	}
	if !r.finalised() {
		t.Fatal("screen not finalised after a panic")
	}
}

func TestRunRejectsNil(t *testing.T) {
	w := sim.New(world.Config{})
	me := w.Join("alice", client.Options{})
	if err := tui.Run(nil, me, tui.Options{}); err == nil {
		t.Fatal("Run accepted a nil screen")
	}
	if err := tui.Run(tcell.NewSimulationScreen("UTF-8"), nil, tui.Options{}); err == nil {
		t.Fatal("Run accepted a nil session")
	}
}

// TestRunStop: closing Options.Stop ends Run at once with no error.
func TestRunStop(t *testing.T) {
	stop := make(chan struct{})
	r := newRunning(t, tui.Options{Stop: stop})
	r.waitFor("you (10,10)")
	close(stop)
	if err := r.result(); err != nil {
		t.Fatalf("Run after Stop: %v", err)
	}
	if !r.finalised() {
		t.Fatal("screen not finalised")
	}
}

// bareScreen is a screen that hides its event queue, as a wrapper of a
// tcell screen that forwards only tcell.Screen's methods would.
type bareScreen struct{ tcell.Screen }

// TestRunNeedsTheScreensQueue: the loop reads the screen's own queue of
// events (tui starts no goroutine to copy it); a screen without one is
// refused with an error that says so, before the terminal is touched.
func TestRunNeedsTheScreensQueue(t *testing.T) {
	w := sim.New(world.Config{})
	me := w.Join("alice", client.Options{})
	scr := tcell.NewSimulationScreen("UTF-8")
	err := tui.Run(bareScreen{scr}, me, tui.Options{})
	if err == nil || !strings.Contains(err.Error(), "no event queue") {
		t.Fatalf("Run on a screen without an event queue: %v", err)
	}
	if w, h := scr.Size(); w != 0 || h != 0 {
		t.Fatalf("the screen was initialised (%dx%d)", w, h)
	}
}
