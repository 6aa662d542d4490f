package tui

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"
)

// Cast records what a screen shows as an asciicast v2 file, asciinema's:
// a header line (the version, the terminal's size, when it started, a
// title), then one line per frame shown, [seconds, "o", text], the text
// the cells that changed since the frame before, with their colours, as
// a terminal takes them; a resize is an "r" event and the whole screen
// again. It is the screen itself for what draws on it (a tcell.Screen
// around the real one): Show and Sync record, everything else passes
// through. It stops recording past Max bytes (saying so in Err). One
// goroutine draws on it, as on any screen.
type Cast struct {
	tcell.Screen
	out   *bufio.Writer
	title string
	now   func() time.Time
	start time.Time
	max   int64
	size  int64

	w, h    int
	shown   []castCell // the cells of the last frame recorded
	started bool
	full    bool
	err     error
}

type castCell struct {
	str   string
	style tcell.Style
}

// NewCast returns screen recording into out, titled title, on the clock
// now; max bounds the file (0: 64 MiB).
func NewCast(screen tcell.Screen, out io.Writer, title string, now func() time.Time, max int64) *Cast {
	if max <= 0 {
		max = 64 << 20
	}
	return &Cast{Screen: screen, out: bufio.NewWriter(out), title: title, now: now, max: max}
}

// Show shows the frame, then records it.
func (c *Cast) Show() {
	c.Screen.Show()
	c.record()
}

// Sync repaints the terminal, then records the frame.
func (c *Cast) Sync() {
	c.Screen.Sync()
	c.record()
}

// EventQ is the event queue of the screen the Cast records, which the
// screen's loop reads (a screen of tcell's has one); nil, never an
// event, for a screen without one.
func (c *Cast) EventQ() chan tcell.Event {
	if q, ok := c.Screen.(eventQueue); ok {
		return q.EventQ()
	}
	return nil
}

// StopQ is closed when the screen the Cast records stops (see EventQ);
// closed at once for a screen without an event queue, which a loop
// cannot run on.
func (c *Cast) StopQ() <-chan struct{} {
	if q, ok := c.Screen.(eventQueue); ok {
		return q.StopQ()
	}
	stopped := make(chan struct{})
	close(stopped)
	return stopped
}

// Err returns why the recording stopped early, nil if it did not.
func (c *Cast) Err() error { return c.err }

// Close writes what is buffered.
func (c *Cast) Close() error {
	if err := c.out.Flush(); c.err == nil {
		c.err = err
	}
	if c.full {
		return nil // said by Err, but the file is whole
	}
	return c.err
}

// record writes the frame on the screen as an event: the header first,
// the whole screen after a resize, else the cells that changed.
func (c *Cast) record() {
	if c.full || c.err != nil {
		return
	}
	w, h := c.Screen.Size()
	var b strings.Builder
	if !c.started {
		c.start = c.now()
		head, _ := json.Marshal(struct {
			Version   int               `json:"version"`
			Width     int               `json:"width"`
			Height    int               `json:"height"`
			Timestamp int64             `json:"timestamp"`
			Title     string            `json:"title,omitempty"`
			Env       map[string]string `json:"env"`
		}{2, w, h, c.start.Unix(), c.title, map[string]string{"TERM": "xterm-256color"}})
		c.write(string(head) + "\n")
		c.started = true
		b.WriteString("\x1b[?25l") // no cursor
	}
	if w != c.w || h != c.h {
		if c.w != 0 {
			c.event("r", fmt.Sprintf("%dx%d", w, h))
		}
		c.w, c.h = w, h
		c.shown = make([]castCell, w*h)
		for i := range c.shown {
			c.shown[i].str = "\x00" // nothing drawn: every cell differs
		}
		b.WriteString("\x1b[0m\x1b[2J")
	}
	var style tcell.Style
	styled := false
	cx, cy := -1, -1
	for y := range h {
		for x := range w {
			str, st, width := c.Screen.Get(x, y)
			if str == "" {
				str = " "
			}
			i := y*w + x
			if c.shown[i] == (castCell{str, st}) {
				continue
			}
			c.shown[i] = castCell{str, st}
			if cx != x || cy != y {
				fmt.Fprintf(&b, "\x1b[%d;%dH", y+1, x+1)
			}
			if !styled || st != style {
				b.WriteString(sgr(st))
				style, styled = st, true
			}
			b.WriteString(str)
			cx, cy = x+max(width, 1), y
		}
	}
	if b.Len() > 0 {
		c.event("o", b.String())
	}
}

// event writes one event, at the time since the start.
func (c *Cast) event(kind, data string) {
	text, _ := json.Marshal(data)
	c.write(fmt.Sprintf("[%.6f, %q, %s]\n", c.now().Sub(c.start).Seconds(), kind, text))
}

// write writes a line, unless it would take the file past its bound.
func (c *Cast) write(line string) {
	if c.size+int64(len(line)) > c.max {
		c.full = true
		c.err = fmt.Errorf("tui: the cast stopped at its size limit (%d bytes)", c.max)
		return
	}
	c.size += int64(len(line))
	if _, err := c.out.WriteString(line); err != nil {
		c.err = err
	}
}

// sgr is the escape sequence that sets a style: attributes, then the
// colours in 24 bits.
func sgr(st tcell.Style) string {
	fg, bg, attrs := st.Decompose()
	s := "\x1b[0"
	for _, a := range []struct {
		mask tcell.AttrMask
		code string
	}{{tcell.AttrBold, "1"}, {tcell.AttrDim, "2"}, {tcell.AttrItalic, "3"}, {tcell.AttrUnderline, "4"},
		{tcell.AttrBlink, "5"}, {tcell.AttrReverse, "7"}, {tcell.AttrStrikeThrough, "9"}} {
		if attrs&a.mask != 0 {
			s += ";" + a.code
		}
	}
	if fg != tcell.ColorDefault && fg.Valid() {
		r, g, b := fg.RGB()
		s += fmt.Sprintf(";38;2;%d;%d;%d", r, g, b)
	}
	if bg != tcell.ColorDefault && bg.Valid() {
		r, g, b := bg.RGB()
		s += fmt.Sprintf(";48;2;%d;%d;%d", r, g, b)
	}
	return s + "m"
}
