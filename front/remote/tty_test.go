package remote

import (
	"bytes"
	"io"
	"runtime"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/server/admit/admittest"
)

// startHook is a remote Tty whose client changes its window just as the
// screen starts it (between tcell's two reads of the size).
type startHook struct {
	*Tty
	atStart func()
}

func (h startHook) Start() error {
	h.atStart()
	return h.Tty.Start()
}

// TestWindowChangedWhileTheScreenStarts: a client that shrinks its window
// while the screen starts and widens it back at once (a window-change
// flood) left tcell with a width of the first size and cells of the
// second: the first frame drew for ever, a core spinning, the session's
// lock never given back (the soak's window-change flood hung a session
// this way). The window that came while the screen started is shown once
// the screen is up, and the screen draws and stops.
func TestWindowChangedWhileTheScreenStarts(t *testing.T) {
	ti, _, err := LookupTerm("xterm-256color")
	if err != nil {
		t.Fatal(err)
	}
	tty := NewTty(io.Discard, WindowOf(100, 30), false)
	hooked := startHook{Tty: tty, atStart: func() { tty.SetWindow(80, 24) }}
	screen, err := tcell.NewTerminfoScreenFromTtyTerminfo(hooked, ti)
	if err != nil {
		t.Fatal(err)
	}
	if err := screen.Init(); err != nil {
		t.Fatal(err)
	}
	tty.SetWindow(100, 30) // and back
	screen.SetContent(0, 0, 'x', nil, tcell.StyleDefault)
	shown := make(chan struct{})
	go func() {
		screen.Show()
		close(shown)
	}()
	select {
	case <-shown:
	case <-time.After(30 * time.Second): // a hang guard, not a speed
		t.Fatal("the screen's first frame never ends: its width and its cells disagree")
	}
	if w, h := screen.Size(); w != 100 || h != 30 {
		t.Fatalf("the screen is %dx%d; the window is 100x30", w, h)
	}
	screen.Fini()
}

// TestWindowHeldUntilTheScreenIsUp: while the screen starts, WindowSize
// keeps the size it had; the last window that came meanwhile is shown at
// the screen's first read, with its resize told.
func TestWindowHeldUntilTheScreenIsUp(t *testing.T) {
	tty := NewTty(io.Discard, WindowOf(100, 30), false)
	resized := 0
	tty.NotifyResize(func() { resized++ })
	if !tty.SetWindow(80, 24) {
		t.Fatal("a new window is not a change")
	}
	tty.SetWindow(90, 25)
	if ws, _ := tty.WindowSize(); ws.Width != 100 || ws.Height != 30 || resized != 0 {
		t.Fatalf("before the screen is up: %dx%d, %d resizes; want 100x30, none", ws.Width, ws.Height, resized)
	}
	if err := tty.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Drain() // the Read returns at once
	tty.Read(make([]byte, 8))
	if ws, _ := tty.WindowSize(); ws.Width != 90 || ws.Height != 25 || resized != 1 {
		t.Fatalf("once up: %dx%d, %d resizes; want 90x25, one", ws.Width, ws.Height, resized)
	}
	tty.SetWindow(80, 24)
	if ws, _ := tty.WindowSize(); ws.Width != 80 || resized != 2 {
		t.Fatalf("then: %d wide, %d resizes; want 80, two", ws.Width, resized)
	}
}

// TestScreenFiniTakesTheInputOnItsWay: keys still on their way when the
// interface stops reading them (a paste after q) no longer keep tcell's
// Fini waiting (TestTcellFiniWaitsOnAFullEventQueue): the session's screen
// takes them while tcell stops, and every goroutine of the screen ends.
func TestScreenFiniTakesTheInputOnItsWay(t *testing.T) {
	baseline := runtime.NumGoroutine()
	ti, _, err := LookupTerm("xterm-256color")
	if err != nil {
		t.Fatal(err)
	}
	tty := NewTty(io.Discard, WindowOf(80, 24), false)
	pr, pw := io.Pipe()
	go tty.Pump(pr)
	screen, err := newScreen(tty, ti, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := screen.Init(); err != nil {
		t.Fatal(err)
	}
	written := make(chan struct{})
	go func() {
		defer close(written)
		pw.Write(bytes.Repeat([]byte("j"), 2000)) // the screen takes its first 256 keys
	}()
	for len(screen.(eventQueue).EventQ()) < 200 {
		time.Sleep(time.Millisecond)
	}
	finished := make(chan struct{})
	go func() {
		screen.Fini()
		close(finished)
	}()
	select {
	case <-finished:
	case <-time.After(time.Minute): // a hang guard
		t.Fatal("Fini did not return with input on its way")
	}
	pr.Close() // the connection closes
	<-written
	admittest.Settle(t, baseline, nil)
}

// stallingWriter is a client that stops reading once stall is closed: a
// write then blocks until the connection is closed.
type stallingWriter struct{ stall, closed chan struct{} }

func (w stallingWriter) Write(p []byte) (int, error) {
	select {
	case <-w.stall:
	default:
		return len(p), nil
	}
	<-w.closed
	return 0, io.ErrClosedPipe
}

// TestScreenFiniIsBounded: tcell's Fini writes to the terminal, which
// blocks while the client reads nothing; the session's screen waits for it
// at most its grace, then the session ends, and tcell finishes once the
// connection is closed under it.
func TestScreenFiniIsBounded(t *testing.T) {
	baseline := runtime.NumGoroutine()
	ti, _, err := LookupTerm("xterm-256color")
	if err != nil {
		t.Fatal(err)
	}
	conn := stallingWriter{stall: make(chan struct{}), closed: make(chan struct{})}
	tty := NewTty(conn, WindowOf(80, 24), false)
	s, err := newScreen(tty, ti, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.(*screen).grace = 50 * time.Millisecond
	if err := s.Init(); err != nil {
		t.Fatal(err)
	}
	close(conn.stall)
	finished := make(chan struct{})
	go func() {
		s.Fini()
		close(finished)
	}()
	select {
	case <-finished:
	case <-time.After(time.Minute): // a hang guard
		t.Fatal("Fini did not return while the client read nothing")
	}
	close(conn.closed) // the front end closes the connection
	admittest.Settle(t, baseline, nil)
}
