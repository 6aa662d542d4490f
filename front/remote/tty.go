package remote

import (
	"errors"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/internal/wire"
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
// Input comes from a pump goroutine (Pump) that reads the connection,
// filters it (inputFilter) and scans it into the screen's event queue
// with tcell's own input processor, which the screen attaches once it is
// up (see screen.Init); tcell's input loop, which reads the tty, gets no
// bytes from Read, only the end of the input: Read blocks until the
// client's input ends, the session is being closed (End) or tcell drains
// the tty (Drain: the player pressed q and the screen must let go at
// once). tcell's own path from Read to its events has a goroutine that
// spins for ever on one byte that is not UTF-8 and two that block for
// ever on a full channel, each holding Fini and the session with it (see
// tcell_test.go); on this one every goroutine is the session's, and the
// pump's scanning stops with the screen. The window size comes from the
// client (SetWindow): an SSH session's pty-req and window-change
// requests, a page's resize messages.
type Tty struct {
	w io.Writer // the connection, toward the client

	inputDone chan struct{} // closed by Pump at the end of the client's input
	inErr     error         // why input ended; written before inputDone is closed

	ended   chan struct{} // closed by End or Close: Read fails at once
	endOnce sync.Once

	shift bool // the screen is centred on a larger terminal (see centre.go)

	mu       sync.Mutex
	wake     chan struct{} // closed by Drain; a new one on Start
	woken    bool
	win      Window // the screen's size, and its margins on the terminal
	onResize func()
	started  bool // tcell engaged the tty at least once
	closed   bool // tcell finalised the screen
	// held is a window that came while the screen was starting (before
	// its first Read), shown at that Read: see SetWindow.
	held    *Window
	reading bool // the screen's input loop has read: the screen is up

	// The input processor the pump scans the input into, on the
	// screen's event queue, set once by attach before attached is
	// closed, and told the screen's size (where it clips the mouse's
	// reports). scanning is held while it is used (tcell's processor is
	// not safe for concurrent use): the pump's scans, the sizes; stopped,
	// under it, says the screen let go: no more of either.
	input    tcell.InputProcessor
	attached chan struct{}
	scanning sync.Mutex
	stopped  bool

	filter inputFilter // what tcell may read of the input; pump's own
	inRest []byte      // the start of a mouse report cut by a read; pump's own

	writeMu    sync.Mutex
	outRest    []byte       // the start of an escape sequence cut by a write; under writeMu
	outBuf     []byte       // what Write sends, shifted; under writeMu
	lastInput  atomic.Int64 // unix ns of the last input from the client
	writeSince atomic.Int64 // unix ns a blocked write began, 0 if none
	written    atomic.Int64 // bytes written toward the client
	inputEnded atomic.Bool  // the client's input ended (EOF or a broken channel)

	term atomic.Pointer[wire.Term] // counts the keys and the output, if set (Count)
}

// Count counts the terminal's traffic on term from now on: the keys the
// pump reads, the output written toward the client.
func (t *Tty) Count(term *wire.Term) { t.term.Store(term) }

// NewTty returns a tty writing to w, of window win (its margins applied
// if shift, for a terminal CanShift drives: see centre.go); feed its input
// with Pump and its size with SetWindow.
func NewTty(w io.Writer, win Window, shift bool) *Tty {
	if !shift {
		win.off = point{}
	}
	t := &Tty{
		w:         w,
		inputDone: make(chan struct{}),
		ended:     make(chan struct{}),
		wake:      make(chan struct{}),
		attached:  make(chan struct{}),
		win:       win,
		shift:     shift,
	}
	t.lastInput.Store(time.Now().UnixNano())
	return t
}

// Pump reads the client's input from r until it ends, filters it (see
// inputFilter) and scans it into the screen's events once the screen is
// up. It returns at the end of input or once the tty has ended.
func (t *Tty) Pump(r io.Reader) {
	defer close(t.inputDone)
	buf := make([]byte, 256)
	for {
		n, err := r.Read(buf)
		chunk := t.filter.filter(nil, buf[:n])
		if len(chunk) > 0 && t.shift {
			t.mu.Lock()
			win := t.win
			t.mu.Unlock()
			chunk, t.inRest = shiftInput(nil, append(t.inRest, chunk...), win.off, win.size)
		}
		if n > 0 {
			t.term.Load().Keys(n)
			t.lastInput.Store(time.Now().UnixNano())
		}
		if len(chunk) > 0 && !t.scan(chunk) {
			t.inErr = errSessionEnded
			return
		}
		if err != nil {
			t.inErr = err
			t.inputEnded.Store(true)
			return
		}
	}
}

// scan scans chunk into the screen's events, once the screen is up; it
// reports false if the tty ended or the screen let go first. It blocks
// while the event queue is full: the pump reads no more of a client
// whose keys the interface has not taken yet.
func (t *Tty) scan(chunk []byte) bool {
	select {
	case <-t.attached:
	case <-t.ended:
		return false
	}
	t.scanning.Lock()
	defer t.scanning.Unlock()
	if t.stopped {
		return false
	}
	t.input.ScanUTF8(chunk)
	return true
}

// attach makes ip, tcell's input processor on the screen's event queue,
// the one the pump scans the input into, once the screen is up.
func (t *Tty) attach(ip tcell.InputProcessor) {
	t.scanning.Lock()
	t.input = ip
	t.scanning.Unlock()
	t.resizeInput()
	close(t.attached)
}

// resizeInput tells the input processor the screen's size, as tcell
// tells its own.
func (t *Tty) resizeInput() {
	t.scanning.Lock()
	defer t.scanning.Unlock()
	if t.input == nil || t.stopped {
		return
	}
	t.mu.Lock()
	size := t.win.size
	t.mu.Unlock()
	t.input.SetSize(size.Width, size.Height)
}

// stopScanning waits for a scan under way to end and makes it the last.
// The screen's events must be taken meanwhile.
func (t *Tty) stopScanning() {
	t.scanning.Lock()
	t.stopped = true
	t.scanning.Unlock()
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
	t.resizeInput()
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

// Read implements io.Reader for tcell's input loop. It returns no bytes
// (the pump scans them): it blocks until the client's input ends (its
// error), the session is being closed or tcell drains the tty.
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
	wake := t.wake
	t.mu.Unlock()
	select {
	case <-wake:
		return 0, errDrained
	case <-t.ended:
		return 0, errSessionEnded
	case <-t.inputDone:
		if t.inErr == nil {
			return 0, io.EOF
		}
		return 0, t.inErr
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
	t.term.Load().Output(out[:n])
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
