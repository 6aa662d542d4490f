package tui_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/tui"
)

// fakeWatch is a spectator's connection whose view the test sets.
type fakeWatch struct {
	view    client.WorldView
	changed chan struct{}
	done    chan struct{}
}

func (f *fakeWatch) View() client.WorldView   { return f.view }
func (f *fakeWatch) Changed() <-chan struct{} { return f.changed }
func (f *fakeWatch) Done() <-chan struct{}    { return f.done }

// spectateRig is the spectator's screen on a simulated terminal.
type spectateRig struct {
	simTerm
	watch *fakeWatch
	s     *tui.SpectateScreen
}

func newSpectateRig(t *testing.T, w, h int) *spectateRig {
	t.Helper()
	scr := newScreen(t, w, h)
	fw := &fakeWatch{changed: make(chan struct{}, 1), done: make(chan struct{}), view: client.WorldView{
		Connected: true, Map: grid.DefaultMap(), Rate: 20, Tick: 42, Total: 2,
		Players: []client.WorldPlayer{
			{ID: 1, Name: "ada", Color: 1, Pos: grid.Pos{X: 10, Y: 10}, Ack: 7, RTT: 48 * time.Millisecond, HasRTT: true},
			{ID: 2, Name: "bot-1", Color: 2, Bot: true, Pos: grid.Pos{X: 3, Y: 1}, Ack: 12},
		},
	}}
	r := &spectateRig{simTerm: simTerm{t, scr}, watch: fw, s: tui.NewSpectateScreen(scr, fw, tui.Options{})}
	r.s.Frame()
	return r
}

// TestSpectateScreen: the spectator sees every player where the server
// has them, by their marks, with a line each beside the board, its mark
// then `NAME (x,y) ack #N` and the round trip once measured, then the
// tick and the rate (a server of version 5 sends it no scoreboard); no
// avatar.
func TestSpectateScreen(t *testing.T) {
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		r := newSpectateRig(t, size[0], size[1])
		r.mustShow("2 players", "a ada   (10,10) ack #7  rtt 48ms", "b bot-1 (3,1)   ack #12", "tick 42  updates 20/s", "q quit")
		if strings.Contains(r.text(), "@") {
			t.Fatalf("%v: the spectator has an avatar:\n%s", size, r.text())
		}
		var line string
		for _, row := range rows(r.screen) {
			if strings.Contains(row, "ada   (10,10)") {
				line = row
			}
		}
		if !strings.Contains(line, "█") {
			t.Fatalf("%v: the lines are not beside the map:\n%s", size, r.text())
		}
	}
	r := newSpectateRig(t, 120, 40)
	r.watch.view.Players[0].Pos, r.watch.view.Players[0].Ack = grid.Pos{X: 11, Y: 10}, 8
	r.s.Frame()
	r.mustShow("ada   (11,10) ack #8")
	r.s.HandleKey(tcell.NewEventKey(tcell.KeyRune, 'q', tcell.ModNone))
	if !r.s.QuitAsked() {
		t.Fatal("q did not quit")
	}
}

// TestSpectateScreenEnded: when the connection ends the title says why,
// and any key quits.
func TestSpectateScreenEnded(t *testing.T) {
	r := newSpectateRig(t, 120, 40)
	r.watch.view.Err, r.watch.view.Connected = errors.New("too many spectators"), false
	close(r.watch.done)
	r.s.Frame()
	r.mustShow("ended: too many spectators")
	r.s.HandleKey(tcell.NewEventKey(tcell.KeyRune, 'x', tcell.ModNone))
	if !r.s.QuitAsked() {
		t.Fatal("a key after the end did not quit")
	}
}

// TestSpectateBigMap: a map larger than the terminal is watched through
// the board's camera, looking at the map's middle first; the arrows look
// around it by a third of the board at a time.
func TestSpectateBigMap(t *testing.T) {
	r := newSpectateRig(t, 80, 24)
	r.watch.view.Map = openMap(t, 300, 200)
	r.watch.view.Players[0].Pos = grid.Pos{X: 150, Y: 100} // ada, in the middle
	r.s.Frame()
	if strings.Contains(r.text(), "too small") || !strings.Contains(r.text(), "a") {
		t.Fatalf("a 300x200 map at 80x24:\n%s", r.text())
	}
	ada := func() bool { // on the board, left of the panel
		for _, row := range rows(r.screen)[1:23] {
			if strings.Contains(row[:80-1-34], "a") {
				return true
			}
		}
		return false
	}
	if !ada() {
		t.Fatalf("ada in the map's middle is not on the board:\n%s", r.text())
	}
	key := func(k tcell.Key, n int) {
		for range n {
			r.s.HandleKey(tcell.NewEventKey(k, 0, tcell.ModNone))
			r.s.Frame()
		}
	}
	key(tcell.KeyLeft, 4)
	if ada() {
		t.Fatalf("after looking left ada is still on the board:\n%s", r.text())
	}
	key(tcell.KeyRight, 4)
	if !ada() {
		t.Fatalf("after looking back ada is not on the board:\n%s", r.text())
	}
}

// TestSpectateManyPlayers: when the players' lines do not all fit, the
// last row says how many more there are (the summary counted among
// them); when the server lists fewer players than it has, the summary
// says so.
func TestSpectateManyPlayers(t *testing.T) {
	r := newSpectateRig(t, 120, 40)
	var many []client.WorldPlayer
	for i := range 50 {
		many = append(many, client.WorldPlayer{ID: grid.PlayerID(i + 1), Name: fmt.Sprintf("p%d", i+1), Pos: grid.Pos{X: 1, Y: 1}})
	}
	r.watch.view.Players, r.watch.view.Total = many, 50
	r.s.Frame()
	r.mustShow("p36 (1,1)", "… and 15 more")
	r.mustNotShow("p37 (1,1)")
	r.mustNotShow("tick 42")

	r.watch.view.Players, r.watch.view.Total = many[:3], 60
	r.s.Frame()
	r.mustShow("p3 (1,1)", "60 online", "tick 42  updates 20/s  players 60")
}

// TestSpectatorShowsTheDrain: the server's notice (a drain's countdown)
// leads the spectator's top line, as a player's; once the server stopped
// the line says so instead.
func TestSpectatorShowsTheDrain(t *testing.T) {
	r := newSpectateRig(t, 80, 24)
	r.watch.view.Notice = "server stopping in 6 s"
	r.s.Frame()
	r.mustShow("server stopping in 6 s  ·  gridlag — spectating  ·  2 players")
	r.watch.view.Notice = "server stopping in 5 s"
	r.s.Frame()
	r.mustShow("server stopping in 5 s")
	r.watch.view.Err, r.watch.view.Connected = client.ErrServerStopped, false
	close(r.watch.done)
	r.s.Frame()
	r.mustShow("ended: server stopped")
	if strings.Contains(r.text(), "stopping in") {
		t.Errorf("the countdown still shows after the stop:\n%s", r.text())
	}
}

// TestSpectateNarrow: on a screen too narrow for the panel beside the
// board (a phone's, 50x40), the panel goes under it.
func TestSpectateNarrow(t *testing.T) {
	r := newSpectateRig(t, 50, 40)
	r.mustNotShow("too small")
	r.mustShow("a ada   (10,10) ack #7", "tick 42  updates 20/s")
	var board, line int
	for y, row := range rows(r.screen) {
		if strings.Contains(row, "████████") && board == 0 {
			board = y
		}
		if strings.Contains(row, "ada   (10,10)") {
			line = y
		}
	}
	if line <= board+22 {
		t.Fatalf("the lines are not under the board (rows %d and %d):\n%s", board, line, r.text())
	}
}
