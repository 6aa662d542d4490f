package main

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"gridlag/client"
	"gridlag/client/tcp"
	"gridlag/server/admit/admittest"
)

// classSize is the class the README's set-up is for: forty students.
const classSize = 40

// TestClassOfFortyOverOpenSSH: a server started with the default flags
// and -bots 3 (only its addresses chosen), and forty real OpenSSH clients
// in real terminals, each from its own loopback address (ssh -b
// 127.0.0.N), as forty students on their own machines: every one joins,
// counted as its own address (the log's join names it), and all forty
// play at once beside the three bots: a spectator sees 43 players, and
// each student's RIGHT is acknowledged.
func TestClassOfFortyOverOpenSSH(t *testing.T) {
	t.Parallel() // the binary in a process of its own, mostly waited on: see TestMain
	sv := startSSHServerBinary(t, "-bots", "3", "-drain", "0s")
	dir, gameAddr, sshAddr, logs := sv.dir, sv.gameAddr, sv.sshAddr, sv.logs
	waitLog := func(what string, ok func(log string) bool) { t.Helper(); sv.waitLog(t, what, ok) }

	socket := filepath.Join(dir, "tmux.sock")
	tmux := func(args ...string) string {
		t.Helper()
		out, err := exec.Command("tmux", append([]string{"-S", socket, "-f", "/dev/null"}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	t.Cleanup(func() { exec.Command("tmux", "-S", socket, "kill-server").Run() })
	host, port := strings.Split(sshAddr, ":")[0], strings.Split(sshAddr, ":")[1]
	ssh := opensshLine(port)
	joined := regexp.MustCompile(`join room="" id=\d+ name=(s\d+) bot=false remote=127\.0\.0\.(\d+):`)
	students := func(log string) map[string]string {
		out := map[string]string{}
		for _, m := range joined.FindAllStringSubmatch(log, -1) {
			out[m[1]] = m[2]
		}
		return out
	}
	// Ten at a time, as a class comes in: a crowd of handshakes at once
	// meets -ssh-handshakes (32), which tells the rest to try again.
	for first := 1; first <= classSize; first += 10 {
		last := min(first+9, classSize)
		for n := first; n <= last; n++ {
			name := fmt.Sprintf("s%d", n)
			tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24",
				fmt.Sprintf("%s -b 127.0.0.%d %s@%s; echo EXIT=$?; sleep 120", ssh, n+1, name, host))
		}
		waitLog(fmt.Sprintf("the joins of students %d to %d", first, last), func(log string) bool { return len(students(log)) >= last })
	}
	for name, addr := range students(logs.String()) {
		if want := fmt.Sprint(mustAtoi(t, name[1:]) + 1); addr != want {
			t.Errorf("%s joined from 127.0.0.%s, want 127.0.0.%s: its SSH connection's address", name, addr, want)
		}
	}
	if strings.Contains(logs.String(), "too many") {
		t.Errorf("the server refused someone for a per-address cap:\n%s", logs)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	w, err := tcp.ConnectSpectator(ctx, gameAddr, tcp.Options{Options: client.Options{Name: "projector"}})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	acks := func() (total int, acked map[string]uint32) {
		v := w.View()
		acked = map[string]uint32{}
		for _, p := range v.Players {
			acked[p.Name] = p.Ack
		}
		return v.Total, acked
	}
	var (
		before map[string]uint32
		total  int
	)
	admittest.Eventually(t, func() bool {
		total, before = acks()
		if ctx.Err() != nil {
			t.Fatalf("the spectator sees %d players, want %d students and 3 bots", total, classSize)
		}
		return total == classSize+3
	}, func() string {
		return fmt.Sprintf("the spectator sees %d players, want %d students and 3 bots", total, classSize)
	})
	for n := 1; n <= classSize; n++ {
		tmux("send-keys", "-t", fmt.Sprintf("s%d", n), "Right")
	}
	var waiting []string
	admittest.Eventually(t, func() bool {
		var acked map[string]uint32
		total, acked = acks()
		waiting = nil
		for n := 1; n <= classSize; n++ {
			name := fmt.Sprintf("s%d", n)
			if acked[name] <= before[name] {
				waiting = append(waiting, name)
			}
		}
		return len(waiting) == 0 && total == classSize+3
	}, func() string {
		return fmt.Sprintf("%d players online; no RIGHT acknowledged for %v; s1's screen:\n%s", total, waiting, tmux("capture-pane", "-p", "-t", "s1"))
	})
	t.Logf("s1's screen with the class playing:\n%s", tmux("capture-pane", "-p", "-t", "s1"))
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	var n int
	if _, err := fmt.Sscan(s, &n); err != nil {
		t.Fatal(err)
	}
	return n
}
