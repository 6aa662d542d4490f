package remote

import (
	"errors"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gdamore/tcell/v2"
)

// Errors a Tty's Read returns instead of blocking.
var (
	// errDrained wakes tcell's input loop when the screen is stopping.
	errDrained = errors.New("remote: terminal input drained")
	// errSessionEnded ends input when the session is being closed.
	errSessionEnded = errors.New("remote: session ended")
)

// Tty is a tcell.Tty over one remote terminal: an SSH session channel, a
// WebSocket.
//
// Input comes from a pump goroutine (Pump) that reads the connection and
// hands chunks to Read through a channel, so that Read can also be woken by
// Drain (tcell calls it before Stop: the player pressed q and the screen
// must let go at once) and by End (the session is being closed). The
// window size comes from the client (SetWindow): an SSH session's pty-req
// and window-change requests, a page's resize messages.
type Tty struct {
	w io.Writer // the connection, toward the client

	in    chan []byte // chunks of input from Pump; closed at end of input
	inErr error       // why input ended; written before in is closed

	ended   chan struct{} // closed by End or Close: Read fails at once
	endOnce sync.Once

	shift bool // the screen is centred on a larger terminal (see centre.go)

	mu       sync.Mutex
	wake     chan struct{} // closed by Drain; a new one on Start
	woken    bool
	pending  []byte // input Read could not return yet
	win      Window // the screen's size, and its margins on the terminal
	onResize func()
	started  bool // tcell engaged the tty at least once
	closed   bool // tcell finalised the screen
	// held is a window that came while the screen was starting (before
	// its first Read), shown at that Read: see SetWindow.
	held    *Window
	reading bool // the screen's input loop has read: the screen is up

	inRest []byte // the start of a mouse report cut by a read; pump's own

	writeMu    sync.Mutex
	outRest    []byte       // the start of an escape sequence cut by a write; under writeMu
	outBuf     []byte       // what Write sends, shifted; under writeMu
	lastInput  atomic.Int64 // unix ns of the last input from the client
	writeSince atomic.Int64 // unix ns a blocked write began, 0 if none
	written    atomic.Int64 // bytes written toward the client
	inputEnded atomic.Bool  // the client's input ended (EOF or a broken channel)
}

// NewTty returns a tty writing to w, of window win (its margins applied
// if shift, for a terminal CanShift drives: see centre.go); feed its input
// with Pump and its size with SetWindow.
func NewTty(w io.Writer, win Window, shift bool) *Tty {
	if !shift {
		win.off = point{}
	}
	t := &Tty{
		w:     w,
		in:    make(chan []byte),
		ended: make(chan struct{}),
		wake:  make(chan struct{}),
		win:   win,
		shift: shift,
	}
	t.lastInput.Store(time.Now().UnixNano())
	return t
}

// Pump reads the client's input from r until it ends, handing each chunk to
// Read. It returns at the end of input or once the tty has ended.
func (t *Tty) Pump(r io.Reader) {
	defer close(t.in)
	for {
		buf := make([]byte, 256)
		n, err := r.Read(buf)
		chunk := buf[:n]
		if n > 0 && t.shift {
			t.mu.Lock()
			win := t.win
			t.mu.Unlock()
			chunk, t.inRest = shiftInput(nil, append(t.inRest, chunk...), win.off, win.size)
		}
		if n > 0 {
			t.lastInput.Store(time.Now().UnixNano())
		}
		if len(chunk) > 0 {
			select {
			case t.in <- chunk:
			case <-t.ended:
				t.inErr = errSessionEnded
				return
			}
		}
		if err != nil {
			t.inErr = err
			t.inputEnded.Store(true)
			return
		}
	}
}

// SetWindow records a new window size from the client, clamped (see
// WindowOf), and tells the screen if that changed it or its margins (a
// resize costs the screen a new buffer and a repaint, moved margins a
// repaint); it reports whether it did.
//
// A window that comes while the screen starts is held until the screen is
// up (its input loop's first Read), then shown: tcell reads the size twice
// as it starts and, when the two differ, keeps a width and cells that
// disagree until a size that differs from the first comes; a client
// changing its window back and forth at that moment had the screen draw
// for ever, a core spinning and the session never ending.
func (t *Tty) SetWindow(cols, rows int) bool {
	win := WindowOf(cols, rows)
	if !t.shift {
		win.off = point{}
	}
	t.mu.Lock()
	if !t.reading {
		changed := t.held == nil && win != t.win || t.held != nil && win != *t.held
		t.held = &win
		t.mu.Unlock()
		return changed
	}
	return t.showWindow(win)
}

// showWindow makes win the screen's window, with t.mu held (it unlocks
// it), and tells the screen; it reports whether that changed anything.
func (t *Tty) showWindow(win Window) bool {
	if win == t.win {
		t.mu.Unlock()
		return false
	}
	moved := win.off != t.win.off && t.started && !t.closed
	t.win = win
	cb := t.onResize
	t.mu.Unlock()
	if moved {
		// The screen moves on the terminal: what it showed at its old
		// place goes; tcell repaints it whole at the new one.
		t.writeMu.Lock()
		io.WriteString(t.w, "\x1b[2J")
		t.writeMu.Unlock()
	}
	if cb != nil {
		cb()
	}
	return true
}

// End makes Read fail from now on, so the screen's input loop reports an
// error event and the interface on it stops.
func (t *Tty) End() { t.endOnce.Do(func() { close(t.ended) }) }

// Start implements tcell.Tty.
func (t *Tty) Start() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return errors.New("remote: terminal closed")
	}
	if t.woken {
		t.wake = make(chan struct{})
		t.woken = false
	}
	t.started = true
	return nil
}

// Stop implements tcell.Tty. The client's terminal modes belong to the
// client; tcell has already written the sequences that restore the screen.
func (t *Tty) Stop() error {
	t.mu.Lock()
	t.reading = false // a screen that starts again holds windows again
	t.mu.Unlock()
	return nil
}

// Drain implements tcell.Tty: it wakes a Read blocked waiting for input.
func (t *Tty) Drain() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.woken {
		close(t.wake)
		t.woken = true
	}
	return nil
}

// NotifyResize implements tcell.Tty.
func (t *Tty) NotifyResize(cb func()) {
	t.mu.Lock()
	t.onResize = cb
	t.mu.Unlock()
}

// WindowSize implements tcell.Tty.
func (t *Tty) WindowSize() (tcell.WindowSize, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.win.size, nil
}

// Read implements io.Reader: the client's key presses.
func (t *Tty) Read(p []byte) (int, error) {
	t.mu.Lock()
	if !t.reading && t.started {
		t.reading = true
		if held := t.held; held != nil {
			t.held = nil
			t.showWindow(*held) // unlocks
			t.mu.Lock()
		}
	}
	if len(t.pending) > 0 {
		n := copy(p, t.pending)
		t.pending = t.pending[n:]
		t.mu.Unlock()
		return n, nil
	}
	wake := t.wake
	t.mu.Unlock()
	select {
	case <-wake:
		return 0, errDrained
	case <-t.ended:
		return 0, errSessionEnded
	case b, ok := <-t.in:
		if !ok {
			if t.inErr == nil {
				return 0, io.EOF
			}
			return 0, t.inErr
		}
		n := copy(p, b)
		if n < len(b) {
			t.mu.Lock()
			t.pending = append(t.pending, b[n:]...)
			t.mu.Unlock()
		}
		return n, nil
	}
}

// Write implements io.Writer: screen output toward the client.
func (t *Tty) Write(p []byte) (int, error) {
	t.writeMu.Lock()
	defer t.writeMu.Unlock()
	out := p
	if t.shift {
		t.mu.Lock()
		off := t.win.off
		t.mu.Unlock()
		if off != (point{}) || len(t.outRest) > 0 {
			t.outBuf, t.outRest = shiftOutput(t.outBuf[:0], append(t.outRest, p...), off)
			out = t.outBuf
		}
	}
	t.writeSince.Store(time.Now().UnixNano())
	n, err := t.w.Write(out)
	t.writeSince.Store(0)
	t.written.Add(int64(n))
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

// Close implements io.Closer. tcell calls it when the screen is
// finalised; the connection itself is closed by the session.
func (t *Tty) Close() error {
	t.mu.Lock()
	t.closed = true
	t.mu.Unlock()
	t.End()
	return nil
}

// State reports whether tcell engaged the tty and whether it finalised it.
func (t *Tty) State() (started, closed bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.started, t.closed
}

// IdleFor is how long ago the client last sent input.
func (t *Tty) IdleFor(now time.Time) time.Duration {
	return now.Sub(time.Unix(0, t.lastInput.Load()))
}

// StalledFor is how long the current write has been blocked, 0 if none.
func (t *Tty) StalledFor(now time.Time) time.Duration {
	since := t.writeSince.Load()
	if since == 0 {
		return 0
	}
	return now.Sub(time.Unix(0, since))
}

// InputEnded reports whether the client's input ended (EOF or a broken
// connection), rather than the session being ended by the server.
func (t *Tty) InputEnded() bool { return t.inputEnded.Load() }

var _ tcell.Tty = (*Tty)(nil)
