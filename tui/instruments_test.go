package tui_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/lab"
	"gridlag/lab/sim"
	"gridlag/server/world"
	"gridlag/tui"
)

// TestWaterfallAt80x24: t opens the waterfall (and asks the server for
// its stages); a press shows as "#1" with its stages' milliseconds within
// a second of its acknowledgement, the article's figures at 250 ms with
// the server answering at once, and in words under the rows; t again
// closes it and stops asking.
func TestWaterfallAt80x24(t *testing.T) {
	r := newRigOn(t, world.Config{Rate: 0}, client.Options{Latency: 250 * time.Millisecond})
	r.resize(80, 24)
	r.char('t')
	var ins client.Instruments
	r.me.Instruments(&ins)
	if !ins.Tracing {
		t.Fatal("the waterfall is open but the client does not ask for the server's stages")
	}
	r.mustShow("Waterfall", "no input yet")
	r.key(tcell.KeyRight)
	r.advance(250 * time.Millisecond) // the acknowledgement arrives
	r.advance(time.Second / 60)
	row := r.rowWith("#1 →")
	for _, want := range []string{"125", "250ms", "✓"} {
		if !strings.Contains(row, want) {
			t.Fatalf("#1's row %q lacks %q:\n%s", row, want, r.text())
		}
	}
	r.mustShow("#1 →: pressed 0", "sent 0", "arrived 125", "applied 125", "ack sent 125", "acked 250", "replayed 0", "prediction right")
	r.char('t')
	r.mustNotShow("Waterfall")
	if r.me.Instruments(&ins); ins.Tracing {
		t.Error("the waterfall is closed but the client still asks for the server's stages")
	}
}

// TestNetGraphOpensAndCloses: g opens the net graph, its rows filled as
// the seconds go by, and g closes it.
func TestNetGraphOpensAndCloses(t *testing.T) {
	r := newRig(t, client.Options{Latency: 100 * time.Millisecond})
	r.resize(80, 24)
	r.world.PingEvery(time.Second)
	r.char('g')
	for range 5 {
		r.key(tcell.KeyRight)
		r.advance(time.Second)
	}
	r.mustShow("Net graph", "round trip", "bytes in/s", "States/s", "20", "corrections", "interp delay", "pending", "by cause:", "since the start")
	if row := r.rowWith("round trip"); !strings.Contains(row, "█") || !strings.Contains(row, "100ms") {
		t.Errorf("the round trip's row %q: want a sparkline and 100ms", row)
	}
	r.char('g')
	r.mustNotShow("Net graph")
	r.mustShow("Pending inputs")
}

// TestInstrumentsCostNothingClosed: with every instrument closed, the
// client sends exactly what it sends with no interface at all (no Trace)
// and the screen's frames are those of before: an idle one sends nothing.
func TestInstrumentsCostNothingClosed(t *testing.T) {
	play := func(drawn bool) (in, out int64) {
		w := sim.New(world.Config{Rate: 20})
		me := w.Join("alice", client.Options{Latency: 100 * time.Millisecond})
		var u *tui.UI
		if drawn {
			u = tui.New(newScreen(t, 80, 24), me, tui.Options{})
		}
		for i := range 10 {
			if u != nil {
				u.HandleKey(tcell.NewEventKey(tcell.KeyRight-tcell.Key(i%2), 0, tcell.ModNone))
				u.Frame()
			} else {
				me.Press([]grid.Dir{grid.Right, grid.Left}[i%2])
			}
			w.Advance(300 * time.Millisecond)
			if u != nil {
				u.Frame()
				if u.Frame() {
					t.Errorf("step %d: a frame was shown where nothing changed", i)
				}
			}
		}
		return me.Bytes()
	}
	in1, out1 := play(false)
	in2, out2 := play(true)
	if in1 != in2 || out1 != out2 {
		t.Errorf("with the interface: %d bytes in, %d out; without: %d, %d", in2, out2, in1, out1)
	}
}

// TestBudgetFollowsTheKnobs: b opens the budget, its parts with their
// knobs; the latency slider changes the ways up and back at once.
func TestBudgetFollowsTheKnobs(t *testing.T) {
	r := newRig(t, client.Options{Latency: 200 * time.Millisecond})
	r.resize(80, 24)
	r.advance(time.Second)
	r.char('b')
	r.mustShow("Latency budget", "speed-limit wait", "one-way up", "waiting for the tick", "tick to State sent", "one-way back", "interpolation delay",
		"latency 200 ms ÷ 2", "update rate 20 Hz", "prediction hides")
	if row := r.rowWith("one-way up"); !strings.Contains(row, "100ms") {
		t.Fatalf("one-way up: %q, want 100ms", row)
	}
	r.char(']') // +50 ms
	if row := r.rowWith("one-way up"); !strings.Contains(row, "125ms") {
		t.Fatalf("after ]: one-way up %q, want 125ms", row)
	}
	r.char('i') // interpolation off: others as they come
	if row := r.rowWith("interpolation delay"); !strings.Contains(row, " 0ms") {
		t.Errorf("interpolation off: %q", row)
	}
	r.char('b')
	r.mustNotShow("Latency budget")
}

// TestCorrectionDrawnAndSmoothed: a correction is drawn on the board
// from where prediction had the avatar (×) along the way the server's
// word moved it; with smoothing on (m) the avatar slides there over one
// move time instead of snapping.
func TestCorrectionDrawnAndSmoothed(t *testing.T) {
	for _, smooth := range []bool{false, true} {
		r := newRigOn(t, world.Config{Rate: 20, Spawns: []grid.Pos{{X: 12, Y: 10}}}, client.Options{Latency: 300 * time.Millisecond})
		if smooth {
			r.char('m')
			r.mustShow("[x] smoothing")
		}
		bob := r.world.Join("bob", client.Options{})
		_ = bob
		r.key(tcell.KeyRight) // (11,10)
		r.advance(100 * time.Millisecond)
		r.key(tcell.KeyRight) // (12,10): bob is there, the server keeps alice at (11,10)
		var corr *client.Correction
		for range 100 {
			r.advance(10 * time.Millisecond)
			if c := r.me.View().LastCorrection; c != nil {
				corr = c
				break
			}
		}
		if corr == nil || corr.Cause != client.CauseBlocked {
			t.Fatalf("smooth %v: correction %+v, want one, blocked by bob", smooth, corr)
		}
		if s, _ := r.cell(corr.From); !smooth && s != "×" && s != "b" {
			t.Errorf("the correction %+v's mark at %v is %q:\n%s", corr, corr.From, s, r.text())
		}
		if smooth {
			if !r.avatarAt(corr.From) {
				t.Errorf("smoothing: the avatar is not drawn where prediction had it, at once")
			}
			r.advance(60 * time.Millisecond)
		}
		if !r.avatarAt(corr.To) {
			t.Errorf("smooth %v: the avatar is not at %v (the server's word) after half a move time", smooth, corr.To)
		}
	}
}

// TestLabInstruments: in the lab, at every size its layouts take
// (160x45, 100x30, 80x24), t g b open each player's waterfall, net graph
// and budget (Player 1's press seen by Player 2, and back), side by side
// or one over the other, with the caption still under them; the lab's
// own keys beside them (Player 2's round trip y u i o, h) do what they
// did; m turns smoothing on for both.
func TestLabInstruments(t *testing.T) {
	for _, size := range [][2]int{{160, 45}, {100, 30}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			r := newLabRig(t, lab.Default(), size[0], size[1])
			r.key(tcell.KeyRune, 't')
			r.mustShow("Player 1: waterfall", "Player 2: waterfall", "n pauses and steps")
			r.key(tcell.KeyRight, 0)
			r.pass(2 * time.Second)
			r.mustShow("#1 →")
			r.key(tcell.KeyRune, 'g')
			r.mustShow("Player 1: net graph", "Player 2: net graph", "round trip")
			r.key(tcell.KeyRune, 'b')
			r.mustShow("from Player 1's press to Player 2 seeing it", "from Player 2's press to Player 1 seeing it", "Player 2's latency")
			r.key(tcell.KeyRune, 'o')
			r.key(tcell.KeyRune, 'y')
			r.mustShow("Player 2's latency 190 ms ÷ 2")
			r.key(tcell.KeyRune, 'h')
			r.mustShow("pings hidden", "from Player 1's press")
			r.key(tcell.KeyRune, 'b')
			r.mustNotShow("budget")
			r.key(tcell.KeyRune, 'm')
			r.mustShow("smoothing")
		})
	}
}

// TestCorrectionTrail: a correction of several cells is drawn from where
// prediction had the avatar (×) with an arrow on each cell the server's
// word moved it across, for a moment.
func TestCorrectionTrail(t *testing.T) {
	scr := newScreen(t, 80, 24)
	v := client.View{Map: grid.DefaultMap(), HasState: true, Predicted: grid.Pos{X: 10, Y: 10}, Server: grid.Pos{X: 10, Y: 10},
		Now: 100 * time.Millisecond, LastCorrection: &client.Correction{At: 50 * time.Millisecond, From: grid.Pos{X: 13, Y: 11}, To: grid.Pos{X: 10, Y: 10}}}
	b := tui.NewBoard(func() *client.View { return &v })
	b.SetRect(0, 0, 40, 22)
	b.Draw(scr)
	at := func(p grid.Pos) string {
		x, y, _ := b.Cell(p)
		s, _, _ := scr.Get(x, y)
		return s
	}
	for p, want := range map[grid.Pos]string{{X: 13, Y: 11}: "×", {X: 12, Y: 11}: "←", {X: 11, Y: 11}: "←", {X: 10, Y: 11}: "↑"} {
		if got := at(p); got != want {
			t.Errorf("%v shows %q, want %q", p, got, want)
		}
	}
	v.Now = 2 * time.Second
	scr.Clear()
	b.Draw(scr)
	if got := at(grid.Pos{X: 12, Y: 11}); got == "←" {
		t.Error("the trail is still drawn a second later")
	}
}
