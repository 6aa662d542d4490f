package sshd

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/log"
	gossh "golang.org/x/crypto/ssh"
)

// dialFrom opens a TCP connection to s from the loopback address local.
func dialFrom(t *testing.T, s *Server, local string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(local)}, Timeout: waitLong}
	c, err := d.Dial("tcp", s.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// bannerless opens a connection from local that reads the server's banner
// and never sends its own.
func bannerless(t *testing.T, s *Server, local string) {
	t.Helper()
	c := dialFrom(t, s, local)
	c.SetReadDeadline(time.Now().Add(waitLong))
	if line, err := bufio.NewReader(c).ReadString('\n'); err != nil || !strings.HasPrefix(line, "SSH-2.0-") {
		t.Fatalf("connection within the caps: banner %q, %v", line, err)
	}
}

// refusedWith checks that a connection from local is refused at once, with
// a line that says why.
func refusedWith(t *testing.T, s *Server, local, why string) {
	t.Helper()
	c := dialFrom(t, s, local)
	c.SetReadDeadline(time.Now().Add(waitLong))
	b, err := io.ReadAll(c)
	if err != nil || !strings.Contains(string(b), why) {
		t.Fatalf("connection from %s: read %q, %v; want a refusal saying %q, then closed", local, b, err, why)
	}
}

// playFrom connects as user from local, opens a terminal and sees the game.
func playFrom(t *testing.T, s *Server, local, user string) *term {
	t.Helper()
	c := dialFrom(t, s, local)
	cfg := &gossh.ClientConfig{User: user, HostKeyCallback: hostKeyIs(s.HostKeyFingerprint()), Timeout: waitLong,
		Auth: []gossh.AuthMethod{gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) { return nil, nil })}}
	sc, chans, reqs, err := gossh.NewClientConn(c, s.Addr().String(), cfg)
	if err != nil {
		t.Fatalf("ssh handshake from %s: %v", local, err)
	}
	client := gossh.NewClient(sc, chans, reqs)
	t.Cleanup(func() { client.Close() })
	tm := openTerm(t, client, "xterm-256color", 80, 24)
	tm.waitText("hello " + user)
	return tm
}

// lockedLog is a log sink safe for concurrent use.
type lockedLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Connections that never send a banner are capped apart from the players:
// per address, then in all. Each refusal says why, to the client and, once
// per interval, to the log; a player from another address joins and
// plays meanwhile, and one already playing is untouched.
func TestHandshakeStageCaps(t *testing.T) {
	logs := &lockedLog{}
	s := startSSH(t, Options{Handler: echoHandler(nil), MaxHandshakes: 5, MaxHandshakesPerAddr: 3,
		Logger: log.NewWithOptions(logs, log.Options{Level: log.DebugLevel})})
	for range 3 {
		bannerless(t, s, "127.0.0.2")
	}
	for range 5 {
		refusedWith(t, s, "127.0.0.2", "too many connections from your address in their handshake (3)")
	}
	ada := playFrom(t, s, "127.0.0.3", "ada")

	for range 2 {
		bannerless(t, s, "127.0.0.4")
	}
	refusedWith(t, s, "127.0.0.5", "too many connections in their handshake (5)")
	ada.send("x")
	ada.waitText("keys [x]")

	if n := strings.Count(logs.String(), "too many connections from your address in their handshake"); n != 1 {
		t.Errorf("5 refusals of one kind from one address wrote %d log lines at once, want 1:\n%s", n, logs)
	}
}

// A connection the handshake watchdog cuts is logged once, with the
// watchdog's reason, not as a failed handshake on a closed connection.
func TestHandshakeCutSaysWhy(t *testing.T) {
	logs := &lockedLog{}
	s := startSSH(t, Options{Handler: echoHandler(nil), HandshakeTimeout: 100 * time.Millisecond,
		Logger: log.NewWithOptions(logs, log.Options{Level: log.DebugLevel})})
	c := dialFrom(t, s, "127.0.0.2")
	c.SetReadDeadline(time.Now().Add(waitLong))
	io.Copy(io.Discard, c) // until the watchdog closes it
	deadline := time.Now().Add(waitLong)
	for !strings.Contains(logs.String(), "handshake deadline") {
		if time.Now().After(deadline) {
			t.Fatalf("the cut was never logged:\n%s", logs)
		}
		time.Sleep(5 * time.Millisecond)
	}
	s.Close() // waits for every connection's goroutine: no line can come later
	if strings.Contains(logs.String(), "closed network connection") {
		t.Errorf("the cut is logged as a failed handshake:\n%s", logs)
	}
}
