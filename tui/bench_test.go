package tui_test

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/lab/sim"
	"gridlag/server/world"
	"gridlag/tui"
)

// countingTty is a terminal that counts the bytes written to it: what an
// SSH player would pay for. Reads block until the screen stops.
type countingTty struct {
	w, h    int
	written atomic.Int64
	mu      sync.Mutex
	drained chan struct{}
}

func newCountingTty(w, h int) *countingTty {
	return &countingTty{w: w, h: h, drained: make(chan struct{})}
}

func (t *countingTty) Start() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	select {
	case <-t.drained:
		t.drained = make(chan struct{})
	default:
	}
	return nil
}

func (t *countingTty) Drain() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	select {
	case <-t.drained:
	default:
		close(t.drained)
	}
	return nil
}

func (t *countingTty) Stop() error         { return nil }
func (t *countingTty) Close() error        { return t.Drain() }
func (t *countingTty) NotifyResize(func()) {}
func (t *countingTty) WindowSize() (tcell.WindowSize, error) {
	return tcell.WindowSize{Width: t.w, Height: t.h}, nil
}

func (t *countingTty) Read(p []byte) (int, error) {
	t.mu.Lock()
	ch := t.drained
	t.mu.Unlock()
	<-ch
	return 0, io.EOF
}

func (t *countingTty) Write(p []byte) (int, error) {
	t.written.Add(int64(len(p)))
	return len(p), nil
}

// terminal is a real terminfo tcell screen (xterm-256color, 120x40) on a
// counting tty, with alice and bob in a simulated world and the UI drawn
// once.
type terminal struct {
	tty   *countingTty
	scr   tcell.Screen
	world *sim.World
	me    *sim.Client
	bob   *sim.Client
	ui    *tui.UI
}

func newTerminal(tb testing.TB) *terminal {
	tb.Setenv("TERM", "xterm-256color")
	tb.Setenv("LANG", "en_US.UTF-8")
	tb.Setenv("COLORTERM", "")
	tty := newCountingTty(120, 40)
	scr, err := tcell.NewTerminfoScreenFromTty(tty)
	if err != nil {
		tb.Fatal(err)
	}
	if err := scr.Init(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(scr.Fini)
	w := sim.New(world.Config{Rate: 20})
	me := w.Join("alice", client.Options{Latency: 100 * time.Millisecond})
	bob := w.Join("bob", client.Options{})
	w.Advance(2 * time.Second)
	u := tui.New(scr, me, tui.Options{Title: "gridlag — bench"})
	u.Frame()
	return &terminal{tty: tty, scr: scr, world: w, me: me, bob: bob, ui: u}
}

// frameBytes draws one frame and returns the bytes it sent.
func (t *terminal) frameBytes() int64 {
	before := t.tty.written.Load()
	t.ui.Frame()
	return t.tty.written.Load() - before
}

// moveBob moves bob one cell (back and forth) and lets the move reach
// alice's screen state; it returns bob's new cell as alice sees it.
func (t *terminal) moveBob(i int) grid.Pos {
	d := grid.Right
	if i%2 == 1 {
		d = grid.Left
	}
	t.bob.Press(d)
	t.world.Advance(500 * time.Millisecond)
	return t.me.View().Others[0].Pos
}

// A frame where one other player moved one cell costs the SSH player a few
// dozen bytes, not a screenful.
func TestOneCellMoveBytes(t *testing.T) {
	term := newTerminal(t)
	term.frameBytes()
	if n := term.frameBytes(); n > 40 {
		t.Errorf("a frame where nothing changed sent %d bytes", n)
	}
	for i := 0; i < 6; i++ {
		before := term.me.View().Others[0].Pos
		after := term.moveBob(i)
		if after == before {
			t.Fatalf("bob did not move at step %d", i)
		}
		n := term.frameBytes()
		x, y, _ := term.ui.BoardCell(after)
		if s, _, _ := term.scr.Get(x, y); s != "b" {
			t.Fatalf("bob not drawn at %v after his move (%q)", after, s)
		}
		if n >= 300 {
			t.Fatalf("one-cell move frame sent %d bytes, want under 300", n)
		}
		t.Logf("one-cell move frame: %d bytes", n)
	}
}

// BenchmarkOneCellMoveFrame reports the bytes sent to the terminal for a
// frame where one other player moved one cell.
func BenchmarkOneCellMoveFrame(b *testing.B) {
	term := newTerminal(b)
	var total int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		term.moveBob(i)
		b.StartTimer()
		total += term.frameBytes()
	}
	b.ReportMetric(float64(total)/float64(b.N), "bytes/frame")
}

// BenchmarkKeyToFrame measures the time from a key event to the end of the
// frame that shows the predicted move, on the terminfo screen.
func BenchmarkKeyToFrame(b *testing.B) {
	term := newTerminal(b)
	keys := []*tcell.EventKey{
		tcell.NewEventKey(tcell.KeyRight, 0, tcell.ModNone),
		tcell.NewEventKey(tcell.KeyLeft, 0, tcell.ModNone),
	}
	want := []grid.Pos{{X: 11, Y: 10}, {X: 10, Y: 10}}
	var total int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		term.world.Advance(150 * time.Millisecond) // under the speed limit
		before := term.tty.written.Load()
		b.StartTimer()
		term.ui.HandleKey(keys[i%2])
		term.ui.Frame()
		b.StopTimer()
		total += term.tty.written.Load() - before
		if i < 2 {
			if p := term.me.View().Predicted; p != want[i%2] {
				b.Fatalf("after key %d the avatar is at %v, want %v", i, p, want[i%2])
			}
			x, y, _ := term.ui.BoardCell(want[i%2])
			if s, _, _ := term.scr.Get(x, y); s != "@" {
				b.Fatalf("frame after key %d does not show @ at %v", i, want[i%2])
			}
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(total)/float64(b.N), "bytes/frame")
}

// BenchmarkUnchangedFrame measures a frame that would change nothing on
// screen (a server state that moves no one): it is drawn off screen,
// compared with the last one shown, and sends nothing.
func BenchmarkUnchangedFrame(b *testing.B) {
	term := newTerminal(b)
	term.frameBytes()
	var total int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		total += term.frameBytes()
	}
	if total != 0 {
		b.Fatalf("unchanged frames sent %d bytes", total)
	}
}

// BenchmarkInstrumentFrame measures the client's frame on a terminal
// (xterm-256color, 80x24, bytes counted) with 50 bots walking in a 20 Hz
// world, with the instruments closed, the net graph open and the
// waterfall open: ns a frame, and the share of a core at 60 frames a
// second, the most the interface draws (it draws that many while others
// move), and at 20, one a State.
func BenchmarkInstrumentFrame(b *testing.B) {
	for _, open := range []struct {
		name string
		key  rune
	}{{"closed", 0}, {"netgraph", 'g'}, {"waterfall", 't'}} {
		b.Run(open.name, func(b *testing.B) {
			term := newTerminal(b)
			term.scr.SetSize(80, 24)
			var bots []*sim.Client
			for i := range 50 {
				bots = append(bots, term.world.Join(fmt.Sprintf("bot-%d", i+1), client.Options{Bot: true}))
			}
			if open.key != 0 {
				term.ui.HandleKey(tcell.NewEventKey(tcell.KeyRune, open.key, tcell.ModNone))
			}
			dirs := []grid.Dir{grid.Up, grid.Right, grid.Down, grid.Left}
			step := func(i int) {
				for j, bot := range bots {
					if (i+j)%4 == 0 {
						bot.Press(dirs[(i/4+j)%4])
					}
				}
				if i%6 == 0 {
					term.me.Press(dirs[(i/6)%4])
				}
				term.world.Advance(time.Second / 60)
			}
			for i := range 120 { // two seconds of play first
				step(i)
				term.ui.Frame()
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				step(i)
				b.StartTimer()
				term.ui.Frame()
			}
			b.StopTimer()
			if n := len(term.me.View().Others); n < 40 {
				b.Fatalf("alice sees %d others, want the 50 bots and bob mostly", n)
			}
			perFrame := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
			b.ReportMetric(perFrame*60/1e9*100, "%core@60fps")
			b.ReportMetric(perFrame*20/1e9*100, "%core@20fps")
		})
	}
}
