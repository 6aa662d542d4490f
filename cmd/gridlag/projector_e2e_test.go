package main

import (
	"fmt"
	"strings"
	"testing"
)

// boardSpan returns the columns and rows a screen's walls span.
func boardSpan(screen string) (w, h int) {
	x0, y0, x1, y1 := -1, -1, -1, -1
	for y, row := range strings.Split(screen, "\n") {
		for x, r := range []rune(row) {
			if r != '█' {
				continue
			}
			if x0 < 0 || x < x0 {
				x0 = x
			}
			if y0 < 0 {
				y0 = y
			}
			x1, y1 = max(x1, x), y
		}
	}
	if x0 < 0 {
		return 0, 0
	}
	return x1 - x0 + 1, y1 - y0 + 1
}

// TestProjectorInTmux runs a real server whose own terminal teaches room
// 3b (gridlag teach 3b), with three bots in its default room, and real
// terminals: a projector of the default room at 160x45 (gridlag watch)
// shows the board over half the window, the round's clock and the
// scoreboard of the bots; a projector of room 3b at 160x45 (the old
// form, -connect -spectate -room 3b), where stud2 (a terminal player on a
// round trip of a second) and stud3 play, follows stud2 once the teacher
// presses f: it says so, stud2's screen says it is on the projector, and
// stud2's press of RIGHT shows on the projector as its avatar's cell and
// #1 → in its ledger, until the server's word.
func TestProjectorInTmux(t *testing.T) {
	t.Parallel() // the binary in a process of its own, mostly waited on: see TestMain
	if testing.Short() {
		t.Skip("end-to-end")
	}
	bin, addr, state, teacher := teacherInTmux(t, 120, 40, "teach 3b -addr ADDR -bots 3 -name hopper", "teaching", "room 3b", "Class")
	waitListening(t, addr)

	room := newTmux(t, 160, 45, fmt.Sprintf("XDG_STATE_HOME=%s %s watch %s; echo EXIT=$?; sleep 60", state, bin, addr))
	s := room.waitFor("Round 1 ", " left", "bot-1", "bot-2", "bot-3", "tick ")
	// tmux may show the screen halfway through a redraw (the words above
	// drawn, the board's last rows not yet): the board must come to span
	// over half the window, not in the first capture that has the words.
	room.waitUntil("a board over half of 160x45", func(screen string) bool {
		s = screen
		w, h := boardSpan(screen)
		return 2*w*h >= 160*45
	})
	t.Logf("the projector of the default room at 160x45:\n%s", s)

	stud2 := newTmux(t, 80, 24, fmt.Sprintf("XDG_STATE_HOME=%s %s play %s -room 3b -name stud2 -latency 1s; echo EXIT=$?; sleep 60", state, bin, addr))
	stud2.waitFor("▶ stud2", "you (")
	stud3 := newTmux(t, 80, 24, fmt.Sprintf("XDG_STATE_HOME=%s %s -connect %s -room 3b -name stud3; echo EXIT=$?; sleep 60", state, bin, addr))
	stud3.waitFor("▶ stud3", "you (")
	proj := newTmux(t, 160, 45, fmt.Sprintf("XDG_STATE_HOME=%s %s -connect %s -spectate -room 3b; echo EXIT=$?; sleep 60", state, bin, addr))
	proj.waitFor("room 3b", "2 stud2", "3 stud3", "Round 1 ")
	teacher.waitFor("stud2", "stud3")

	teacher.keys("f")
	teacher.waitFor("following stud2", "▸stud2")
	proj.waitFor("Following 2 stud2", "sees itself", "server said", "lag 1000ms", "Pending inputs 0")
	stud2.waitFor("on the projector: you")
	stud3.waitUntil("stud3 not told it is on the projector", func(s string) bool { return !strings.Contains(s, "on the projector") })

	stud2.keys("Right")
	s = proj.waitFor("Pending inputs 1", "#1     →", "sees itself ▶")
	t.Logf("the projector of room 3b following stud2, RIGHT pressed:\n%s", s)
	proj.waitFor("Pending inputs 0")

	for _, tm := range []*tmux{room, proj, stud2, stud3} {
		tm.keys("q")
		tm.waitFor("EXIT=0")
	}
	teacher.keys("q")
	teacher.waitFor("EXIT=0")
}
