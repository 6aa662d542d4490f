package tui_test

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/lab/sim"
	"gridlag/server/world"
	"gridlag/tui"
)

// projectorRig is a room "3b" of a simulated world (stud2..stud5 and
// two bots), its teacher, and a projector (a spectator of the room) on a
// simulated terminal.
type projectorRig struct {
	simTerm
	world    *sim.World
	students []*sim.Client
	teacher  *sim.Watcher
	proj     *sim.Watcher
	s        *tui.SpectateScreen
}

func newProjectorRig(t *testing.T, w, h int) *projectorRig {
	t.Helper()
	wd := sim.New(world.Config{Rate: 20})
	wd.PingEvery(time.Second)
	r := &projectorRig{world: wd}
	for _, name := range []string{"stud2", "stud3", "stud4", "stud5"} {
		r.students = append(r.students, wd.Join(name, client.Options{Room: "3b"}))
	}
	for _, name := range []string{"bot-1", "bot-2"} {
		wd.Join(name, client.Options{Room: "3b", Bot: true})
	}
	r.teacher = wd.Watch("hopper", client.Options{Room: "3b", Teach: true}, true)
	r.proj = wd.Watch("projector", client.Options{Room: "3b"}, false)
	scr := newScreen(t, w, h)
	r.simTerm = simTerm{t, scr}
	r.s = tui.NewSpectateScreen(scr, r.proj, tui.Options{Title: "gridlag — spectating"})
	r.advance(time.Second)
	return r
}

// advance moves the virtual clock and draws the next frame.
func (r *projectorRig) advance(d time.Duration) {
	r.world.Advance(d)
	r.s.Frame()
}

// boardBox returns the rectangle the board's walls span: the first and
// last columns and rows with a wall.
func boardBox(scr tcell.SimulationScreen) (x0, y0, x1, y1 int) {
	cells, w, h := scr.GetContents()
	x0, y0, x1, y1 = w, h, -1, -1
	for y := range h {
		for x := range w {
			if c := cells[y*w+x]; len(c.Runes) > 0 && c.Runes[0] == '█' {
				x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
			}
		}
	}
	return x0, y0, x1, y1
}

// TestProjectorFillsTheWindow: at 160x45 the projector's board fills at
// least half the window (each map cell three columns and two rows), and
// the panel beside it shows the round and its clock, and the room's
// scoreboard, each student by the mark the board draws it with
// (stud2..stud5: 2 3 4 5).
func TestProjectorFillsTheWindow(t *testing.T) {
	r := newProjectorRig(t, 160, 45)
	x0, y0, x1, y1 := boardBox(r.screen)
	if area := (x1 - x0 + 1) * (y1 - y0 + 1); 2*area < 160*45 {
		t.Fatalf("the board spans %dx%d, less than half of 160x45:\n%s", x1-x0+1, y1-y0+1, r.text())
	}
	if w, h := x1-x0+1, y1-y0+1; w != 40*3 || h != 22*2 {
		t.Errorf("the board is %dx%d, want the 40x22 map at 3x2 a cell", w, h)
	}
	r.mustShow("Round 1", " left", "6 players")
	for i, name := range []string{"stud2", "stud3", "stud4", "stud5"} {
		mark := name[4:]
		r.mustShow(mark + " " + name)
		pos := r.students[i].View().Predicted
		x, y := cellOnBoard(x0, y0, pos, 3, 2)
		if got := cellText(r.screen, x, y); got != mark {
			t.Errorf("%s at %v is drawn %q on the board, want %q:\n%s", name, pos, got, mark, r.text())
		}
	}
	left := r.proj.View().RoundLeft
	r.advance(2 * time.Second)
	if now := r.proj.View().RoundLeft; now != left-2*time.Second {
		t.Errorf("the round's clock went from %v to %v in 2 s", left, now)
	}
}

// cellOnBoard returns where a board whose walls start at (x0, y0),
// scaled sx x sy, draws map cell p's mark (its middle).
func cellOnBoard(x0, y0 int, p grid.Pos, sx, sy int) (x, y int) {
	return x0 + p.X*sx + (sx-1)/2, y0 + p.Y*sy + (sy-1)/2
}

// cellText is the character at (x, y).
func cellText(scr tcell.SimulationScreen, x, y int) string {
	cells, w, _ := scr.GetContents()
	return string(cells[y*w+x].Runes)
}

// TestProjectorFollowsAStudent: the teacher follows stud3, whose link
// has a round trip of 400 ms, and stud3 presses RIGHT: the projector's
// panel says whom it follows, where stud3 sees itself and where the
// server last had it, and #1 → pending in its ledger, and its board
// draws stud3's avatar (an arrow) a cell right of its ghost; once the
// server's word is back the ledger is empty.
func TestProjectorFollowsAStudent(t *testing.T) {
	r := newProjectorRig(t, 160, 45)
	stud3 := r.students[1]
	stud3.SetLatency(400 * time.Millisecond)
	r.teacher.Follow(stud3.View().Me)
	r.advance(time.Second)
	r.mustShow("Following 3 stud3", "sees itself", "server said", "lag 400ms", "Pending inputs 0")
	start := stud3.View().Predicted
	stud3.Press(grid.Right)
	r.advance(250 * time.Millisecond) // its way up (200 ms), not the way back
	r.mustShow("Pending inputs 1", "#1     →", "sees itself ▶ "+start.Add(grid.Right).String(), "server said 3 "+start.String())
	x0, y0, _, _ := boardBox(r.screen)
	x, y := cellOnBoard(x0, y0, start.Add(grid.Right), 3, 2)
	if got := cellText(r.screen, x, y); got != "▶" {
		t.Errorf("the board draws %q where stud3 sees its avatar, want ▶:\n%s", got, r.text())
	}
	if row := rowOf(r.text(), "stud3"); !strings.Contains(row, "▸3 stud3") {
		t.Errorf("the scoreboard does not mark the followed student: %q", row)
	}
	r.advance(time.Second)
	r.mustShow("Pending inputs 0", "server said 3 "+start.Add(grid.Right).String())
}

// rowOf returns the first row of text that holds s.
func rowOf(text, s string) string {
	for _, row := range strings.Split(text, "\n") {
		if strings.Contains(row, s) {
			return row
		}
	}
	return ""
}

// TestMarksAlikeOnEveryScreen: stud2..stud5, a typical lab's logins, are
// marked 2, 3, 4 and 5, each in a colour of its own, and alike on every
// screen of the room: a student's board and scoreboard, the projector's
// board and scoreboard, the teacher's board and class list.
func TestMarksAlikeOnEveryScreen(t *testing.T) {
	r := newProjectorRig(t, 160, 45)
	teachScr := newScreen(t, 120, 40)
	teach := tui.NewTeachScreen(teachScr, r.teacher, tui.Options{})
	stud2Scr := newScreen(t, 120, 40)
	stud2 := tui.New(stud2Scr, r.students[0], tui.Options{})
	teach.Frame()
	stud2.Frame()
	type screen struct {
		name string
		scr  tcell.SimulationScreen
		cell func(grid.Pos) (int, int, bool)
	}
	screens := []screen{
		{"the projector", r.screen, r.s.BoardCell},
		{"the teacher's", teachScr, teach.BoardCell},
		{"stud2's", stud2Scr, stud2.BoardCell},
	}
	colours := map[tcell.Color]string{}
	for i, name := range []string{"stud2", "stud3", "stud4", "stud5"} {
		mark := name[4:]
		pos := r.students[i].View().Predicted
		for _, sc := range screens {
			if sc.name == "stud2's" && i == 0 {
				continue // its own avatar, an arrow
			}
			x, y, ok := sc.cell(pos)
			if !ok {
				t.Fatalf("%s board does not show %v", sc.name, pos)
			}
			cells, w, _ := sc.scr.GetContents()
			if got := string(cells[y*w+x].Runes); got != mark {
				t.Errorf("%s board draws %s as %q, want %q", sc.name, name, got, mark)
			}
			text := strings.Join(rows(sc.scr), "\n")
			if !strings.Contains(text, mark+" "+name) && !strings.Contains(text, mark+"▸"+name) && !(sc.name == "stud2's" && i == 0) {
				t.Errorf("%s screen does not list %s as %q:\n%s", sc.name, name, mark+" "+name, text)
			}
		}
		x, y, _ := r.s.BoardCell(pos)
		cells, w, _ := r.screen.GetContents()
		_, bg, _ := cells[y*w+x].Style.Decompose()
		if o, ok := colours[bg]; ok {
			t.Errorf("%s and %s share the colour %v", o, name, bg)
		}
		colours[bg] = name
	}
}
