package tui_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/tui"
)

var (
	spawn = grid.Pos{X: 10, Y: 10}
	right = grid.Pos{X: 11, Y: 10}
)

// The article's promise: with prediction on, a key moves the avatar on the
// very next frame whatever the latency; the ledger shows the input until
// the server acknowledges it.
func TestPredictionMovesOnTheNextFrame(t *testing.T) {
	r := newRig(t, client.Options{Latency: 400 * time.Millisecond})
	if !r.avatarAt(spawn) {
		t.Fatalf("avatar not at the spawn %v:\n%s", spawn, r.text())
	}
	r.mustShow("you (10,10)  server (10,10)")
	r.mustShow("last ack #0   pending 0")

	r.key(tcell.KeyRight)
	if !r.avatarAt(right) {
		t.Fatalf("after RIGHT the avatar is not at %v on the next frame:\n%s", right, r.text())
	}
	if !r.ghostAt(spawn) {
		t.Errorf("no ghost at %v where the server still has the player", spawn)
	}
	r.mustShow("you (11,10)  server (10,10)")
	r.mustShow("last ack #0   pending 1")
	if row := r.rowWith("#1 "); !strings.Contains(row, "→") {
		t.Fatalf("ledger row for #1 missing or without its arrow: %q\n%s", row, r.text())
	}

	// 200 ms up, processed on the next 50 ms tick, 200 ms down.
	r.advance(400*time.Millisecond + 50*time.Millisecond + time.Millisecond)
	r.mustShow("you (11,10)  server (11,10)")
	r.mustShow("last ack #1   pending 0")
	if strings.Contains(r.rowWith("#1 "), "→") {
		t.Fatalf("#1 still in the ledger after its acknowledgement:\n%s", r.text())
	}
	if !r.avatarAt(right) || r.ghostAt(spawn) {
		t.Fatalf("after the acknowledgement want only the avatar at %v:\n%s", right, r.text())
	}
	r.mustShow("corrections 0")
}

// The ledger's ages grow with the client's clock.
func TestLedgerShowsAges(t *testing.T) {
	r := newRig(t, client.Options{Latency: 400 * time.Millisecond})
	r.key(tcell.KeyRight)
	r.advance(120 * time.Millisecond)
	r.char('l') // vi-style right
	row1, row2 := r.rowWith("#1 "), r.rowWith("#2 ")
	if !strings.Contains(row1, "120ms") || !strings.Contains(row2, "0ms") {
		t.Fatalf("ledger ages: #1 %q, #2 %q", row1, row2)
	}
	r.mustShow("pending 2")
	r.mustShow("you (12,10)")
}

// Without prediction nothing moves until the server answers.
func TestPredictionOffWaitsForTheServer(t *testing.T) {
	r := newRig(t, client.Options{Latency: 400 * time.Millisecond})
	r.char('p')
	if v := r.me.View(); v.Predict || v.Reconcile {
		t.Fatalf("after p: predict %v reconcile %v, want both off", v.Predict, v.Reconcile)
	}
	r.mustShow("[ ] prediction")
	r.mustShow("[ ] reconciliation")

	r.key(tcell.KeyRight)
	if !r.avatarAt(spawn) {
		t.Fatalf("with prediction off the avatar moved before the server answered:\n%s", r.text())
	}
	r.mustShow("you (10,10)  server (10,10)")
	r.advance(300 * time.Millisecond)
	if !r.avatarAt(spawn) {
		t.Fatalf("avatar moved at 300 ms with a 400 ms round trip")
	}
	r.advance(200 * time.Millisecond)
	if !r.avatarAt(right) {
		t.Fatalf("avatar did not move once the server answered:\n%s", r.text())
	}
	r.mustShow("you (11,10)  server (11,10)")
}

// The toggles call the session and show what the client enforces.
func TestToggles(t *testing.T) {
	r := newRig(t, client.Options{})
	for _, s := range []string{"[x] prediction", "[x] reconciliation", "[x] interpolation", "(p)", "(r)", "(i)"} {
		r.mustShow(s)
	}
	steps := []struct {
		key                    rune
		predict, reconc, inter bool
	}{
		{'r', true, false, true},  // reconciliation off alone
		{'r', true, true, true},   // back on
		{'p', false, false, true}, // prediction off forces reconciliation off
		{'r', true, true, true},   // reconciliation on forces prediction on
		{'i', true, true, false},
		{'I', true, true, true}, // caps lock still works
	}
	for i, s := range steps {
		r.char(s.key)
		v := r.me.View()
		if v.Predict != s.predict || v.Reconcile != s.reconc || v.Interpolate != s.inter {
			t.Fatalf("step %d (%c): got p=%v r=%v i=%v", i, s.key, v.Predict, v.Reconcile, v.Interpolate)
		}
		for name, on := range map[string]bool{"prediction": s.predict, "reconciliation": s.reconc, "interpolation": s.inter} {
			box := "[ ] "
			if on {
				box = "[x] "
			}
			r.mustShow(box + name)
		}
	}
}

// A click on a toggle's row flips it.
func TestToggleByMouse(t *testing.T) {
	r := newRig(t, client.Options{})
	row := r.rowWith("[x] interpolation")
	y := -1
	for i, s := range rows(r.screen) {
		if s == row {
			y = i
		}
	}
	x := strings.Index(row, "[x] interpolation")
	x = len([]rune(row[:x]))
	r.mouse(tview.MouseLeftDown, x+1, y, tcell.Button1)
	r.mouse(tview.MouseLeftUp, x+1, y, 0)
	r.mouse(tview.MouseLeftClick, x+1, y, 0)
	if r.me.View().Interpolate {
		t.Fatal("click on the interpolation toggle did not turn it off")
	}
	r.mustShow("[ ] interpolation")
}

// The slider's keys change the injected round trip, within 0..1000 ms.
func TestSliderKeys(t *testing.T) {
	r := newRig(t, client.Options{Latency: 400 * time.Millisecond})
	if got := r.ui.Slider().Value(); got != 400*time.Millisecond {
		t.Fatalf("slider starts at %v, want the session's 400ms", got)
	}
	r.mustShow("┤ 400ms")
	for _, s := range []struct {
		key  rune
		want time.Duration
	}{
		{'+', 410 * time.Millisecond},
		{'=', 420 * time.Millisecond},
		{'-', 410 * time.Millisecond},
		{']', 460 * time.Millisecond},
		{'[', 410 * time.Millisecond},
		{'[', 360 * time.Millisecond},
	} {
		r.char(s.key)
		if got := r.me.View().Latency; got != s.want {
			t.Fatalf("after %c latency %v, want %v", s.key, got, s.want)
		}
		r.mustShow(fmt.Sprintf("┤ %dms", s.want.Milliseconds()))
		r.mustShow(fmt.Sprintf("lag %dms", s.want.Milliseconds()))
	}
	for range 30 {
		r.char(']')
	}
	if got := r.me.View().Latency; got != tui.MaxLatency {
		t.Fatalf("latency %v after many ], want the maximum %v", got, tui.MaxLatency)
	}
	for range 30 {
		r.char('[')
	}
	r.char('-')
	if got := r.me.View().Latency; got != 0 {
		t.Fatalf("latency %v after many [, want 0", got)
	}
}

// A click on the track jumps there; a drag slides; the pointer may leave
// the track while dragging.
func TestSliderMouse(t *testing.T) {
	r := newRig(t, client.Options{Latency: 100 * time.Millisecond})
	x, y, width := r.ui.Slider().Track()
	if width < 10 {
		t.Fatalf("track is %d columns wide", width)
	}
	col := func(d time.Duration) int { return x + int(int64(d)*int64(width-1)/int64(tui.MaxLatency)) }
	near := func(got, want time.Duration) bool {
		step := tui.MaxLatency / time.Duration(width-1)
		return got >= want-step && got <= want+step
	}

	// Click: jump.
	r.mouse(tview.MouseLeftDown, col(700*time.Millisecond), y, tcell.Button1)
	r.mouse(tview.MouseLeftUp, col(700*time.Millisecond), y, 0)
	r.mouse(tview.MouseLeftClick, col(700*time.Millisecond), y, 0)
	if got := r.me.View().Latency; !near(got, 700*time.Millisecond) {
		t.Fatalf("click at 700ms set latency %v", got)
	}
	if got := r.me.View().Latency; got%tui.FineStep != 0 {
		t.Fatalf("latency %v is not a multiple of %v", got, tui.FineStep)
	}
	if r.ui.Slider().Dragging() {
		t.Fatal("slider still dragging after the button went up")
	}

	// Drag: from 200 ms to 500 ms, then past the right end.
	r.mouse(tview.MouseLeftDown, col(200*time.Millisecond), y, tcell.Button1)
	if got := r.me.View().Latency; !near(got, 200*time.Millisecond) {
		t.Fatalf("press at 200ms set latency %v", got)
	}
	r.mouse(tview.MouseMove, col(500*time.Millisecond), y, tcell.Button1)
	if got := r.me.View().Latency; !near(got, 500*time.Millisecond) {
		t.Fatalf("drag to 500ms set latency %v", got)
	}
	r.mustShow(fmt.Sprintf("┤ %dms", r.me.View().Latency.Milliseconds()))
	r.mouse(tview.MouseMove, x+width+20, y+3, tcell.Button1) // off the track
	if got := r.me.View().Latency; got != tui.MaxLatency {
		t.Fatalf("drag past the end set latency %v, want %v", got, tui.MaxLatency)
	}
	r.mouse(tview.MouseMove, x-5, y, tcell.Button1)
	r.mouse(tview.MouseLeftUp, x-5, y, 0)
	if got := r.me.View().Latency; got != 0 {
		t.Fatalf("drag past the start set latency %v, want 0", got)
	}
	// After release, moves do nothing.
	r.mouse(tview.MouseMove, col(900*time.Millisecond), y, 0)
	if got := r.me.View().Latency; got != 0 {
		t.Fatalf("a move after release changed the latency to %v", got)
	}
	// The wheel steps by FineStep.
	r.mouse(tview.MouseScrollUp, x+1, y, tcell.WheelUp)
	if got := r.me.View().Latency; got != tui.FineStep {
		t.Fatalf("wheel up set latency %v, want %v", got, tui.FineStep)
	}
}

// A terminal too small for board and panel says so; growing it brings the
// game back.
func TestTooSmallTerminal(t *testing.T) {
	r := newRig(t, client.Options{})
	r.screen.SetSize(60, 20)
	r.ui.Frame()
	r.mustShow("terminal too small: need 76x24, have 60x20")
	r.mustNotShow("you (")
	if _, _, ok := r.ui.BoardCell(spawn); ok {
		t.Fatal("board cell reported while the terminal is too small")
	}
	r.key(tcell.KeyRight) // keys still work

	r.screen.SetSize(80, 24)
	r.ui.Frame()
	r.mustNotShow("terminal too small")
	if last := rows(r.screen)[23]; strings.TrimRight(last, " ") != strings.TrimRight(r.rowWith("? help"), " ") || strings.Contains(last, "█") {
		t.Fatalf("stale cells after a resize: last row %q", last)
	}
	if !r.avatarAt(right) {
		t.Fatalf("avatar not drawn after growing the terminal:\n%s", r.text())
	}
	r.mustShow("you (11,10)")

	r.screen.SetSize(120, 40)
	r.ui.Frame()
	if !r.avatarAt(right) {
		t.Fatalf("avatar not drawn after growing the terminal again:\n%s", r.text())
	}
}

// ? shows every key and the log file; ? or Esc hides it.
func TestHelpOverlay(t *testing.T) {
	r := newRig(t, client.Options{})
	r.mustNotShow("/var/log/gridlag-test.log")
	r.char('?')
	if !r.ui.HelpVisible() {
		t.Fatal("? did not open the help")
	}
	for _, s := range []string{"/var/log/gridlag-test.log", "move one cell", "h j k l", "w a s d", "prediction on/off",
		"reconciliation on/off", "interpolation", "-/+ 10 ms", "-/+ 50 ms", "slider", "Ctrl-C", "quit"} {
		r.mustShow(s)
	}
	r.char('?')
	r.mustNotShow("/var/log/gridlag-test.log")
	r.char('?')
	r.key(tcell.KeyEscape)
	r.mustNotShow("/var/log/gridlag-test.log")
	r.mustShow("? help")
}

// q and Ctrl-C ask to quit.
func TestQuitKeys(t *testing.T) {
	for _, ev := range []*tcell.EventKey{
		tcell.NewEventKey(tcell.KeyRune, 'q', tcell.ModNone),
		tcell.NewEventKey(tcell.KeyCtrlC, 0, tcell.ModCtrl),
	} {
		r := newRig(t, client.Options{})
		if r.ui.QuitAsked() {
			t.Fatal("quit before any key")
		}
		r.ui.HandleKey(ev)
		if !r.ui.QuitAsked() {
			t.Fatalf("%v did not ask to quit", ev.Name())
		}
	}
}

// Every movement key moves the avatar.
func TestMovementKeys(t *testing.T) {
	r := newRig(t, client.Options{})
	keys := []struct {
		ev   *tcell.EventKey
		want grid.Pos
	}{
		{tcell.NewEventKey(tcell.KeyUp, 0, tcell.ModNone), grid.Pos{X: 10, Y: 9}},
		{tcell.NewEventKey(tcell.KeyDown, 0, tcell.ModNone), spawn},
		{tcell.NewEventKey(tcell.KeyLeft, 0, tcell.ModNone), grid.Pos{X: 9, Y: 10}},
		{tcell.NewEventKey(tcell.KeyRight, 0, tcell.ModNone), spawn},
		{tcell.NewEventKey(tcell.KeyRune, 'k', tcell.ModNone), grid.Pos{X: 10, Y: 9}},
		{tcell.NewEventKey(tcell.KeyRune, 'j', tcell.ModNone), spawn},
		{tcell.NewEventKey(tcell.KeyRune, 'h', tcell.ModNone), grid.Pos{X: 9, Y: 10}},
		{tcell.NewEventKey(tcell.KeyRune, 'l', tcell.ModNone), spawn},
		{tcell.NewEventKey(tcell.KeyRune, 'w', tcell.ModNone), grid.Pos{X: 10, Y: 9}},
		{tcell.NewEventKey(tcell.KeyRune, 's', tcell.ModNone), spawn},
		{tcell.NewEventKey(tcell.KeyRune, 'a', tcell.ModNone), grid.Pos{X: 9, Y: 10}},
		{tcell.NewEventKey(tcell.KeyRune, 'd', tcell.ModNone), spawn},
	}
	for _, k := range keys {
		r.ui.HandleKey(k.ev)
		r.advance(150 * time.Millisecond) // under the speed limit
		if !r.avatarAt(k.want) {
			t.Fatalf("after %s the avatar is not at %v:\n%s", k.ev.Name(), k.want, r.text())
		}
	}
}
