package main

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"gridlag/server/admit/admittest"
)

// built are the binaries the tests built, once each per test process, by
// their build tags, in a directory TestMain removes.
var built struct {
	sync.Mutex
	dir  string
	bins map[string]string
}

// TestMain runs the tests, then removes the binaries they built. Run
// with measureEnv set, the test binary is instead the small parent
// measured runs a command through (see runMeasured).
func TestMain(m *testing.M) {
	if os.Getenv(measureEnv) != "" {
		os.Exit(measureChild(os.Args[1:]))
	}
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// buildBinary builds gridlag (with the build tags given, e.g.
// gridlag_stuck) the first time a test asks for it, and returns its path;
// the tests share it and must not change it.
func buildBinary(t *testing.T, tags ...string) string {
	t.Helper()
	built.Lock()
	defer built.Unlock()
	key := strings.Join(tags, ",")
	if bin, ok := built.bins[key]; ok {
		return bin
	}
	if built.dir == "" {
		dir, err := os.MkdirTemp("", "gridlag-test-bin-")
		if err != nil {
			t.Fatal(err)
		}
		built.dir, built.bins = dir, map[string]string{}
	}
	bin := filepath.Join(built.dir, fmt.Sprintf("gridlag%d", len(built.bins)))
	out, err := exec.Command("go", "build", "-tags", key, "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build -tags %q: %v\n%s", key, err, out)
	}
	built.bins[key] = bin
	return bin
}

// tmux drives one detached tmux session.
type tmux struct {
	t       *testing.T
	socket  string
	session string
}

func newTmux(t *testing.T, width, height int, command string) *tmux {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (.ci/run installs it)")
	}
	tm := &tmux{t: t, socket: filepath.Join(t.TempDir(), "tmux.sock"), session: "gridlag"}
	tm.run("new-session", "-d", "-s", tm.session, "-x", fmt.Sprint(width), "-y", fmt.Sprint(height), command)
	t.Cleanup(func() { exec.Command("tmux", "-S", tm.socket, "kill-server").Run() })
	return tm
}

func (tm *tmux) run(args ...string) string {
	tm.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", tm.socket}, args...)...).CombinedOutput()
	if err != nil {
		tm.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (tm *tmux) keys(keys ...string) {
	tm.run(append([]string{"send-keys", "-t", tm.session}, keys...)...)
}

func (tm *tmux) screen() string { return tm.run("capture-pane", "-p", "-t", tm.session) }

// waitFor polls the screen until every want appears, or fails as hung
// (admittest.Hung: a hang guard, not a bound on speed; a busy machine
// under -race may take seconds over a step the virtual-clock tests pin).
func (tm *tmux) waitFor(want ...string) string {
	tm.t.Helper()
	var s string
	admittest.Eventually(tm.t, func() bool {
		s = tm.screen()
		for _, w := range want {
			if !strings.Contains(s, w) {
				return false
			}
		}
		return true
	}, func() string { return fmt.Sprintf("after %v the screen lacks %q:\n%s", admittest.Hung, want, s) })
	return s
}

// waitUntil polls the screen until ok says yes, or fails as hung saying
// what it waited for.
func (tm *tmux) waitUntil(what string, ok func(screen string) bool) {
	tm.t.Helper()
	var s string
	admittest.Eventually(tm.t, func() bool { s = tm.screen(); return ok(s) },
		func() string { return fmt.Sprintf("after %v, still no %s:\n%s", admittest.Hung, what, s) })
}

// TestPlayInTmux runs the real binary (embedded server, bots, 400 ms
// injected latency) in a real terminal of the smallest common size and of
// a large one, presses RIGHT, then Space, and reads the screen.
func TestPlayInTmux(t *testing.T) {
	t.Parallel() // the binary in a process of its own, mostly waited on: see TestMain
	if testing.Short() {
		t.Skip("end-to-end")
	}
	bin := buildBinary(t)
	for _, size := range []struct{ w, h int }{{80, 24}, {200, 60}} {
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) { playInTmux(t, bin, size.w, size.h) })
	}
}

// playInTmux plays the binary in a w x h terminal.
func playInTmux(t *testing.T, bin string, w, h int) {
	state := t.TempDir()
	// No bots: they zap whoever stands in their line, and a frozen
	// player's presses move nothing, which is not what this test is about.
	cmd := fmt.Sprintf("XDG_STATE_HOME=%s %s -name ada -latency 400ms -bots 0; echo EXIT=$?; sleep 60", state, bin)
	tm := newTmux(t, w, h, cmd)
	tm.waitFor("████", "you (10,10)  server (10,10)", "[x] prediction", "Pending inputs", "last ack #0")

	// The predicted move shows before any answer: the screen has the
	// player at (11,10) while the server still says (10,10). That it
	// shows on the very next frame is pinned on the virtual clock
	// (tui's TestPredictionMovesOnTheNextFrame): here, on the wall clock
	// of a busy machine, the test asserts no "within".
	tm.keys("Right")
	s := tm.waitFor("you (11,10)  server (10,10)")
	if !strings.Contains(s, "#1") || !strings.Contains(s, "pending 1") {
		t.Fatalf("#1 not in the ledger:\n%s", s)
	}
	t.Logf("%dx%d, RIGHT pressed:\n%s", w, h, s)
	tm.waitFor("you (11,10)  server (11,10)", "last ack #1", "pending 0")

	// Prediction off: the next move waits for the server.
	tm.keys("p")
	tm.waitFor("[ ] prediction")
	tm.keys("Right")
	tm.waitFor("pending 1")
	if s := tm.screen(); !strings.Contains(s, "you (11,10)") {
		t.Fatalf("without prediction the avatar moved before the server answered:\n%s", s)
	}
	tm.waitFor("you (12,10)  server (12,10)")

	// Space zaps to the right, where nobody stands: the zap waits in the
	// ledger (a whole second: the round trip goes up to 1s first, so that
	// a busy machine's captures see it), then the server's verdict shows
	// in the panel, beside the round and the scoreboard.
	tm.keys(slices.Repeat([]string{"]"}, 12)...)
	tm.waitFor("1000ms")
	tm.keys("Space")
	tm.waitFor("#3     zap")
	tm.waitFor("miss: ", "pending 0", "Round 1 ", " 1 ▶ ada")

	tm.keys("q")
	tm.waitFor("EXIT=0")
	log, err := os.ReadFile(filepath.Join(state, "gridlag", "gridlag.log"))
	if err != nil || !strings.Contains(string(log), "playing") {
		t.Fatalf("log file: %v\n%s", err, log)
	}
}

// TestInstrumentsInTmux runs the real binary at 80x24 (embedded server,
// 400 ms injected): t opens the waterfall and a press shows as #1 with
// its stages, the server's included, once the server's answer comes; g
// opens the net graph and closes it; b shows the budget.
func TestInstrumentsInTmux(t *testing.T) {
	t.Parallel() // the binary in a process of its own, mostly waited on: see TestMain
	if testing.Short() {
		t.Skip("end-to-end")
	}
	bin := buildBinary(t)
	cmd := fmt.Sprintf("XDG_STATE_HOME=%s %s -name ada -latency 400ms -bots 0; echo EXIT=$?; sleep 60", t.TempDir(), bin)
	tm := newTmux(t, 80, 24, cmd)
	tm.waitFor("you (10,10)  server (10,10)")
	tm.keys("t")
	tm.waitFor("Waterfall", "no input yet")
	tm.keys("Right")
	tm.waitFor("you (11,10)  server (11,10)")
	acked := time.Now()
	s := tm.waitFor("#1 →", "#1 →: pressed 0", "sent 0", "arrived 2", "applied 2", "ack sent", "acked 4", "prediction right")
	t.Logf("the waterfall %v after the acknowledgement showed:\n%s", time.Since(acked), s)
	tm.keys("g")
	s = tm.waitFor("Net graph", "round trip", "bytes in/s", "States/s", "interp delay", "since the start")
	t.Logf("the net graph:\n%s", s)
	tm.keys("g")
	tm.waitFor("Pending inputs")
	tm.keys("b")
	tm.waitFor("Latency budget", "one-way up", "latency 400 ms ÷ 2", "prediction hides")
	tm.keys("q")
	tm.waitFor("EXIT=0")
}

// TestTooSmallInTmux: a small terminal gets a clear message, and the game
// comes back when it grows.
func TestTooSmallInTmux(t *testing.T) {
	t.Parallel() // the binary in a process of its own, mostly waited on: see TestMain
	if testing.Short() {
		t.Skip("end-to-end")
	}
	bin := buildBinary(t)
	cmd := fmt.Sprintf("XDG_STATE_HOME=%s %s -name ada -bots 0; echo EXIT=$?; sleep 60", t.TempDir(), bin)
	tm := newTmux(t, 50, 15, cmd)
	tm.waitFor("too small: need 76x24, have 50x15")
	tm.run("resize-window", "-t", tm.session, "-x", "120", "-y", "40")
	tm.waitFor("you (10,10)")
	tm.keys("C-c")
	tm.waitFor("EXIT=0")
}

// TestLabInTmux runs `gridlag lab` at 160x45 with a one-second round
// trip for Player 1 (half a second each way): RIGHT moves Player 1's own
// avatar at once, the server's board has the move only after the way up,
// and Player 2's board shows Player 1 moving later still. It asserts the
// order in which the screen shows them, not how fast.
func TestLabInTmux(t *testing.T) {
	t.Parallel() // the binary in a process of its own, mostly waited on: see TestMain
	if testing.Short() {
		t.Skip("end-to-end")
	}
	bin := buildBinary(t)
	state := t.TempDir()
	cmd := fmt.Sprintf("XDG_STATE_HOME=%s %s lab -latency 1000ms; echo EXIT=$?; sleep 60", state, bin)
	tm := newTmux(t, 160, 45, cmd)
	tm.waitFor("Player 1", "Server", "Player 2", "Player 1 (10,10) ack #0", "you (10,10)", "you (14,10)")
	// Player 2's board is the right third: map cell (x,y) is at column
	// 120+x, row 2+y; Player 1 is drawn 1 on every board.
	p2Sees := func(s string, x int) bool {
		lines := strings.Split(s, "\n")
		return len(lines) > 12 && len([]rune(lines[12])) > 120+x && []rune(lines[12])[120+x] == '1'
	}
	tm.waitUntil("Player 2's board shows Player 1 at (10,10)", func(s string) bool { return p2Sees(s, 10) })

	tm.keys("Right")
	// Each capture shows a prefix of the three, in this order; the first
	// to show Player 1's own move does not show the server's yet (half a
	// second away).
	steps := []func(s string) bool{
		func(s string) bool { return strings.Contains(s, "you (11,10)") },
		func(s string) bool { return strings.Contains(s, "Player 1 (11,10) ack #1") },
		func(s string) bool { return p2Sees(s, 11) },
	}
	first := true
	tm.waitUntil("the move on all three boards", func(s string) bool {
		shown := 0
		for shown < len(steps) && steps[shown](s) {
			shown++
		}
		for _, later := range steps[shown:] {
			if later(s) {
				t.Fatalf("the move showed out of order (only the first %d of own, server, Player 2 before):\n%s", shown, s)
			}
		}
		if first && shown > 0 {
			first = false
			if shown > 1 {
				t.Fatalf("the server had the move as soon as Player 1 saw it:\n%s", s)
			}
		}
		return shown == len(steps)
	})
	// Enter zaps for Player 1; the server's board says how it judged it.
	tm.keys("Enter")
	tm.waitFor("zap Player 1: ")
	tm.keys("q")
	tm.waitFor("EXIT=0")
}

// freeAddr returns a loopback address with a port free a moment ago.
// startServerBinary runs bin -server on addr with args, waits until it
// listens, and stops it when the test ends. It drains for no time: a
// drain would only make every test's cleanup wait for it.
func startServerBinary(t *testing.T, bin, addr string, args ...string) {
	t.Helper()
	args = append([]string{"-server", "-addr", addr, "-drain", "0s", "-log", filepath.Join(t.TempDir(), "server.log")}, args...)
	srv := exec.Command(bin, args...)
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		srv.Process.Signal(os.Interrupt)
		srv.Wait()
	})
	waitListening(t, addr)
}

// waitListening waits until addr takes connections, or fails as hung.
func waitListening(t *testing.T, addr string) {
	t.Helper()
	var err error
	admittest.Eventually(t, func() bool {
		var c net.Conn
		if c, err = net.Dial("tcp", addr); err == nil {
			c.Close()
		}
		return err == nil
	}, func() string { return fmt.Sprintf("the server does not listen on %s: %v", addr, err) })
}

// freeAddr returns a loopback address nothing listens on.
func freeAddr(t *testing.T) string { return admittest.FreeAddr(t) }

// TestSpectateInTmux runs a real server with three bots and watches it
// with `gridlag -connect ... -spectate` in a real terminal: each bot has a
// line `NAME (x,y) ack #N`, and the ack numbers go up as they walk.
func TestSpectateInTmux(t *testing.T) {
	t.Parallel() // the binary in a process of its own, mostly waited on: see TestMain
	if testing.Short() {
		t.Skip("end-to-end")
	}
	bin := buildBinary(t)
	addr := freeAddr(t)
	startServerBinary(t, bin, addr, "-bots", "3")
	cmd := fmt.Sprintf("XDG_STATE_HOME=%s %s -connect %s -spectate; echo EXIT=$?; sleep 60", t.TempDir(), bin, addr)
	tm := newTmux(t, 120, 40, cmd)
	tm.waitFor("3 players", "bot-1 (", "bot-2 (", "bot-3 (", "updates 20/s")
	if s := tm.screen(); strings.Contains(s, "@") {
		t.Fatalf("the spectator has an avatar:\n%s", s)
	}
	line := regexp.MustCompile(`(bot-\d) \(\d+,\d+\) ack #(\d+)`)
	acks := func(s string) map[string]int {
		out := map[string]int{}
		for _, m := range line.FindAllStringSubmatch(s, -1) {
			out[m[1]], _ = strconv.Atoi(m[2])
		}
		return out
	}
	first := acks(tm.screen())
	tm.waitUntil("every bot's ack number going up", func(s string) bool {
		now := acks(s)
		for _, b := range []string{"bot-1", "bot-2", "bot-3"} {
			if now[b] <= first[b] {
				return false
			}
		}
		return true
	})
	tm.keys("q")
	tm.waitFor("EXIT=0")
}
