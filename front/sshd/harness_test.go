package sshd

import (
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"gridlag/front/remote"
	"gridlag/front/remote/remotetest"
	"gridlag/internal/vt"
	"gridlag/server/admit/admittest"
)

// waitLong bounds every wait on real sockets in these tests.
const waitLong = 60 * time.Second

// startSSH starts an SSH server on 127.0.0.1:0 with opts (a host key in a
// temporary directory unless set) and closes it when the test ends.
func startSSH(t testing.TB, opts Options) *Server {
	t.Helper()
	if opts.HostKeyPath == "" {
		opts.HostKeyPath = filepath.Join(t.TempDir(), "keys", "host_ed25519")
	}
	if opts.Logger == nil {
		opts.Logger = admittest.Logger(t)
	}
	s, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	admittest.Serve(t, s, ErrServerClosed)
	return s
}

// newClientKey makes a throwaway ed25519 client key.
func newClientKey(t testing.TB) gossh.Signer {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return signer
}

// dialSSH connects as user: with key if not nil, else through
// keyboard-interactive, checking the server's host key.
func dialSSH(t testing.TB, s *Server, user string, key gossh.Signer) *gossh.Client {
	t.Helper()
	c, err := tryDialSSH(s, user, key)
	if err != nil {
		t.Fatalf("ssh dial: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func tryDialSSH(s *Server, user string, key gossh.Signer) (*gossh.Client, error) {
	return gossh.Dial("tcp", s.Addr().String(), clientConfig(s, user, key))
}

// dialSSHFrom is dialSSH from the loopback address local (127.0.0.2,
// 127.0.0.3...), so that tests can play several addresses.
func dialSSHFrom(t testing.TB, s *Server, user, local string) *gossh.Client {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(local)}, Timeout: waitLong}
	nc, err := d.Dial("tcp", s.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	cc, chans, reqs, err := gossh.NewClientConn(nc, s.Addr().String(), clientConfig(s, user, nil))
	if err != nil {
		nc.Close()
		t.Fatalf("ssh from %s: %v", local, err)
	}
	c := gossh.NewClient(cc, chans, reqs)
	t.Cleanup(func() { c.Close() })
	return c
}

// clientConfig logs in as user: with key if not nil, else through
// keyboard-interactive, checking the server's host key.
func clientConfig(s *Server, user string, key gossh.Signer) *gossh.ClientConfig {
	cfg := &gossh.ClientConfig{
		User:            user,
		HostKeyCallback: hostKeyIs(s.HostKeyFingerprint()),
		Timeout:         waitLong,
	}
	if key != nil {
		cfg.Auth = []gossh.AuthMethod{gossh.PublicKeys(key)}
	} else {
		cfg.Auth = []gossh.AuthMethod{gossh.KeyboardInteractive(
			func(name, instruction string, questions []string, echos []bool) ([]string, error) {
				if len(questions) > 0 {
					return nil, fmt.Errorf("server asked %q", questions)
				}
				return nil, nil
			})}
	}
	return cfg
}

// hostKeyIs accepts only the host key of this fingerprint.
func hostKeyIs(fp string) gossh.HostKeyCallback {
	return func(_ string, _ net.Addr, key gossh.PublicKey) error {
		if got := gossh.FingerprintSHA256(key); got != fp {
			return fmt.Errorf("host key %s, want %s", got, fp)
		}
		return nil
	}
}

// term is one interactive SSH session with a PTY, its output replayed on a
// vt.
type term struct {
	t     testing.TB
	sess  *gossh.Session
	in    io.WriteCloser
	vt    *vt.Term
	read  chan struct{} // closed when the output ended
	exit  chan error    // the session's Wait result
	start time.Time
}

// openTerm starts a shell session with a PTY of TERM termName and w x h.
func openTerm(t testing.TB, c *gossh.Client, termName string, w, h int) *term {
	t.Helper()
	return openTermRunning(t, c, termName, w, h, "")
}

// pipes are sess's input and output, taken before it starts.
func pipes(t testing.TB, sess *gossh.Session) (io.WriteCloser, io.Reader) {
	t.Helper()
	in, err := sess.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := sess.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	return in, out
}

// openTermRunning is openTerm asking for command ("" for none).
func openTermRunning(t testing.TB, c *gossh.Client, termName string, w, h int, command string) *term {
	t.Helper()
	sess := newSession(t, c)
	modes := gossh.TerminalModes{gossh.ECHO: 0}
	if err := sess.RequestPty(termName, h, w, modes); err != nil {
		t.Fatalf("pty: %v", err)
	}
	in, out := pipes(t, sess)
	tm := &term{t: t, sess: sess, in: in, vt: vt.New(w, h), read: make(chan struct{}), exit: make(chan error, 1), start: time.Now()}
	start := sess.Shell
	if command != "" {
		start = func() error { return sess.Start(command) }
	}
	if err := start(); err != nil {
		t.Fatalf("start the session: %v", err)
	}
	go func() {
		defer close(tm.read)
		io.Copy(tm.vt, out)
	}()
	go func() {
		<-tm.read
		tm.exit <- sess.Wait()
	}()
	t.Cleanup(func() { sess.Close() })
	return tm
}

// newSession opens a session channel on c. The server counts a channel
// the client closed until its own end of it is done, a moment later on a
// busy machine: a refusal for the cap of channels a connection may hold
// (MaxChannelsPerConn) is tried again until that moment has passed.
func newSession(t testing.TB, c *gossh.Client) *gossh.Session {
	t.Helper()
	var (
		sess *gossh.Session
		err  error
	)
	admittest.Eventually(t, func() bool {
		sess, err = c.NewSession()
		var refused *gossh.OpenChannelError
		return !errors.As(err, &refused) || refused.Reason != gossh.ResourceShortage
	}, func() string { return fmt.Sprintf("new session: %v", err) })
	if err != nil {
		t.Fatalf("new session: %v", err)
	}
	return sess
}

// send types keys.
func (tm *term) send(keys string) {
	tm.t.Helper()
	if _, err := io.WriteString(tm.in, keys); err != nil {
		tm.t.Fatalf("send %q: %v", keys, err)
	}
}

// waitText waits until the screen shows every one of the texts.
func (tm *term) waitText(texts ...string) string {
	tm.t.Helper()
	deadline := time.NewTimer(waitLong)
	defer deadline.Stop()
	for {
		screen := tm.vt.Text()
		ok := true
		for _, s := range texts {
			if !strings.Contains(screen, s) {
				ok = false
			}
		}
		if ok {
			return screen
		}
		select {
		case <-tm.vt.Changed():
		case <-tm.read:
			select {
			case <-tm.vt.Changed():
				continue
			default:
			}
			if screen := tm.vt.Text(); !containsAll(screen, texts) {
				tm.t.Fatalf("session ended before the screen showed %q:\n%s", texts, screen)
			}
		case <-deadline.C:
			tm.t.Fatalf("screen never showed %q:\n%s", texts, screen)
		}
	}
}

func containsAll(s string, subs []string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}

// waitExit waits for the session to end and returns its exit status
// (-1 without one) and how long after since it took.
func (tm *term) waitExit(since time.Time) (int, time.Duration) {
	tm.t.Helper()
	select {
	case err := <-tm.exit:
		took := time.Since(since)
		var ee *gossh.ExitError
		switch {
		case err == nil:
			return 0, took
		case errors.As(err, &ee):
			return ee.ExitStatus(), took
		default:
			tm.t.Logf("session ended without status: %v", err)
			return -1, took
		}
	case <-time.After(waitLong):
		tm.t.Fatalf("session did not end; screen:\n%s", tm.vt.Text())
		return 0, 0
	}
}

// echoHandler is a plumbing-test session handler: it shows who the player
// is, the screen size and the keys pressed, redraws on resize, and ends on
// q (remotetest.Echo).
func echoHandler(seen chan<- *Player) remote.Handler {
	return remotetest.Echo(seen, func(p *Player, w, h int, keys string) string {
		return fmt.Sprintf("hello %s colour %d size %dx%d keys [%s]", p.User, p.Color, w, h, keys)
	})
}

// quitAtOnce presses q and checks the session ends with status 0. That
// it ends at once, waiting on no timer, is pinned on the virtual clock:
// the terminal's loop ends on q with the clock standing still (tui's
// TestQuitEndsTheLoopAtOnce) and the game's Bye goes without the
// injected latency (client's TestDriverCloseSaysBye); nothing on the
// session's way out waits on time, and waitExit's guard (waitLong) is
// shorter than any timer that could hold a session. On the wall clock of
// a busy machine the test asserts no "within".
func (tm *term) quitAtOnce() {
	tm.t.Helper()
	quit := time.Now()
	tm.send("q")
	status, took := tm.waitExit(quit)
	if status != 0 {
		tm.t.Errorf("exit status %d after q, want 0", status)
	}
	tm.t.Logf("q to session end: %v", took)
}
