package remote

import (
	"io"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
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
