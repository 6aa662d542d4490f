package tui_test

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/lab/sim"
	"gridlag/server/world"
	"gridlag/tui"
)

// rig is one player of a simulated world, drawn on a simulated 120x40
// terminal.
type rig struct {
	simTerm
	world *sim.World
	me    *sim.Client
	ui    *tui.UI
}

// simTerm is a test's simulated terminal, to read what it shows; the rigs
// of every screen embed it.
type simTerm struct {
	t      *testing.T
	screen tcell.SimulationScreen
}

// newRig joins "alice" with the given options to a 20 Hz world and draws
// the first frame.
func newRig(t *testing.T, opts client.Options) *rig {
	t.Helper()
	return newRigOn(t, world.Config{Rate: 20}, opts)
}

// newRigOn is newRig on a world of the given game numbers.
func newRigOn(t *testing.T, cfg world.Config, opts client.Options) *rig {
	t.Helper()
	w := sim.New(cfg)
	me := w.Join("alice", opts)
	scr := newScreen(t, 120, 40)
	r := &rig{simTerm: simTerm{t, scr}, world: w, me: me, ui: tui.New(scr, me, tui.Options{Title: "gridlag — test", LogPath: "/var/log/gridlag-test.log"})}
	r.ui.Frame()
	return r
}

// newScreen returns a simulated w x h terminal, initialised, and finished
// when the test ends.
func newScreen(t *testing.T, w, h int) tcell.SimulationScreen {
	t.Helper()
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(scr.Fini)
	scr.SetSize(w, h)
	return scr
}

// resize gives the terminal a new size and draws the next frame.
func (r *rig) resize(w, h int) {
	r.screen.SetSize(w, h)
	r.ui.Frame()
}

// key sends a special key and draws the next frame.
func (r *rig) key(k tcell.Key) {
	r.ui.HandleKey(tcell.NewEventKey(k, 0, tcell.ModNone))
	r.ui.Frame()
}

// char sends a character key and draws the next frame.
func (r *rig) char(c rune) {
	r.ui.HandleKey(tcell.NewEventKey(tcell.KeyRune, c, tcell.ModNone))
	r.ui.Frame()
}

// advance moves the virtual clock and draws the next frame.
func (r *rig) advance(d time.Duration) {
	r.world.Advance(d)
	r.ui.Frame()
}

// mouse sends one mouse action at (x, y) and draws the next frame.
func (r *rig) mouse(action tview.MouseAction, x, y int, buttons tcell.ButtonMask) bool {
	used := r.ui.HandleMouse(action, tcell.NewEventMouse(x, y, buttons, tcell.ModNone))
	r.ui.Frame()
	return used
}

// rows returns the screen's text, one string per row.
func rows(scr tcell.SimulationScreen) []string {
	cells, w, h := scr.GetContents()
	out := make([]string, h)
	for y := 0; y < h; y++ {
		var b strings.Builder
		for x := 0; x < w; x++ {
			c := cells[y*w+x]
			if len(c.Runes) == 0 {
				b.WriteByte(' ')
				continue
			}
			b.WriteString(string(c.Runes))
		}
		out[y] = b.String()
	}
	return out
}

// text returns the whole screen as one string.
func (r simTerm) text() string { return strings.Join(rows(r.screen), "\n") }

// has reports whether the screen shows s somewhere on one row.
func (r simTerm) has(s string) bool { return strings.Contains(r.text(), s) }

// mustShow fails the test unless the screen shows every one of want.
func (r simTerm) mustShow(want ...string) {
	r.t.Helper()
	for _, s := range want {
		if !r.has(s) {
			r.t.Fatalf("screen does not show %q:\n%s", s, r.text())
		}
	}
}

// mustNotShow fails the test if the screen shows s.
func (r simTerm) mustNotShow(s string) {
	r.t.Helper()
	if r.has(s) {
		r.t.Fatalf("screen shows %q, it should not:\n%s", s, r.text())
	}
}

// cell returns what is drawn on map cell p: its first character and style.
func (r *rig) cell(p grid.Pos) (string, tcell.Style) {
	r.t.Helper()
	x, y, ok := r.ui.BoardCell(p)
	if !ok {
		r.t.Fatalf("map cell %v is not on screen", p)
	}
	cells, w, _ := r.screen.GetContents()
	c := cells[y*w+x]
	return string(c.Runes), c.Style
}

// fg returns a style's foreground colour.
func fg(st tcell.Style) tcell.Color {
	c, _, _ := st.Decompose()
	return c
}

// avatarAt reports whether your bright avatar is drawn on p: "@", or the
// arrow of the way it faces.
func (r *rig) avatarAt(p grid.Pos) bool {
	s, st := r.cell(p)
	return strings.Contains("@▲▼◀▶", s) && fg(st) == tcell.ColorYellow
}

// ghostAt reports whether the dim ghost is drawn on p.
func (r *rig) ghostAt(p grid.Pos) bool {
	s, st := r.cell(p)
	return s == "@" && fg(st) != tcell.ColorYellow
}

// rowWith returns the first screen row containing s, or "".
func (r simTerm) rowWith(s string) string {
	for _, row := range rows(r.screen) {
		if strings.Contains(row, s) {
			return row
		}
	}
	return ""
}
