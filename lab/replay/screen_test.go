package replay

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"gridlag/lab"
	"gridlag/lab/scenario"
	"gridlag/tui"
)

// term is a simulated terminal showing the replay's screen.
type term struct {
	t      *testing.T
	screen tcell.SimulationScreen
	s      *tui.ReplayScreen
	m      *Model
	wall   *wall
}

func newTerm(t *testing.T, w, h int, c Changes) *term {
	t.Helper()
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(scr.Fini)
	scr.SetSize(w, h)
	wl := &wall{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	m, err := NewModel(recordScenario(t, scenario.Default()), "gridlag replay a.rec", c, wl.now, lab.Full)
	if err != nil {
		t.Fatal(err)
	}
	tm := &term{t: t, screen: scr, m: m, wall: wl, s: tui.NewReplayScreen(scr, m, tui.Options{LogPath: "/tmp/gridlag.log"})}
	tm.s.Frame()
	return tm
}

// text returns what the terminal shows, row by row.
func (tm *term) text() string {
	cells, w, h := tm.screen.GetContents()
	var b strings.Builder
	for y := range h {
		for x := range w {
			c := cells[y*w+x]
			if len(c.Runes) == 0 {
				b.WriteByte(' ')
				continue
			}
			b.WriteString(string(c.Runes))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func (tm *term) key(r rune) {
	tm.s.HandleKey(tcell.NewEventKey(tcell.KeyRune, r, 0))
	tm.s.Frame()
}

// TestReplayScreenWhatIf: the article's recording replayed with
// reconciliation off, on 80x24 and 160x45: paused at 0; e goes to the
// correction at 250 ms, where the board shows the recording's avatar as
// a ghost (○) beside the jumped-back one and the line of the difference;
// r switches reconciliation back on (the recording again: no ghost, no
// what-if); 0 goes back to the start; play runs on the wall clock and
// pauses at the end; the help fits.
func TestReplayScreenWhatIf(t *testing.T) {
	off := false
	for _, size := range [][2]int{{80, 24}, {160, 45}} {
		tm := newTerm(t, size[0], size[1], Changes{Reconcile: &off})
		if s := tm.text(); !strings.Contains(s, "t 0.000/0.900s") || !strings.Contains(s, "PAUSED") || !strings.Contains(s, "what-if: reconciliation off") {
			t.Fatalf("%v at the start:\n%s", size, s)
		}
		tm.key('e')
		s := tm.text()
		if tm.m.Now() != 250*ms || !strings.Contains(s, "○") || !strings.Contains(s, "t=250 ms: original (12,10), now") {
			t.Fatalf("%v at the next correction (%v):\n%s", size, tm.m.Now(), s)
		}
		if !strings.Contains(s, "you (11,10)") || !strings.Contains(s, "the recording: you (12,10)") {
			t.Fatalf("%v: the board at 250 ms:\n%s", size, s)
		}
		tm.key('r')
		if s := tm.text(); strings.Contains(s, "○") || strings.Contains(strings.SplitN(s, "\n", 2)[0], "what-if") || tm.m.WhatIf() != "" || tm.m.Now() != 250*ms {
			t.Fatalf("%v: reconciliation on again, at %v, what-if %q:\n%s", size, tm.m.Now(), tm.m.WhatIf(), s)
		}
		tm.key('0')
		tm.key('.')
		tm.wall.pass(2 * time.Second)
		tm.s.Frame()
		if !tm.m.Paused() || tm.m.Now() != tm.m.End() {
			t.Fatalf("%v: played past the end: at %v, paused %v", size, tm.m.Now(), tm.m.Paused())
		}
		tm.key('?')
		if s := tm.text(); !strings.Contains(s, "gridlag replay: keys") || !strings.Contains(s, "seek to the next zap") {
			t.Fatalf("%v: the help:\n%s", size, s)
		}
	}
}

// TestReplayCast: the replay's screen recorded as an asciicast: a v2
// header of the terminal's size, then frames in time order.
func TestReplayCast(t *testing.T) {
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	defer scr.Fini()
	scr.SetSize(100, 30)
	wl := &wall{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	var out bytes.Buffer
	cast := tui.NewCast(scr, &out, "test", wl.now, 0)
	m, err := NewModel(recordScenario(t, scenario.Default()), "a.rec", Changes{}, wl.now, lab.Full)
	if err != nil {
		t.Fatal(err)
	}
	s := tui.NewReplayScreen(cast, m, tui.Options{})
	s.Frame()
	for range 5 {
		wl.pass(40 * ms)
		s.HandleKey(tcell.NewEventKey(tcell.KeyRune, 'n', 0))
		s.Frame()
	}
	if err := cast.Close(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	var head map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &head); err != nil || head["version"] != 2.0 || head["width"] != 100.0 || head["height"] != 30.0 {
		t.Fatalf("header %s: %v", lines[0], err)
	}
	if len(lines) < 6 {
		t.Fatalf("%d lines: %q", len(lines), out.String())
	}
	prev := -1.0
	for _, l := range lines[1:] {
		var ev []any
		if err := json.Unmarshal([]byte(l), &ev); err != nil || len(ev) != 3 || ev[1] != "o" {
			t.Fatalf("event %s: %v", l, err)
		}
		if at := ev[0].(float64); at < prev {
			t.Fatalf("event %s before %v", l, prev)
		} else {
			prev = at
		}
	}
	if prev < 0.15 {
		t.Fatalf("the frames span %vs of a 0.2s session", prev)
	}
}

// click clicks the left button at (x, y) and releases it.
func (tm *term) click(x, y int) {
	tm.t.Helper()
	tm.s.HandleMouse(tview.MouseLeftClick, tcell.NewEventMouse(x, y, tcell.Button1, 0))
	tm.s.Frame()
}

// find returns where s first shows on the terminal.
func (tm *term) find(s string) (x, y int, ok bool) {
	for y, row := range strings.Split(tm.text(), "\n") {
		if i := strings.Index(row, s); i >= 0 {
			return len([]rune(row[:i])), y, true
		}
	}
	return 0, 0, false
}

// TestReplayScreenMouse: on 80x24 and 160x45, a click in the middle of
// the bar seeks to the middle of the recording, a click on a what-if's
// switch flips it, a click on [0 start] goes back to 0.
func TestReplayScreenMouse(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 45}} {
		tm := newTerm(t, size[0], size[1], Changes{})
		x, y, ok := tm.find("[···")
		if !ok {
			t.Fatalf("%v: no bar:\n%s", size, tm.text())
		}
		bar := []rune(strings.Split(tm.text(), "\n")[y])[x:]
		tm.click(x+slices.Index(bar, ']')/2, y)
		if at, half := tm.m.Now(), tm.m.End()/2; at < half-tm.m.End()/10 || at > half+tm.m.End()/10 {
			t.Fatalf("%v: a click mid-bar went to %v of %v", size, at, tm.m.End())
		}
		x, y, ok = tm.find("[x]r recon")
		if !ok {
			t.Fatalf("%v: no reconciliation switch:\n%s", size, tm.text())
		}
		tm.click(x+1, y)
		if tm.m.WhatIf() != "reconciliation off" {
			t.Fatalf("%v: after a click on the switch, what-if %q:\n%s", size, tm.m.WhatIf(), tm.text())
		}
		x, y, _ = tm.find("[0 start]")
		tm.click(x+1, y)
		if tm.m.Now() != 0 || !tm.m.Paused() {
			t.Fatalf("%v: [0 start] left it at %v", size, tm.m.Now())
		}
	}
}

// TestRunReplayOnACast: the replay's screen runs on a terminal recorded
// as an asciicast (gridlag replay -cast, lab -cast, the game's -cast):
// the loop reads the terminal's events through the Cast.
func TestRunReplayOnACast(t *testing.T) {
	scr := tcell.NewSimulationScreen("UTF-8")
	var out bytes.Buffer
	wl := &wall{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	cast := tui.NewCast(scr, &out, "test", wl.now, 0)
	m, err := NewModel(recordScenario(t, scenario.Default()), "a.rec", Changes{}, wl.now, lab.Full)
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	close(stop)
	if err := tui.RunReplay(cast, m, tui.Options{Stop: stop}); err != nil {
		t.Fatal(err)
	}
}
