package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// buildBinary builds gridlag into a temporary directory.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "gridlag")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
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

// waitFor polls the screen until every want appears, or fails after d.
func (tm *tmux) waitFor(d time.Duration, want ...string) string {
	tm.t.Helper()
	deadline := time.Now().Add(d)
	for {
		s := tm.screen()
		ok := true
		for _, w := range want {
			if !strings.Contains(s, w) {
				ok = false
			}
		}
		if ok {
			return s
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("after %v the screen lacks %q:\n%s", d, want, s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestPlayInTmux runs the real binary (embedded server, bots, 400 ms
// injected latency) in a real terminal, presses RIGHT, and reads the screen.
func TestPlayInTmux(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	bin := buildBinary(t)
	state := t.TempDir()
	// No bots: they zap whoever stands in their line, and a frozen
	// player's presses move nothing, which is not what this test is about.
	cmd := fmt.Sprintf("XDG_STATE_HOME=%s %s -name ada -latency 400ms -bots 0; echo EXIT=$?; sleep 60", state, bin)
	tm := newTmux(t, 120, 40, cmd)
	tm.waitFor(10*time.Second, "you (10,10)  server (10,10)", "[x] prediction", "last ack #0")

	tm.keys("Right")
	pressed := time.Now()
	s := tm.waitFor(2*time.Second, "you (11,10)  server (10,10)")
	if time.Since(pressed) > 350*time.Millisecond {
		t.Fatalf("the predicted move showed after %v, with a 400 ms round trip it must show before any answer", time.Since(pressed))
	}
	if !strings.Contains(s, "#1") {
		t.Fatalf("#1 not in the ledger:\n%s", s)
	}
	tm.waitFor(3*time.Second, "you (11,10)  server (11,10)", "last ack #1", "pending 0")

	// Prediction off: the next move waits for the server.
	tm.keys("p")
	tm.waitFor(2*time.Second, "[ ] prediction")
	tm.keys("Right")
	tm.waitFor(2*time.Second, "pending 1")
	if s := tm.screen(); !strings.Contains(s, "you (11,10)") {
		t.Fatalf("without prediction the avatar moved before the server answered:\n%s", s)
	}
	tm.waitFor(3*time.Second, "you (12,10)  server (12,10)")

	tm.keys("q")
	tm.waitFor(5*time.Second, "EXIT=0")
	log, err := os.ReadFile(filepath.Join(state, "gridlag", "gridlag.log"))
	if err != nil || !strings.Contains(string(log), "playing") {
		t.Fatalf("log file: %v\n%s", err, log)
	}
}

// TestTooSmallInTmux: a small terminal gets a clear message, and the game
// comes back when it grows.
func TestTooSmallInTmux(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	bin := buildBinary(t)
	cmd := fmt.Sprintf("XDG_STATE_HOME=%s %s -name ada -bots 0; echo EXIT=$?; sleep 60", t.TempDir(), bin)
	tm := newTmux(t, 50, 15, cmd)
	tm.waitFor(10*time.Second, "too small")
	tm.run("resize-window", "-t", tm.session, "-x", "120", "-y", "40")
	tm.waitFor(5*time.Second, "you (10,10)")
	tm.keys("C-c")
	tm.waitFor(5*time.Second, "EXIT=0")
}
