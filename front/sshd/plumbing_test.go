package sshd

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/log"
	gossh "golang.org/x/crypto/ssh"

	"gridlag/front/remote"
	"gridlag/front/remote/remotetest"
	"gridlag/protocol"
	"gridlag/server/admit/admittest"
	"gridlag/tui"
)

// A player with a terminal sees the handler's screen, their keys reach it,
// and q ends the session at once with exit status 0.
func TestSessionDrawsTakesKeysAndQuitsAtOnce(t *testing.T) {
	s := startSSH(t, Options{Handler: echoHandler(nil)})
	c := dialSSH(t, s, "ada", newClientKey(t))
	tm := openTerm(t, c, "xterm-256color", 100, 40)
	tm.waitText("hello ada", "size 100x40")

	tm.send("ab\x1b[C")
	tm.waitText("keys [abRight]")

	tm.quitAtOnce()
	if on, ever := tm.vt.AltScreen(); !ever || on {
		t.Errorf("alternate screen entered %v, still on at exit %v: want the terminal restored", ever, on)
	}
}

// A window change resizes the screen and redraws it at once.
func TestWindowChangeRedraws(t *testing.T) {
	s := startSSH(t, Options{Handler: echoHandler(nil)})
	c := dialSSH(t, s, "ada", nil)
	tm := openTerm(t, c, "xterm-256color", 100, 40)
	tm.waitText("size 100x40")
	tm.vt.Resize(120, 50)
	if err := tm.sess.WindowChange(50, 120); err != nil {
		t.Fatal(err)
	}
	tm.waitText("size 120x50")

	// A size larger than the interface can use is clamped, not
	// allocated, and the screen is centred on the terminal.
	tm.vt.Resize(300, 100)
	if err := tm.sess.WindowChange(100, 300); err != nil {
		t.Fatal(err)
	}
	line := fmt.Sprintf("hello ada colour 0 size %dx%d", tui.MaxWidth, tui.MaxHeight)
	screen := tm.waitText(line)
	rows := strings.Split(screen, "\n")
	top, left := (100-tui.MaxHeight)/2, (300-tui.MaxWidth)/2
	if len(rows) <= top || !strings.HasPrefix(rows[top], strings.Repeat(" ", left)+line) {
		t.Errorf("want %q at row %d, column %d of the terminal:\n%s", line, top, left, screen)
	}
}

// An unknown TERM falls back to xterm-256color and the game still draws.
func TestUnknownTermFallsBack(t *testing.T) {
	s := startSSH(t, Options{Handler: echoHandler(nil)})
	c := dialSSH(t, s, "ada", nil)
	tm := openTerm(t, c, "no-such-terminal\x1b", 80, 24)
	tm.waitText("hello ada", "size 80x24")
	tm.send("q")
	if status, _ := tm.waitExit(time.Now()); status != 0 {
		t.Errorf("exit status %d, want 0", status)
	}
}

// A session without a terminal gets one clear line and a non-zero status,
// and so does one asking to run a command.
func TestNoTerminalIsRefused(t *testing.T) {
	s := startSSH(t, Options{Handler: echoHandler(nil)})
	port := s.Addr().(*net.TCPAddr).Port
	c := dialSSH(t, s, "ada", nil)

	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	sess.Stdout, sess.Stderr = &stdout, &stderr
	err = sess.Run("") // ssh -T: a shell without a PTY
	assertExit(t, err, 1)
	want := "gridlag needs a terminal: connect with ssh -t -p "
	if !strings.Contains(stderr.String(), want) || !strings.Contains(stderr.String(), strconv.Itoa(port)) {
		t.Errorf("stderr %q, want it to contain %q and the port %d", stderr.String(), want, port)
	}
	if strings.Count(stderr.String(), "\n") != 1 {
		t.Errorf("stderr %q, want exactly one line", stderr.String())
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout %q, want nothing", stdout.String())
	}

	// ssh host cmd: no PTY either, but the advice is about the command.
	sess = newSession(t, c)
	stderr.Reset()
	sess.Stderr = &stderr
	assertExit(t, sess.Run("cat /etc/passwd"), 1)
	if !strings.Contains(stderr.String(), "gridlag runs only the game, not commands") {
		t.Errorf("stderr %q, want the refusal of commands", stderr.String())
	}
	if !strings.Contains(stderr.String(), " host "+RecordingCommand+" > game.rec") {
		t.Errorf("stderr %q: the refusal names the wrong command to fetch a recording", stderr.String())
	}

	// ssh -t host cmd: a terminal, but commands are not run.
	sess = newSession(t, c)
	if err := sess.RequestPty("xterm", 24, 80, nil); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	sess.Stdout = &stdout
	assertExit(t, sess.Run("id"), 1)
	if !strings.Contains(stdout.String(), "gridlag runs only the game, not commands") {
		t.Errorf("stdout %q, want the refusal", stdout.String())
	}
}

func assertExit(t *testing.T, err error, status int) {
	t.Helper()
	var ee *gossh.ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("session ended with %v, want exit status %d", err, status)
	}
	if ee.ExitStatus() != status {
		t.Fatalf("exit status %d, want %d", ee.ExitStatus(), status)
	}
}

// The host key is created on first start (0600, in a new directory) and
// the same key is served after a restart, so known_hosts stays valid.
func TestHostKeySurvivesRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "ssh", "host_ed25519")
	s1 := startSSH(t, Options{HostKeyPath: path, Handler: echoHandler(nil)})
	fp := s1.HostKeyFingerprint()
	if !strings.HasPrefix(fp, "SHA256:") {
		t.Fatalf("fingerprint %q, want SHA256:...", fp)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("host key mode %v, want 0600", fi.Mode().Perm())
	}
	before, _ := os.ReadFile(path)
	s1.Close()

	s2 := startSSH(t, Options{HostKeyPath: path, Handler: echoHandler(nil)})
	if s2.HostKeyFingerprint() != fp {
		t.Fatalf("fingerprint after restart %s, want %s", s2.HostKeyFingerprint(), fp)
	}
	after, _ := os.ReadFile(path)
	if !bytes.Equal(before, after) {
		t.Error("host key file rewritten on restart")
	}
	// A client that pinned the first key connects to the restarted server.
	c := dialSSH(t, s2, "ada", nil) // dialSSH checks the host key
	tm := openTerm(t, c, "xterm-256color", 80, 24)
	tm.waitText("hello ada")
}

// A host key file that is not a key is an error, and is left alone.
func TestBadHostKeyIsAnError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "host_ed25519")
	if err := os.WriteFile(path, []byte("not a key"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := New(Options{HostKeyPath: path}); err == nil {
		t.Fatal("New accepted a host key file holding garbage")
	}
	if b, _ := os.ReadFile(path); string(b) != "not a key" {
		t.Error("New overwrote the operator's host key file")
	}
	if _, err := New(Options{}); err == nil {
		t.Error("New accepted an empty host key path")
	}
	shadow := filepath.Join(t.TempDir(), "shadow")
	os.WriteFile(shadow, []byte("root:$6$hunter2:19700:0:99999:7:::\n"), 0o600)
	for path, want := range map[string]string{
		shadow:      "sshd: host key " + shadow + ": ssh: no key found",
		"/dev/zero": "sshd: host key: /dev/zero is not a regular file",
	} {
		if _, err := New(Options{HostKeyPath: path}); err == nil || err.Error() != want && !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("host key %s: %v, want %q, quoting none of the file", path, err, want)
		}
	}
}

// The SSH user name is the player's name, sanitised; a key's fingerprint
// picks a colour that the same key always gets; players without a key get
// a colour from their name.
func TestIdentity(t *testing.T) {
	seen := make(chan *Player, 8)
	s := startSSH(t, Options{Handler: echoHandler(seen)})
	key := newClientKey(t)
	wantFP := gossh.FingerprintSHA256(key.PublicKey())

	var colours []uint8
	for range 2 {
		c := dialSSH(t, s, "ada", key)
		tm := openTerm(t, c, "xterm-256color", 80, 24)
		p := <-seen
		if p.User != "ada" || p.Fingerprint != wantFP {
			t.Errorf("player %q key %q, want ada with %s", p.User, p.Fingerprint, wantFP)
		}
		if p.Color < 1 || p.Color > protocol.NumColors || p.Color != remote.FingerprintColor(wantFP) {
			t.Errorf("colour %d, want %d", p.Color, remote.FingerprintColor(wantFP))
		}
		colours = append(colours, p.Color)
		tm.send("q")
		tm.waitExit(time.Now())
		c.Close()
	}
	if colours[0] != colours[1] {
		t.Errorf("same key got colours %v", colours)
	}

	c := dialSSH(t, s, "bob", nil)
	openTerm(t, c, "xterm-256color", 80, 24)
	p := <-seen
	if p.Fingerprint != "" || p.Color != 0 {
		t.Errorf("keyless player: key %q colour %d, want none and 0 (the server's by player)", p.Fingerprint, p.Color)
	}

	// Escape sequences and control characters never reach a screen.
	c = dialSSH(t, s, "\x1b[2J\x1b]0;pwn\x07eve\r\n", nil)
	tm := openTerm(t, c, "xterm-256color", 80, 24)
	p = <-seen
	if p.User != "[2J]0;pwneve" {
		t.Errorf("user %q, want the control characters removed", p.User)
	}
	tm.waitText("hello [2J]0;pwneve colour")

	c = dialSSH(t, s, "\x1b\x07", nil)
	openTerm(t, c, "xterm-256color", 80, 24)
	if p = <-seen; p.User != DefaultPlayerName {
		t.Errorf("user %q, want %q", p.User, DefaultPlayerName)
	}
}

// A client that offers someone else's public key without its private half,
// then joins without a key, does not get that key's identity.
func TestOfferedKeyWithoutProofIsNotIdentity(t *testing.T) {
	seen := make(chan *Player, 1)
	s := startSSH(t, Options{Handler: echoHandler(seen)})
	victim := newClientKey(t)
	cfg := &gossh.ClientConfig{
		User:            "mallory",
		HostKeyCallback: hostKeyIs(s.HostKeyFingerprint()),
		Auth: []gossh.AuthMethod{
			gossh.PublicKeys(unsignable{victim}),
			gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) { return nil, nil }),
		},
	}
	c, err := gossh.Dial("tcp", s.Addr().String(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	openTerm(t, c, "xterm-256color", 80, 24)
	if p := <-seen; p.Fingerprint != "" {
		t.Errorf("fingerprint %q from a key never proven", p.Fingerprint)
	}
}

// unsignable offers a public key but cannot sign with it.
type unsignable struct{ gossh.Signer }

func (unsignable) Sign(io.Reader, []byte) (*gossh.Signature, error) {
	return nil, errors.New("no private key")
}

// The server offers only the game: no port forwarding, no subsystems, no
// agent forwarding, no environment.
func TestOnlyTheGame(t *testing.T) {
	s := startSSH(t, Options{Handler: echoHandler(nil)})
	c := dialSSH(t, s, "ada", nil)

	if conn, err := c.Dial("tcp", s.Addr().String()); err == nil {
		conn.Close()
		t.Error("local port forwarding accepted")
	}
	if ln, err := c.Listen("tcp", "127.0.0.1:0"); err == nil {
		ln.Close()
		t.Error("remote port forwarding accepted")
	}
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.RequestSubsystem("sftp"); err == nil {
		t.Error("sftp subsystem accepted")
	}
	sess.Close()

	sess, err = c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	if ok, err := sess.SendRequest("auth-agent-req@openssh.com", true, nil); ok || err != nil {
		t.Errorf("agent forwarding: ok %v err %v, want refused", ok, err)
	}
	if ok, err := sess.SendRequest("x11-req", true, gossh.Marshal(struct {
		Single        bool
		Proto, Cookie string
		Screen        uint32
	}{false, "MIT-MAGIC-COOKIE-1", "00", 0})); ok || err != nil {
		t.Errorf("X11 forwarding: ok %v err %v, want refused", ok, err)
	}
	if err := sess.Setenv("LD_PRELOAD", "/tmp/x.so"); err == nil {
		t.Error("env request accepted")
	}
}

// Sessions are capped per remote address and in total, with a clear
// message and a non-zero status; a freed place can be taken again.
func TestSessionCaps(t *testing.T) {
	s := startSSH(t, Options{Handler: echoHandler(nil), MaxPerAddr: 2, MaxSessions: 3})
	var terms []*term
	for range 2 {
		tm := openTerm(t, dialSSH(t, s, "ada", nil), "xterm-256color", 80, 24)
		tm.waitText("hello ada")
		terms = append(terms, tm)
	}
	tm := openTerm(t, dialSSH(t, s, "ada", nil), "xterm-256color", 80, 24)
	tm.waitText("too many sessions from your address (2)")
	if status, _ := tm.waitExit(time.Now()); status != 1 {
		t.Errorf("exit status %d for a session over the cap, want 1", status)
	}

	terms[0].send("q")
	terms[0].waitExit(time.Now())
	tm = openTerm(t, dialSSH(t, s, "ada", nil), "xterm-256color", 80, 24)
	tm.waitText("hello ada")

	// The total cap.
	full := startSSH(t, Options{Handler: echoHandler(nil), MaxPerAddr: 10, MaxSessions: 2})
	for range 2 {
		openTerm(t, dialSSH(t, full, "ada", nil), "xterm-256color", 80, 24).waitText("hello ada")
	}
	tm = openTerm(t, dialSSH(t, full, "ada", nil), "xterm-256color", 80, 24)
	tm.waitText("the server is full (2 players)")
	if status, _ := tm.waitExit(time.Now()); status != 1 {
		t.Errorf("exit status %d for a session over the total cap, want 1", status)
	}
}

// Refused sessions give their place back: with a cap of N sessions from
// one address, N+3 refused sessions in a row (no terminal, a command, a
// terminal and a command) leave room for an honest one, and the cap still
// holds after them.
func TestRefusedSessionsLeaveTheCap(t *testing.T) {
	const n = 3
	s := startSSH(t, Options{Handler: echoHandler(nil), MaxPerAddr: n})
	var honest []*term
	for range n - 1 {
		tm := openTerm(t, dialSSH(t, s, "ada", nil), "xterm-256color", 80, 24)
		tm.waitText("hello ada")
		honest = append(honest, tm)
	}
	refusals := []func(c *gossh.Client) error{
		func(c *gossh.Client) error { return runSession(t, c, false, "") },
		func(c *gossh.Client) error { return runSession(t, c, false, "id") },
		func(c *gossh.Client) error { return runSession(t, c, true, "id") },
	}
	for i := range n + 3 {
		c, err := tryDialSSH(s, "ada", nil)
		if err != nil {
			t.Fatalf("refused session %d: dial: %v", i+1, err)
		}
		assertExit(t, refusals[i%len(refusals)](c), 1)
		c.Close()
	}
	last := openTerm(t, dialSSH(t, s, "ada", nil), "xterm-256color", 80, 24)
	last.waitText("hello ada")
	over := openTerm(t, dialSSH(t, s, "ada", nil), "xterm-256color", 80, 24)
	over.waitText(fmt.Sprintf("too many sessions from your address (%d)", n))
	if status, _ := over.waitExit(time.Now()); status != 1 {
		t.Errorf("exit status %d for a session over the cap, want 1", status)
	}
	honest[0].quitAtOnce()
	openTerm(t, dialSSH(t, s, "ada", nil), "xterm-256color", 80, 24).waitText("hello ada")
}

// runSession runs command in a new session of c, with a terminal if pty.
func runSession(t *testing.T, c *gossh.Client, pty bool, command string) error {
	t.Helper()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	if pty {
		if err := sess.RequestPty("xterm", 24, 80, nil); err != nil {
			t.Fatal(err)
		}
	}
	return sess.Run(command)
}

// Open connections, handshaking or not, are capped at twice the session
// caps: a flood of connections that never authenticate is turned away
// before its handshake.
func TestConnectionCap(t *testing.T) {
	s := startSSH(t, Options{Handler: echoHandler(nil), MaxPerAddr: 1})
	for range 2 {
		c, err := net.Dial("tcp", s.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.SetReadDeadline(time.Now().Add(waitLong))
		if line, err := bufio.NewReader(c).ReadString('\n'); err != nil || !strings.HasPrefix(line, "SSH-2.0-") {
			t.Fatalf("connection within the cap: banner %q, %v", line, err)
		}
	}
	c, err := net.Dial("tcp", s.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetReadDeadline(time.Now().Add(waitLong))
	if b, err := io.ReadAll(c); err != nil || !strings.HasPrefix(string(b), "gridlag: connection refused: too many connections from your address") || strings.Count(string(b), "\n") != 1 {
		t.Fatalf("connection over the cap: read %q, %v; want one line saying why, then closed at once", b, err)
	}
}

// A connection that never completes its handshake is closed at the
// deadline, and so is one that authenticates but starts no session.
func TestHandshakeDeadline(t *testing.T) {
	s := startSSH(t, Options{Handler: echoHandler(nil), HandshakeTimeout: 200 * time.Millisecond})

	start := time.Now() // before the server can have accepted it
	raw, err := net.Dial("tcp", s.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	raw.SetDeadline(time.Now().Add(waitLong))
	br := bufio.NewReader(raw)
	if line, err := br.ReadString('\n'); err != nil || !strings.HasPrefix(line, "SSH-2.0-gridlag") {
		t.Fatalf("banner %q %v", line, err)
	}
	if _, err := io.Copy(io.Discard, br); err != nil {
		t.Fatalf("silent connection: %v, want closed by the server", err)
	}
	// Closed at the deadline, not before it; that it is closed at all
	// (the read above ends before waitLong) is the deadline working.
	if took := time.Since(start); took < 200*time.Millisecond {
		t.Errorf("silent connection closed after %v, before the 200ms deadline", took)
	}

	// The deadline is the real clock's: a client that authenticates has
	// 2 s to, which only a busy machine starving its handshake for that
	// long could make it miss.
	s = startSSH(t, Options{Handler: echoHandler(nil), HandshakeTimeout: 2 * time.Second})
	c := dialSSH(t, s, "ada", nil)
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	select {
	case <-done:
	case <-time.After(waitLong):
		t.Fatal("connection without a session was never closed")
	}
}

// A player who presses no key for IdleTimeout is told so and disconnected;
// one who keeps pressing keys is not. The watchdog reads the real clock:
// the active player presses a key every 50 ms until the idle one is gone,
// forty times within the timeout, so that only a busy machine starving
// its keys' way for nearly 2 s could have it taken for idle.
func TestIdleTimeout(t *testing.T) {
	s := startSSH(t, Options{Handler: echoHandler(nil), IdleTimeout: 2 * time.Second})
	c := dialSSH(t, s, "ada", nil)
	active := openTerm(t, c, "xterm-256color", 80, 24)
	idle := openTerm(t, dialSSH(t, s, "bob", nil), "xterm-256color", 80, 24)
	active.waitText("hello ada")
	idle.waitText("hello bob")

	stop, pressed := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(pressed)
		keys := time.NewTicker(50 * time.Millisecond)
		defer keys.Stop()
		for {
			if _, err := io.WriteString(active.in, "x"); err != nil {
				return
			}
			select {
			case <-stop:
				return
			case <-keys.C:
			}
		}
	}()
	idle.waitText("disconnected after 2s without a key press")
	close(stop)
	<-pressed
	if status, _ := idle.waitExit(time.Now()); status != 1 {
		t.Errorf("idle session exit status %d, want 1", status)
	}
	select {
	case err := <-active.exit:
		t.Fatalf("active session ended: %v", err)
	default:
	}
	active.send("q")
	if status, _ := active.waitExit(time.Now()); status != 0 {
		t.Errorf("exit status %d, want 0", status)
	}
}

// TestChannelsPerConnectionCapped: one connection cannot hold more than
// MaxChannelsPerConn session channels (each costs memory).
func TestChannelsPerConnectionCapped(t *testing.T) {
	s := startSSH(t, Options{Handler: echoHandler(nil)})
	c := dialSSH(t, s, "ada", nil)
	var open []*gossh.Session
	for i := 0; i < MaxChannelsPerConn; i++ {
		sess, err := c.NewSession()
		if err != nil {
			t.Fatalf("channel %d refused: %v", i+1, err)
		}
		open = append(open, sess)
	}
	if _, err := c.NewSession(); err == nil {
		t.Fatalf("channel %d accepted on one connection", MaxChannelsPerConn+1)
	}
	open[0].Close()
	var err error
	admittest.Eventually(t, func() bool {
		var sess *gossh.Session
		if sess, err = c.NewSession(); err == nil {
			sess.Close()
		}
		return err == nil
	}, func() string { return fmt.Sprintf("no channel after one closed: %v", err) })
}

// A session that will not end does not hold Close
// (remotetest.CloseLeavesTheStuckBehind): the honest session beside it
// ends as ever, told the server stopped, with status 0; the count of
// those left behind is Stats.Abandoned, the metric's source.
func TestCloseStopsWaitingForAStuckSession(t *testing.T) {
	remotetest.CloseLeavesTheStuckBehind(t, func(logger *log.Logger, stuck *remotetest.Stuck) remotetest.StuckFront {
		s := startSSH(t, Options{Logger: logger, Handler: stuck.Or(echoHandler(nil))})
		tm := openTerm(t, dialSSH(t, s, "ada", nil), "xterm-256color", 80, 24)
		tm.waitText("hello ada")
		openTerm(t, dialSSH(t, s, "stuck", nil), "xterm-256color", 80, 24)
		return remotetest.StuckFront{Close: s.Close, Hurry: s.Hurry, Abandoned: func() uint64 { return s.Stats().Abandoned },
			Told: func() {
				tm.waitText("gridlag: server stopped")
				if status, _ := tm.waitExit(time.Now()); status != 0 {
					t.Errorf("the honest session's exit status %d, want 0", status)
				}
			}}
	})
}
