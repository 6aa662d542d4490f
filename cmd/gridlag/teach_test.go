package main

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestTeachHereInTmux: the server's own terminal teaches (-server -teach
// ROOM), in a real terminal of 80x24, while a TCP student plays in the
// room in another: six presses of ] set 300 ms, and the student's round
// trip, on its own screen and in the teacher's class list, goes from
// about 0 to about 300 ms, its top line saying what the teacher set; q
// ends the teacher's screen and stops the server (exit 0), and the
// student is told so.
func TestTeachHereInTmux(t *testing.T) {
	t.Parallel() // the binary in a process of its own, mostly waited on: see TestMain
	if testing.Short() {
		t.Skip("end-to-end")
	}
	bin, addr, state, teacher := teacherInTmux(t, 80, 24, "-server -addr ADDR -teach lecture -name hopper",
		"teaching", "room lecture", "latency [-]    0ms [+]")
	student := newTmux(t, 80, 24, fmt.Sprintf("XDG_STATE_HOME=%s %s -connect %s -room lecture -name ada; echo EXIT=$?; sleep 60", state, bin, addr))
	student.waitFor("teacher: no added lag")
	rtt := regexp.MustCompile(`rtt (\d+)ms`)
	class := regexp.MustCompile(`ada +(\d+)ms`)
	ms := func(re *regexp.Regexp, screen string) int {
		m := re.FindStringSubmatch(screen)
		if m == nil {
			return -1
		}
		n, _ := strconv.Atoi(m[1])
		return n
	}
	teacher.waitUntil("ada in the class list", func(s string) bool { return ms(class, s) >= 0 })
	if got := ms(rtt, student.screen()); got >= 250 {
		t.Fatalf("the student's round trip is %d ms before the teacher set any", got)
	}
	for range 6 {
		teacher.keys("]")
	}
	teacher.waitFor("latency [-]  300ms [+] 150ms each way")
	about300 := func(n int) bool { return n >= 290 && n < 400 }
	student.waitUntil("a round trip of about 300 ms on the student's screen", func(s string) bool { return about300(ms(rtt, s)) })
	student.waitFor("teacher: 300ms round trip", "+ teacher's 300ms round trip")
	teacher.waitUntil("ada's round trip of about 300 ms in the class list", func(s string) bool { return about300(ms(class, s)) })

	teacher.keys("q")
	teacher.waitFor("EXIT=0")
	student.waitFor("gridlag: server stopped", "EXIT=0")
}

// teacherInTmux runs the real binary in a tmux of w x h as a server whose
// own terminal teaches, with the command line args (ADDR in it is the
// server's address, free on loopback), no drain and a log of its own,
// and waits until the teacher's screen shows want. The test's clients
// share state as their XDG_STATE_HOME.
func teacherInTmux(t *testing.T, w, h int, args string, want ...string) (bin, addr, state string, teacher *tmux) {
	t.Helper()
	bin, addr, state = buildBinary(t), freeAddr(t), t.TempDir()
	teacher = newTmux(t, w, h, fmt.Sprintf("XDG_STATE_HOME=%s %s %s -drain 0s -log %s; echo EXIT=$?; sleep 60",
		state, bin, strings.ReplaceAll(args, "ADDR", addr), filepath.Join(t.TempDir(), "server.log")))
	teacher.waitFor(want...)
	return bin, addr, state, teacher
}
