package tui_test

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"gridlag/grid"
	"gridlag/lab"
	"gridlag/tui"
)

// labRig is the lab's screen on a simulated terminal, over a lab whose
// wall clock the test moves by hand.
type labRig struct {
	simTerm
	lab  *lab.Lab
	wall time.Time
	s    *tui.LabScreen
}

// newLabRig builds the lab of cfg on a w x h terminal and draws the first
// frame.
func newLabRig(t *testing.T, cfg lab.Config, w, h int) *labRig {
	t.Helper()
	return newRigOf(t, w, h, func(wall func() time.Time) (*lab.Lab, error) { return lab.New(cfg, wall) })
}

// newRigOf is a rig for the lab newLab makes on the rig's clock (a lab,
// a lesson, a lecture), at w x h.
func newRigOf(t *testing.T, w, h int, newLab func(wall func() time.Time) (*lab.Lab, error)) *labRig {
	t.Helper()
	r := &labRig{simTerm: simTerm{t: t}, wall: time.Date(2026, 11, 23, 20, 0, 0, 0, time.UTC)}
	l, err := newLab(func() time.Time { return r.wall })
	if err != nil {
		t.Fatal(err)
	}
	r.lab = l
	r.screen = newScreen(t, w, h)
	r.s = tui.NewLabScreen(r.screen, l.Model(), tui.Options{LogPath: "/tmp/lab.log"})
	r.s.Frame()
	return r
}

// pass moves the wall clock by d and draws a frame.
func (r *labRig) pass(d time.Duration) {
	r.wall = r.wall.Add(d)
	r.s.Frame()
}

// key sends a key and draws a frame.
func (r *labRig) key(k tcell.Key, ch rune) {
	r.s.HandleKey(tcell.NewEventKey(k, ch, tcell.ModNone))
	r.s.Frame()
}

// click clicks at (x, y) and draws a frame.
func (r *labRig) click(x, y int) bool {
	used := r.s.HandleMouse(tview.MouseLeftClick, tcell.NewEventMouse(x, y, tcell.Button1, tcell.ModNone))
	r.s.Frame()
	return used
}

// at returns the character drawn at (x, y).
func (r *labRig) at(x, y int) string {
	cells, w, _ := r.screen.GetContents()
	return string(cells[y*w+x].Runes)
}

// find returns where s first shows on screen.
func (r *labRig) find(s string) (x, y int, ok bool) {
	for y, row := range rows(r.screen) {
		if i := strings.Index(row, s); i >= 0 {
			return len([]rune(row[:i])), y, true
		}
	}
	return 0, 0, false
}

// boardsFit fails unless the boards the terminal shows are whole: both
// corners of the map of each board in shown are on screen, and the
// others are not drawn.
func (r *labRig) boardsFit(shown ...int) {
	r.t.Helper()
	w, h := r.screen.Size()
	for b := 0; b < 3; b++ {
		want := false
		for _, s := range shown {
			want = want || s == b
		}
		for _, p := range []grid.Pos{{X: 0, Y: 0}, {X: 39, Y: 21}} {
			x, y, ok := r.s.BoardCell(b, p)
			if ok != want || ok && (x < 0 || y < 0 || x >= w || y >= h || r.at(x, y) != "█") {
				r.t.Fatalf("board %d, corner %v: drawn %v at (%d,%d), want drawn %v:\n%s", b, p, ok, x, y, want, r.text())
			}
		}
	}
}

// TestLabScreenSideBySide: at 160x45 the three boards show side by side
// under their headings, each player's panel under its board and the
// server's lines under its own; at 1/10 speed, #1 leaves Player 1's board
// at once and moves along the strip towards the server's board, then the
// server's line says ack #1 only after its next update.
func TestLabScreenSideBySide(t *testing.T) {
	cfg := lab.Default()
	cfg.Speed = lab.Tenth
	r := newLabRig(t, cfg, 160, 45)
	r.mustShow("Player 1", "Server", "Player 2", "speed 1/10", "to server ▸", "◂ to Player 1", "◂ to server", "to Player 2 ▸",
		"Player 1 (10,10) ack #0", "Player 2 (14,10) ack #0", "updates 3/s", "lag    [-]  250ms [+]", "lag    [-]  150ms [+]")
	r.boardsFit(0, 1, 2)
	p1x, _, _ := r.s.BoardCell(0, grid.Pos{X: 39, Y: 0})
	srvx, _, _ := r.s.BoardCell(1, grid.Pos{X: 0, Y: 0})

	r.key(tcell.KeyRight, 0)
	r.mustShow("you (11,10)  server (10,10)", "pending 1")
	r.pass(400 * time.Millisecond) // 40 ms of the lab's time: a third of the way up
	x1, y1, ok := r.find("#1 →")
	if !ok || x1 <= p1x || x1 >= srvx {
		t.Fatalf("#1 is not on the strip between the boards (columns %d to %d): at %d,%d (%v)\n%s", p1x, srvx, x1, y1, ok, r.text())
	}
	r.pass(500 * time.Millisecond)
	x2, y2, _ := r.find("#1 →")
	if y2 != y1 || x2 <= x1 {
		t.Fatalf("#1 did not move towards the server: from %d,%d to %d,%d", x1, y1, x2, y2)
	}
	r.pass(400 * time.Millisecond) // 130 ms: #1 has arrived
	if _, _, ok := r.find("#1 →"); ok {
		t.Fatalf("#1 still on the strip after its 125 ms trip:\n%s", r.text())
	}
	r.mustShow("Player 1 (11,10) ack #1", "last ack #0   pending 1") // the server knows; Player 1 is not told yet
	r.pass(3300 * time.Millisecond)                                  // 460 ms: the update of 333 ms has come down
	r.mustShow("last ack #1   pending 0")
}

// TestLabScreenCompact: at 120x40 the three boards still fit side by
// side, the strips under the server's board.
func TestLabScreenCompact(t *testing.T) {
	r := newLabRig(t, lab.Default(), 120, 40)
	r.boardsFit(0, 1, 2)
	r.mustShow("Player 1", "Server", "Player 2", "to server ▸", "◂ to Player 1", "to Player 2 ▸",
		"Player 1 (10,10) ack #0", "last ack #0", "[x]pred [x]recon [x]interp", "[. pause]")
	r.key(tcell.KeyRight, 0)
	r.pass(60 * time.Millisecond)
	// Under the boards, a blank column keeps each column of text from
	// the next (the strips' headings from Player 2's ledger).
	for y := 24; y < 38; y++ {
		for _, x := range []int{39, 79} {
			if got := r.at(x, y); got != " " && got != "" {
				t.Fatalf("row %d, column %d: %q runs into the next column:\n%s", y, x, rows(r.screen)[y], r.text())
			}
		}
	}
	srvx, _, _ := r.s.BoardCell(1, grid.Pos{X: 0, Y: 0})
	if x, _, ok := r.find("#1 →"); !ok || x < srvx || x >= srvx+40 {
		t.Fatalf("#1 is not on the strip under the server's board:\n%s", r.text())
	}
}

// TestLabScreenOneAtATime: at 80x24 one board shows at a time, and Tab
// goes through Player 1's, the server's and Player 2's.
func TestLabScreenOneAtATime(t *testing.T) {
	r := newLabRig(t, lab.Default(), 80, 24)
	r.key(tcell.KeyRight, 0)
	r.mustShow("you (11,10)  server (10,10)") // whole, beside the board
	for _, b := range []int{0, 1, 2, 0} {
		r.boardsFit(b)
		r.mustShow([]string{"Player 1  (Tab", "Server  (Tab", "Player 2  (Tab"}[b])
		if b == 1 {
			r.mustShow("Player 1 (10,10) ack #0", "to server ▸")
		} else {
			r.mustShow("last ack #0", "[lag spike 1s]")
		}
		r.key(tcell.KeyTab, 0)
	}
	r.screen.SetSize(79, 24)
	r.s.Frame()
	r.mustShow("terminal too small")
}

// TestLabScreenPauseAndStep: paused, frames change nothing (the ledger's
// age stands still); a step moves the lab to its next event.
func TestLabScreenPauseAndStep(t *testing.T) {
	r := newLabRig(t, lab.Default(), 160, 45)
	r.key(tcell.KeyRight, 0)
	r.pass(50 * time.Millisecond)
	r.key(tcell.KeyRune, '.')
	r.mustShow("PAUSED", "t 0.050s", "50ms", "[. run]")
	before := r.text()
	r.wall = r.wall.Add(3 * time.Second)
	if r.s.Frame() {
		t.Fatalf("paused, a frame changed the screen:\n%s", r.text())
	}
	if r.text() != before {
		t.Fatal("paused, the screen changed")
	}
	// Step by step until #1 reaches the server, at 125 ms: each step
	// stays paused and moves the time forward.
	last := "t 0.050s"
	for n := 0; !strings.Contains(r.text(), "Player 1 (11,10) ack #1"); n++ {
		r.key(tcell.KeyRune, 'n')
		r.mustShow("PAUSED")
		_, _, ok := r.find(last)
		if ok || n > 10 {
			t.Fatalf("step %d did not move the time on from %s:\n%s", n, last, r.text())
		}
		x, y, _ := r.find("t 0.")
		last = rows(r.screen)[y][x : x+8]
	}
	r.mustShow("t 0.125s")
	r.key(tcell.KeyRune, '.')
	r.pass(100 * time.Millisecond)
	r.mustShow("t 0.225s")
}

// TestLabScreenControls: the keys and buttons of each player and of the
// lab do what they say.
func TestLabScreenControls(t *testing.T) {
	r := newLabRig(t, lab.Default(), 160, 45)
	p1, p2 := r.lab.Players()[0], r.lab.Players()[1]

	r.key(tcell.KeyRune, 'd')
	r.key(tcell.KeyRune, '=')
	r.key(tcell.KeyRune, 'y')
	r.key(tcell.KeyRune, '2')
	if v := p2.View(); v.Predicted != (grid.Pos{X: 15, Y: 10}) || v.Latency != 140*time.Millisecond {
		t.Fatalf("Player 2 at %v with %v, want (15,10) after d, 140ms after y", v.Predicted, v.Latency)
	}
	if v := p1.View(); v.Latency != 260*time.Millisecond || v.Reconcile {
		t.Fatalf("Player 1: latency %v, reconcile %v, want 260ms after =, reconciliation off after 2", v.Latency, v.Reconcile)
	}
	// The coarse steps, the game's [ ] (Player 2: i o).
	r.key(tcell.KeyRune, '[')
	r.key(tcell.KeyRune, 'o')
	if v1, v2 := p1.View(), p2.View(); v1.Latency != 210*time.Millisecond || v2.Latency != 190*time.Millisecond {
		t.Fatalf("after [ and o: Player 1 %v, Player 2 %v, want 210ms and 190ms", v1.Latency, v2.Latency)
	}
	r.key(tcell.KeyRune, 'l')
	r.mustShow("[preset good]", "loss 0.2%")
	r.key(tcell.KeyRune, '/')
	r.mustShow("speed 1/2")
	r.key(tcell.KeyRune, '}')
	r.mustShow("updates 4/s")

	// click clicks the nth (from 0) button label on the first row that
	// has it, off columns into it.
	click := func(label string, nth, off int) {
		t.Helper()
		for y, line := range rows(r.screen) {
			i, from := -1, 0
			for n := 0; n <= nth; n++ {
				j := strings.Index(line[from:], label)
				if j < 0 {
					i = -1
					break
				}
				i, from = from+j, from+j+len(label)
			}
			if i >= 0 && r.click(len([]rune(line[:i]))+off, y) {
				return
			}
		}
		t.Fatalf("no button %q (%d) to click:\n%s", label, nth, r.text())
	}
	click("[x]interp", 1, 1) // Player 2's
	if p2.View().Interpolate || !p1.View().Interpolate {
		t.Fatal("the click did not turn Player 2's interpolation off, or touched Player 1's")
	}
	click("[preset good]", 0, 1)
	r.mustShow("[preset average]", "loss 2.0%", "lag    [-]  250ms [+]")
	click("[+]", 0, 1) // Player 1's lag
	if v := p1.View(); v.Latency != 260*time.Millisecond {
		t.Fatalf("the click made Player 1's latency %v, want 260ms", v.Latency)
	}
	r.mustShow("[preset own]")
	click("rate [-]", 0, 6) // the server's rate
	r.mustShow("updates 3/s")
	click("[. pause]", 0, 1)
	r.mustShow("PAUSED")
	click("[n step]", 0, 1)
	click("[/ speed 1/2]", 0, 1)
	r.mustShow("speed 1/4")
	click("[? help]", 0, 1)
	if !r.s.HelpVisible() {
		t.Fatal("the help button did not show the help")
	}
	shown := strings.Join(strings.Fields(r.text()), " ")
	usual, _ := labHelpByState()
	for _, line := range usual {
		if !strings.Contains(shown, strings.Join(strings.Fields(line), " ")) {
			t.Errorf("the help does not show %q", line)
		}
	}
	r.key(tcell.KeyRune, 'q')
	if !r.s.QuitAsked() {
		t.Fatal("q did not ask to quit")
	}
}

// TestLabScreenHeadOfLine: a lost input shows marked on the strip, and
// the input sent after it waits behind it, marked as held.
func TestLabScreenHeadOfLine(t *testing.T) {
	cfg := lab.Default()
	cfg.Players[0].Loss = 1
	r := newLabRig(t, cfg, 160, 45)
	r.key(tcell.KeyRight, 0)
	r.lab.Players()[0].SetLoss(0) // #1 is lost, what follows is not
	r.pass(150 * time.Millisecond)
	r.key(tcell.KeyRight, 0)
	r.pass(10 * time.Millisecond)
	if _, _, ok := r.find("✗#1 →"); !ok {
		t.Fatalf("#1 is not marked as lost:\n%s", r.text())
	}
	if _, _, ok := r.find("#2 →…"); !ok {
		t.Fatalf("#2 is not marked as held behind #1:\n%s", r.text())
	}
}

// TestLabScreenHelpFits: at 80x24 the help overlay shows every key with
// what it does, whole.
// The help of the perception test's rounds shows their keys alone.
func TestLabScreenHelpFits(t *testing.T) {
	r := newLabRig(t, lab.Default(), 80, 24)
	usual, test := labHelpByState()
	for _, state := range [][]string{usual, test} {
		r.key(tcell.KeyRune, '?')
		shown := strings.Join(strings.Fields(r.text()), " ")
		for _, line := range state {
			if !strings.Contains(shown, strings.Join(strings.Fields(line), " ")) {
				t.Errorf("at 80x24 the help does not show %q whole:\n%s", line, r.text())
			}
		}
		r.key(tcell.KeyEscape, 0)
		r.key(tcell.KeyRune, 'p') // the perception test's first round
	}
}

// labHelpByState returns the lines of the lab's -help: the usual keys',
// and those of a round of the perception test, from its heading on.
func labHelpByState() (usual, test []string) {
	lines := tui.LabKeyHelp()
	for i, line := range lines {
		if strings.HasPrefix(line, "during the perception test") {
			return lines[:i], lines[i:]
		}
	}
	return lines, nil
}

// TestLabScreenSlidersStep: a lab player's lag is the game's slider drawn
// as steps: [-] and [+] step it by 10 ms from what it is now (after a
// preset too), the wheel over it steps it, a click between the buttons
// does nothing.
func TestLabScreenSlidersStep(t *testing.T) {
	r := newLabRig(t, lab.Default(), 160, 45)
	p1 := r.lab.Players()[0]
	x, y, ok := r.find("lag    [-]  250ms [+]")
	if !ok {
		t.Fatalf("no lag slider:\n%s", r.text())
	}
	minus, value, plus := x+len("lag    "), x+len("lag    [-]  2"), x+len("lag    [-]  250ms [+")
	r.click(minus, y)
	if got := p1.View().Latency; got != 240*time.Millisecond {
		t.Fatalf("[-] made the latency %v, want 240ms", got)
	}
	if r.click(value, y) || p1.View().Latency != 240*time.Millisecond {
		t.Fatal("a click on the value did something")
	}
	r.s.HandleMouse(tview.MouseScrollUp, tcell.NewEventMouse(value, y, tcell.WheelUp, tcell.ModNone))
	r.s.Frame()
	r.mustShow("lag    [-]  250ms [+]")
	r.s.HandleKey(tcell.NewEventKey(tcell.KeyRune, 'l', tcell.ModNone)) // a preset, not drawn yet
	preset := p1.View().Latency
	r.click(plus, y)
	// 10 ms more, on the steps of 10 ms.
	want := (preset + 15*time.Millisecond) / (10 * time.Millisecond) * (10 * time.Millisecond)
	if got := p1.View().Latency; preset == 250*time.Millisecond || got != want {
		t.Fatalf("[+] after the preset's %v made the latency %v, want %v", preset, got, want)
	}
}
