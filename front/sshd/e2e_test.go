package sshd

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"gridlag/server/admit/admittest"
)

// tmuxPane drives one pane of a private tmux server, as a player's
// terminal.
type tmuxPane struct {
	t      *testing.T
	socket string
	name   string
}

// requireTools skips the test when the real tools are missing.
func requireTools(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("end-to-end test needs %s, which is not installed (CI installs tmux and openssh-client)", tool)
		}
	}
}

func (p *tmuxPane) tmux(args ...string) (string, error) {
	cmd := exec.Command("tmux", append([]string{"-L", p.socket, "-f", "/dev/null"}, args...)...)
	cmd.Env = append(os.Environ(), "TMUX=")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// startPane runs shellCmd in a new detached w x h pane.
func startPane(t *testing.T, socket, name string, w, h int, shellCmd string) *tmuxPane {
	t.Helper()
	p := &tmuxPane{t: t, socket: socket, name: name}
	if out, err := p.tmux("new-session", "-d", "-s", name, "-x", strconv.Itoa(w), "-y", strconv.Itoa(h), shellCmd); err != nil {
		t.Fatalf("tmux new-session: %v: %s", err, out)
	}
	return p
}

func (p *tmuxPane) capture() string {
	out, err := p.tmux("capture-pane", "-p", "-t", p.name)
	if err != nil {
		p.t.Fatalf("tmux capture-pane: %v: %s", err, out)
	}
	return out
}

func (p *tmuxPane) keys(keys ...string) {
	if out, err := p.tmux(append([]string{"send-keys", "-t", p.name}, keys...)...); err != nil {
		p.t.Fatalf("tmux send-keys: %v: %s", err, out)
	}
}

// waitFor polls the pane until it shows every text.
func (p *tmuxPane) waitFor(texts ...string) string {
	p.t.Helper()
	var screen string
	admittest.Eventually(p.t, func() bool { screen = p.capture(); return containsAll(screen, texts) },
		func() string { return fmt.Sprintf("pane %s never showed %q:\n%s", p.name, texts, screen) })
	return screen
}

// writeClientKey writes a throwaway ed25519 key for ssh -i.
func writeClientKey(t *testing.T) string {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	block, err := gossh.MarshalPrivateKey(priv, "gridlag e2e")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "id_ed25519")
	if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// The real OpenSSH client in a real terminal (tmux) of the most common
// size, 80x24: the board, (10,10) and the ledger show, RIGHT moves to
// (11,10), q ends ssh at once with status 0. Without a
// key the player joins with no password prompt; without a terminal (-T)
// ssh prints the reason and exits 1.
func TestEndToEndOpenSSHInTmux(t *testing.T) {
	requireTools(t, "tmux", "ssh")
	s := startGameSSH(t, Options{})
	port := strconv.Itoa(s.Addr().(*net.TCPAddr).Port)
	key := writeClientKey(t)
	socket := fmt.Sprintf("gridlag-e2e-%d", os.Getpid())
	t.Cleanup(func() {
		exec.Command("tmux", "-L", socket, "kill-server").Run()
	})
	ssh := "ssh -F /dev/null -p " + port +
		" -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR"
	tail := "; echo EXIT=$?; sleep 60"

	withKey := startPane(t, socket, "key", 80, 24, ssh+" -i "+key+" -o IdentitiesOnly=yes -o BatchMode=yes ada@127.0.0.1"+tail)
	screen := withKey.waitFor("you (10,10)", "server (10,10)", "████", "playing as ada", "Pending inputs", "[x] prediction")
	t.Logf("OpenSSH in tmux:\n%s", screen)
	withKey.keys("Right")
	withKey.waitFor("you (11,10)", "server (11,10)")
	quit := time.Now()
	withKey.keys("q")
	screen = withKey.waitFor("EXIT=")
	took := time.Since(quit)
	if !strings.Contains(screen, "EXIT=0") {
		t.Fatalf("ssh did not exit 0 after q:\n%s", screen)
	}
	// At once, on no timer: see quitAtOnce. Only "not before" holds on
	// the wall clock.
	t.Logf("q to ssh exit: %v", took)

	noKey := startPane(t, socket, "nokey", 100, 40, ssh+" -o PubkeyAuthentication=no -o PasswordAuthentication=no bob@127.0.0.1"+tail)
	noKey.waitFor("you (", "playing as bob")
	noKey.keys("q")
	noKey.waitFor("EXIT=0")

	noPTY := startPane(t, socket, "nopty", 100, 40, ssh+" -T -i "+key+" -o IdentitiesOnly=yes -o BatchMode=yes ada@127.0.0.1 </dev/null"+tail)
	screen = noPTY.waitFor("EXIT=")
	if !strings.Contains(screen, "gridlag needs a terminal: connect with ssh -t -p "+port+" host") || !strings.Contains(screen, "EXIT=1") {
		t.Errorf("ssh -T: want the reason and EXIT=1:\n%s", screen)
	}
}

// The real OpenSSH client, from its own address, gets in and plays while
// sixteen other addresses keep the handshakes' pool full of sockets that
// never send a banner (before the fair pool, four addresses made every
// ssh fail with "kex_exchange_identification: Connection reset by peer").
func TestOpenSSHPlaysPastBannerlessSockets(t *testing.T) {
	requireTools(t, "tmux", "ssh")
	s := startGameSSH(t, Options{})
	fill := func() {
		for i := range 16 {
			fillShare(t, s, fmt.Sprintf("127.0.1.%d", i+1))
		}
	}
	fill()
	port := strconv.Itoa(s.Addr().(*net.TCPAddr).Port)
	socket := fmt.Sprintf("gridlag-e2e-fair-%d", os.Getpid())
	t.Cleanup(func() { exec.Command("tmux", "-L", socket, "kill-server").Run() })
	ssh := "ssh -F /dev/null -p " + port + " -b 127.0.3.1" +
		" -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o PubkeyAuthentication=no -o PasswordAuthentication=no"
	pane := startPane(t, socket, "honest", 80, 24, ssh+" ada@127.0.0.1; echo EXIT=$?; sleep 60")
	pane.waitFor("you (10,10)", "server (10,10)", "playing as ada")
	fill() // the attackers take their places back; the player plays on
	pane.keys("Right")
	pane.waitFor("you (11,10)", "server (11,10)")
	pane.keys("q")
	if screen := pane.waitFor("EXIT="); !strings.Contains(screen, "EXIT=0") {
		t.Fatalf("ssh did not exit 0 after q:\n%s", screen)
	}
}

// The instruments over OpenSSH at 80x24: t opens the waterfall, whose
// row #1 shows a press's stages once the server answers; g opens the net
// graph and g closes it.
func TestInstrumentsOverOpenSSH(t *testing.T) {
	requireTools(t, "tmux", "ssh")
	s := startGameSSH(t, Options{})
	port := strconv.Itoa(s.Addr().(*net.TCPAddr).Port)
	socket := fmt.Sprintf("gridlag-e2e-tools-%d", os.Getpid())
	t.Cleanup(func() {
		exec.Command("tmux", "-L", socket, "kill-server").Run()
	})
	ssh := "ssh -F /dev/null -p " + port +
		" -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o PubkeyAuthentication=no -o PasswordAuthentication=no"
	p := startPane(t, socket, "tools", 80, 24, ssh+" ada@127.0.0.1; echo EXIT=$?; sleep 60")
	p.waitFor("you (10,10)", "playing as ada")
	p.keys("t")
	p.waitFor("Waterfall", "no input yet")
	p.keys("Right")
	screen := p.waitFor("#1 →", "#1 →: pressed 0", "arrived", "ack sent", "acked", "you (11,10)  server (11,10)")
	t.Logf("the waterfall over OpenSSH:\n%s", screen)
	p.keys("g")
	screen = p.waitFor("Net graph", "round trip", "bytes in/s", "States/s", "since the start")
	t.Logf("the net graph over OpenSSH:\n%s", screen)
	p.keys("g")
	p.waitFor("Pending inputs")
	p.keys("q")
	p.waitFor("EXIT=0")
}
