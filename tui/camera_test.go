package tui_test

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/server/world"
	"gridlag/tui"
)

// openMap returns a w x h map of floor.
func openMap(t *testing.T, w, h int) *grid.Map {
	t.Helper()
	m, err := grid.ParseMap(strings.Repeat(strings.Repeat(".", w)+"\n", h))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestCameraFollowsThePlayer: on an 80x24 board and a 300x200 map the
// player walking right across the map, then down, stays on the board at
// every step, drawn where the board says its cell is; a player next to it
// is drawn too; and the camera moves by chunks, not at every step.
func TestCameraFollowsThePlayer(t *testing.T) {
	scr := newScreen(t, 80, 24)
	v := &client.View{Map: openMap(t, 300, 200), HasState: true, Predicted: grid.Pos{X: 2, Y: 2}}
	b := tui.NewBoard(func() *client.View { return v })
	b.SetRect(0, 0, 80, 24)
	shifts, lastX, lastY := 0, -1, -1
	step := func(p grid.Pos) {
		t.Helper()
		v.Predicted, v.Server = p, p
		v.Others = []client.Other{{ID: 2, Name: "bob", Color: 1, Pos: grid.Pos{X: p.X, Y: p.Y + 1}}}
		scr.Clear()
		b.Draw(scr)
		x, y, ok := b.Cell(p)
		if !ok {
			t.Fatalf("the player at %v is off the board", p)
		}
		if s, _, _ := scr.Get(x, y); s != "@" {
			t.Fatalf("the player at %v is not drawn at its cell (%d,%d): %q", p, x, y, s)
		}
		if bx, by, ok := b.Cell(v.Others[0].Pos); !ok {
			t.Fatalf("bob next to the player at %v is off the board", p)
		} else if s, _, _ := scr.Get(bx, by); s != "b" {
			t.Fatalf("bob at %v drawn as %q", v.Others[0].Pos, s)
		}
		// the map's cell (0,0) shows where the camera is
		cx, cy := x-p.X, y-p.Y
		if cx != lastX || cy != lastY {
			shifts++
			lastX, lastY = cx, cy
		}
	}
	p := grid.Pos{X: 2, Y: 2}
	for ; p.X < 299; p.X++ {
		step(p)
	}
	for ; p.Y < 198; p.Y++ {
		step(p)
	}
	if steps := 297 + 196; shifts > steps/10 {
		t.Errorf("the camera moved %d times in %d steps, want it to move by chunks", shifts, steps)
	}
}

// TestBigMapPlaysAt80x24: a map far larger than the terminal is played
// through the board's camera, not refused as "terminal too small": at
// 80x24 the player is drawn, walks and stays on the board, and the status
// line says where it is on the map.
func TestBigMapPlaysAt80x24(t *testing.T) {
	r := newRigOn(t, world.Config{Rate: 20, Map: openMap(t, 300, 200), Spawn: grid.Pos{X: 150, Y: 100}}, client.Options{})
	r.resize(80, 24)
	r.advance(200 * time.Millisecond)
	r.mustNotShow("terminal too small")
	r.mustShow("you (150,100) of 300x200")
	for i := range 30 {
		r.key(tcell.KeyRight)
		r.advance(150 * time.Millisecond)
		if !r.avatarAt(grid.Pos{X: 151 + i, Y: 100}) {
			t.Fatalf("step %d: the avatar is not on the board at (%d,100):\n%s", i+1, 151+i, r.text())
		}
	}
	r.mustShow("you (180,100) of 300x200")
}
