package tui_test

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/tui"
)

// find returns the column and row where the screen shows s first.
func (r *rig) find(s string) (x, y int, ok bool) {
	for y, row := range rows(r.screen) {
		if i := strings.Index(row, s); i >= 0 {
			return len([]rune(row[:i])), y, true
		}
	}
	return 0, 0, false
}

// mustFind is find for what must be on screen.
func (r *rig) mustFind(s string) (x, y int) {
	r.t.Helper()
	x, y, ok := r.find(s)
	if !ok {
		r.t.Fatalf("screen does not show %q:\n%s", s, r.text())
	}
	return x, y
}

// boardBox returns where the board is on screen: its left column, top
// row, the columns of one cell and the column after its right edge.
func (r *rig) boardBox() (left, top, cellW, right int) {
	r.t.Helper()
	m := grid.DefaultMap()
	left, top, ok := r.ui.BoardCell(grid.Pos{})
	next, _, ok2 := r.ui.BoardCell(grid.Pos{X: 1})
	if !ok || !ok2 {
		r.t.Fatalf("no board on screen:\n%s", r.text())
	}
	cellW = next - left
	return left, top, cellW, left + m.Width()*cellW
}

// The whole game is usable from 80x24 up: the board with you on it, both
// positions, the ledger, the toggles, the latency and the help hint.
func TestEverythingOnScreenAtEverySize(t *testing.T) {
	for _, size := range []struct{ w, h, cellW int }{{80, 24, 1}, {120, 40, 2}, {200, 60, 2}} {
		r := newRig(t, client.Options{Latency: 400 * time.Millisecond})
		r.resize(size.w, size.h)
		r.advance(time.Second)
		if !r.avatarAt(spawn) {
			t.Fatalf("%dx%d: avatar not at %v:\n%s", size.w, size.h, spawn, r.text())
		}
		if _, _, cellW, _ := r.boardBox(); cellW != size.cellW {
			t.Errorf("%dx%d: %d columns a cell, want %d", size.w, size.h, cellW, size.cellW)
		}
		for _, s := range []string{"████", "you (10,10)  server (10,10)", "Pending inputs", "last ack #0   pending 0",
			"[x] prediction", "[x] reconciliation", "[x] interpolation", "Latency", "┤ 400ms", "rtt 400ms", "? help", "playing as alice"} {
			r.mustShow(s)
		}
		r.key(tcell.KeyRight)
		r.mustShow("you (11,10)  server (10,10)")
		r.mustShow("pending 1")
		if row := r.rowWith("#1 "); !strings.Contains(row, "→") {
			t.Fatalf("%dx%d: no ledger row for #1:\n%s", size.w, size.h, r.text())
		}
		r.char('?')
		r.mustShow("/var/log/gridlag-test.log") // the last line of the help fits too
		r.mustShow("a bot")
	}
}

// On a large terminal the board, the panel beside it and the status and
// keys lines under them stay together, centred on the screen.
func TestLargeTerminalKeepsOneBlock(t *testing.T) {
	r := newRig(t, client.Options{})
	r.resize(200, 60)
	r.advance(time.Second)
	left, top, _, right := r.boardBox()
	m := grid.DefaultMap()
	bottom := top + m.Height()

	panelX, panelY := r.mustFind("Latency")
	if gap := panelX - right; gap < 1 || gap > 3 || panelY != top {
		t.Errorf("panel at column %d row %d, board ends before column %d and starts at row %d: want the panel beside the board", panelX, panelY, right, top)
	}
	statusX, statusY := r.mustFind("you (10,10)")
	if statusX != left || statusY != bottom {
		t.Errorf("status line at (%d,%d), want directly under the board at (%d,%d)", statusX, statusY, left, bottom)
	}
	keysX, keysY := r.mustFind("? help")
	if keysY != bottom+1 || keysX < left {
		t.Errorf("keys line at row %d, want %d", keysY, bottom+1)
	}
	blockRight := panelX + 34
	if l, rgt := left, 200-blockRight; l-rgt < -1 || l-rgt > 1 {
		t.Errorf("block not centred across: %d columns left of it, %d right", l, rgt)
	}
	if up, down := top-1, 60-(bottom+2); up-down < -1 || up-down > 1 {
		t.Errorf("block not centred down: %d rows above it (under the title), %d below", up, down)
	}
}

// stubSession is a session whose view the test sets, e.g. one still
// connecting.
type stubSession struct {
	view          client.View
	changed, done chan struct{}
}

func newStubSession(v client.View) *stubSession {
	return &stubSession{view: v, changed: make(chan struct{}, 1), done: make(chan struct{})}
}

// newSessionRig draws s on a w x h terminal; it draws no frame yet.
func newSessionRig(t *testing.T, s client.Session, w, h int) *rig {
	t.Helper()
	scr := newScreen(t, w, h)
	return &rig{simTerm: simTerm{t, scr}, ui: tui.New(scr, s, tui.Options{})}
}

func (s *stubSession) Press(grid.Dir)           {}
func (s *stubSession) Zap()                     {}
func (s *stubSession) SetPredict(bool)          {}
func (s *stubSession) SetReconcile(bool)        {}
func (s *stubSession) SetInterpolate(bool)      {}
func (s *stubSession) SetLatency(time.Duration) {}
func (s *stubSession) View() client.View        { return s.view }
func (s *stubSession) Changed() <-chan struct{} { return s.changed }
func (s *stubSession) Done() <-chan struct{}    { return s.done }
func (s *stubSession) Close() error             { return nil }

// While connecting the screen says so and shows no figure it does not
// know yet; each appears once known, and "waiting" goes away.
func TestConnectingShowsOnlyWhatIsKnown(t *testing.T) {
	s := newStubSession(client.View{Name: "alice", Predict: true, Reconcile: true, Interpolate: true, Latency: 400 * time.Millisecond})
	r := newSessionRig(t, s, 80, 24)
	step := func(change func(v *client.View), show, hide []string) {
		t.Helper()
		change(&s.view)
		r.ui.Frame()
		for _, x := range show {
			r.mustShow(x)
		}
		for _, x := range hide {
			r.mustNotShow(x)
		}
	}
	step(func(*client.View) {}, []string{"waiting for the server", "lag 400ms", "Pending inputs"},
		[]string{"you (", "server (", "rtt", "updates", "move 0", "interp ", " 0ms"})
	step(func(v *client.View) { // the welcome
		v.Map, v.UpdateRate, v.MoveTime = grid.DefaultMap(), 20, 100*time.Millisecond
	}, []string{"updates 20/s", "move 100ms"}, []string{"waiting for the server", "you (", "rtt", "interp "})
	step(func(v *client.View) { // the first state
		v.HasState, v.Predicted, v.Server, v.InterpDelay = true, spawn, spawn, 67*time.Millisecond
	}, []string{"you (10,10)  server (10,10)", "interp 67ms"}, []string{"rtt"})
	step(func(v *client.View) { v.RTT = 400 * time.Millisecond }, []string{"rtt 400ms"}, nil)
}

// Text cut to fit ends with an ellipsis: the reason of a correction
// without reconciliation is longer than the panel is wide.
func TestCutTextEndsWithEllipsis(t *testing.T) {
	r := newRig(t, client.Options{Latency: 250 * time.Millisecond, NoReconcile: true})
	r.advance(time.Second)
	r.key(tcell.KeyRight)
	r.advance(100 * time.Millisecond)
	r.key(tcell.KeyRight)
	for i := 0; i < 50 && r.me.View().LastCorrection == nil; i++ {
		r.advance(10 * time.Millisecond)
	}
	c := r.me.View().LastCorrection
	if c == nil || len(c.Reason) <= 34 {
		t.Fatalf("want a correction with a reason too long for the panel, got %+v", c)
	}
	row := strings.TrimRight(r.rowWith("no reconciliation"), " ")
	if !strings.HasSuffix(row, "…") || strings.Contains(row, c.Reason) {
		t.Fatalf("the cut reason does not end with …: %q\n%s", row, r.text())
	}
}

// The ghost (you, where the server has you) looks like neither a wall nor
// your avatar.
func TestGhostHasItsOwnLook(t *testing.T) {
	r := newRig(t, client.Options{Latency: 400 * time.Millisecond})
	r.advance(time.Second)
	r.key(tcell.KeyRight)
	if !r.ghostAt(spawn) {
		t.Fatalf("no ghost at %v:\n%s", spawn, r.text())
	}
	_, ghost := r.cell(spawn)
	_, avatar := r.cell(right)
	wallGlyph, wall := r.cell(grid.Pos{})
	if wallGlyph != "█" {
		t.Fatalf("(0,0) is %q, want a wall", wallGlyph)
	}
	if fg(ghost) == fg(wall) || ghost == wall || ghost == avatar {
		t.Errorf("ghost style %v, wall %v, avatar %v: the ghost must differ from both", ghost, wall, avatar)
	}
}

// In a two-column cell, floor marks and avatars sit in the same column, so
// the avatar lines up with the floor around it.
func TestCellsLineUp(t *testing.T) {
	r := newRig(t, client.Options{})
	r.advance(time.Second)
	if _, _, cellW, _ := r.boardBox(); cellW != 2 {
		t.Fatalf("want two columns a cell at 120x40, got %d", cellW)
	}
	floor := grid.Pos{X: 9, Y: 10}
	for _, p := range []grid.Pos{floor, spawn} {
		x, y, _ := r.ui.BoardCell(p)
		line := []rune(rows(r.screen)[y])
		if line[x] == ' ' || line[x+1] != ' ' {
			t.Errorf("cell %v drawn as %q: want its mark in the first column, the second blank", p, string(line[x:x+2]))
		}
	}
}

// Players are coloured by player, not by the first letter drawn, marked
// apart where their names share a first letter (bob b, ben e, bot-1 t:
// see roomMarks), and bots look apart from humans. (Two players of a
// room never share a name.)
func TestPlayersApart(t *testing.T) {
	r := newRig(t, client.Options{})
	r.world.Join("bob", client.Options{})
	r.world.Join("ben", client.Options{})
	r.world.Join("bot-1", client.Options{Bot: true})
	r.advance(time.Second)
	styles := map[string][]tcell.Style{}
	want := map[string]string{"bob": "b", "ben": "e", "bot-1": "t"}
	for _, o := range r.me.View().Others {
		s, st := r.cell(o.Pos)
		if s != want[o.Name] {
			t.Fatalf("%s drawn as %q, want %q", o.Name, s, want[o.Name])
		}
		styles[o.Name] = append(styles[o.Name], st)
	}
	bobs, bot := append(styles["bob"], styles["ben"]...), styles["bot-1"]
	if len(bobs) != 2 || len(bot) != 1 {
		t.Fatalf("players drawn: %v", styles)
	}
	if fg(bobs[0]) == fg(bobs[1]) {
		t.Errorf("bob and ben share the colour %v", fg(bobs[0]))
	}
	_, botBg, _ := bot[0].Decompose()
	_, bobBg, _ := bobs[0].Decompose()
	if botBg == bobBg || botBg == tcell.ColorDefault {
		t.Errorf("the bot (%v) is drawn like a human (%v)", bot[0], bobs[0])
	}
	r.char('?')
	r.mustShow("a bot")
}

// A click that tview would report as a double click (the second of two
// within half a second) flips a toggle too.
func TestDoubleClickFlipsAgain(t *testing.T) {
	r := newRig(t, client.Options{})
	x, y := r.mustFind("[x] interpolation")
	r.mouse(tview.MouseLeftClick, x+1, y, 0)
	if r.me.View().Interpolate {
		t.Fatal("a click did not turn interpolation off")
	}
	r.mouse(tview.MouseLeftDoubleClick, x+1, y, 0)
	if !r.me.View().Interpolate {
		t.Fatal("a double click did not turn interpolation back on")
	}
	r.mustShow("[x] interpolation")
}

// While the client comes back after a drop, the title line says so, and
// stops saying it once the connection is back.
func TestReconnectingShowsOnTheTitle(t *testing.T) {
	s := newStubSession(client.View{Name: "alice", Map: grid.DefaultMap(), HasState: true, Predicted: spawn, Server: spawn, Reconnecting: true})
	r := newSessionRig(t, s, 80, 24)
	r.ui.Frame()
	if !strings.Contains(rows(r.screen)[0], "reconnecting...") {
		t.Errorf("title %q: want reconnecting...", rows(r.screen)[0])
	}
	s.view.Reconnecting, s.view.Connected = false, true
	r.ui.Frame()
	r.mustNotShow("reconnecting")
}

// The invitation of a local game that serves SSH is on the top line: after
// the title on a wide screen, alone (before the player's name) at 80x24;
// a restart notice goes before it.
func TestInviteShowsOnTheTitle(t *testing.T) {
	s := newStubSession(client.View{Name: "alice", Map: grid.DefaultMap(), HasState: true, Predicted: spawn, Server: spawn})
	for _, c := range []struct {
		w, h   int
		notice string
		want   string
	}{
		{200, 60, "", "gridlag — embedded server 127.0.0.1:7777  ·  friends join: ssh -p 2222 192.168.1.5  ·  playing as alice"},
		{80, 24, "", "friends: ssh -p 2222 192.168.1.5"},
		{80, 24, "server stopping in 10 s", "server stopping in 10 s"},
	} {
		s.view.Notice = c.notice
		scr := newScreen(t, c.w, c.h)
		ui := tui.New(scr, s, tui.Options{Title: "gridlag — embedded server 127.0.0.1:7777", Invite: "ssh -p 2222 192.168.1.5"})
		ui.Frame()
		if top := strings.TrimSpace(strings.Trim(rows(scr)[0], "█ ")); !strings.HasSuffix(top, c.want) {
			t.Errorf("%dx%d, notice %q: top line %q, want it to end %q", c.w, c.h, c.notice, rows(scr)[0], c.want)
		}
	}
}
