package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"gridlag/server/admit/admittest"
)

// TestDrainInTmux: a server with SSH and bots, run with -drain 6s, and on
// it, each in a real terminal, a TCP spectator (-connect -spectate), an
// SSH spectator (ssh host spectate), a TCP player and an SSH player. On
// SIGTERM every one of them shows the countdown, "server stopping in 6 s"
// down to "1 s", while the game goes on; when the server closes each
// says "server stopped" and exits with status 0.
func TestDrainInTmux(t *testing.T) {
	t.Parallel() // the binary in a process of its own, mostly waited on: see TestMain
	sv := startSSHServerBinary(t, "-bots", "3", "-drain", "6s")
	dir, gameAddr, sshAddr, bin := sv.dir, sv.gameAddr, sv.sshAddr, sv.bin

	socket := filepath.Join(dir, "tmux.sock")
	t.Cleanup(func() { exec.Command("tmux", "-S", socket, "kill-server").Run() })
	pane := func(name, command string) *tmux {
		tm := &tmux{t: t, socket: socket, session: name}
		tm.run("-f", "/dev/null", "new-session", "-d", "-s", name, "-x", "100", "-y", "30", command+"; echo EXIT=$?; sleep 60")
		return tm
	}
	host, port, _ := strings.Cut(sshAddr, ":")
	ssh := opensshLine(port, "-t") + " "
	gridlag := fmt.Sprintf("XDG_STATE_HOME=%s %s -connect %s ", dir, bin, gameAddr)
	panes := []*tmux{
		pane("tcp-spectator", gridlag+"-spectate"),
		pane("ssh-spectator", ssh+"projector@"+host+" spectate"),
		pane("tcp-player", gridlag+"-name ada"),
		pane("ssh-player", ssh+"bob@"+host),
	}
	panes[0].waitFor("players", "bot-1 (")
	panes[1].waitFor("players", "bot-1 (")
	panes[2].waitFor("playing as ada", "you (")
	panes[3].waitFor("playing as bob", "you (")

	sv.cmd.Process.Signal(syscall.SIGTERM)
	count := regexp.MustCompile(`server stopping in (\d) s`)
	seen := make([]map[string]bool, len(panes))
	for i := range seen {
		seen[i] = map[string]bool{}
	}
	over := func() bool {
		ended := 0
		for i, p := range panes {
			s := p.screen()
			if m := count.FindStringSubmatch(s); m != nil {
				seen[i][m[1]] = true
			}
			if strings.Contains(s, "EXIT=") {
				ended++
			}
		}
		return ended == len(panes)
	}
	admittest.Eventually(t, over, func() string {
		return fmt.Sprintf("not every client ended within %v of the drain's start; the TCP spectator:\n%s", admittest.Hung, panes[0].screen())
	})
	for i, p := range panes {
		s := p.screen()
		if !seen[i]["6"] || !seen[i]["1"] || len(seen[i]) < 4 {
			t.Errorf("%s showed the countdown at %v seconds, want it counting from 6 down to 1", p.session, seen[i])
		}
		if !strings.Contains(s, "gridlag: server stopped") || !strings.Contains(s, "EXIT=0") {
			t.Errorf("%s did not end with \"gridlag: server stopped\" and status 0:\n%s", p.session, s)
		}
	}
	if err := <-sv.exited; err != nil {
		t.Errorf("the server's exit: %v, want status 0", err)
	}
}

// sshServerBinary is the binary run as a server with SSH on loopback,
// its log, and where it keeps its files.
type sshServerBinary struct {
	bin, dir          string
	gameAddr, sshAddr string
	cmd               *exec.Cmd
	logs              *admittest.Log
	exited            chan error // its exit, once
}

// opensshLine is the command line of the real OpenSSH client for a
// test's server at port, then extra: no configuration, no host key kept,
// no key nor password offered (the server lets anyone play).
func opensshLine(port string, extra ...string) string {
	return strings.Join(append([]string{"ssh -F /dev/null -p " + port + " -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR" +
		" -o PubkeyAuthentication=no -o PasswordAuthentication=no"}, extra...), " ")
}

// startSSHServerBinary builds the binary and runs it as a server with
// SSH on loopback, with the default flags but args (and its addresses,
// host key and state directory), until the test ends; it waits until
// SSH listens. It skips the test without tmux or ssh.
func startSSHServerBinary(t *testing.T, args ...string) *sshServerBinary {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end")
	}
	for _, tool := range []string{"tmux", "ssh"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("end-to-end test needs %s, which is not installed", tool)
		}
	}
	sv := &sshServerBinary{bin: buildBinary(t), dir: t.TempDir(), gameAddr: freeAddr(t), sshAddr: freeAddr(t),
		logs: &admittest.Log{}, exited: make(chan error, 1)}
	sv.cmd = exec.Command(sv.bin, append([]string{"-server", "-addr", sv.gameAddr, "-ssh", sv.sshAddr,
		"-ssh-key", filepath.Join(sv.dir, "host_key")}, args...)...)
	sv.cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+sv.dir)
	sv.cmd.Stderr = sv.logs
	if err := sv.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { sv.exited <- sv.cmd.Wait() }()
	t.Cleanup(func() {
		sv.cmd.Process.Kill()
		if t.Failed() {
			t.Logf("server log:\n%s", sv.logs)
		}
	})
	sv.waitLog(t, "its start line", func(log string) bool { return strings.Contains(log, "gridlag server") && strings.Contains(log, "ssh=") })
	return sv
}

// waitLog waits until the server's log satisfies ok, or fails as hung.
func (sv *sshServerBinary) waitLog(t *testing.T, what string, ok func(log string) bool) {
	t.Helper()
	admittest.Eventually(t, func() bool { return ok(sv.logs.String()) }, func() string { return "the server never logged " + what })
}
