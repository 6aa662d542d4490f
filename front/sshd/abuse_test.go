package sshd

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/log"
	gossh "golang.org/x/crypto/ssh"

	"gridlag/server/admit/admittest"
)

// dialFrom opens a TCP connection to s from the loopback address local.
func dialFrom(t *testing.T, s *Server, local string) net.Conn {
	t.Helper()
	return admittest.DialFrom(t, s.Addr().String(), local)
}

// bannerless opens a connection from local that reads the server's banner
// and never sends its own.
func bannerless(t *testing.T, s *Server, local string) net.Conn {
	t.Helper()
	c := dialFrom(t, s, local)
	c.SetReadDeadline(time.Now().Add(waitLong))
	if line, err := readLine(c); err != nil || !strings.HasPrefix(line, "SSH-2.0-") {
		t.Fatalf("connection within the caps: banner %q, %v", line, err)
	}
	return c
}

// readLine reads one line from c, byte by byte, so that nothing after it
// is read.
func readLine(c net.Conn) (string, error) {
	var line []byte
	b := make([]byte, 1)
	for {
		if _, err := c.Read(b); err != nil {
			return string(line), err
		}
		line = append(line, b[0])
		if b[0] == '\n' {
			return string(line), nil
		}
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
	tm := playFromTerm(t, s, local, user)
	tm.waitText("hello " + user)
	return tm
}

// playFromTerm connects as user from local and opens an 80x24 terminal.
func playFromTerm(t *testing.T, s *Server, local, user string) *term {
	t.Helper()
	return openTerm(t, dialFromSSH(t, s, local, user), "xterm-256color", 80, 24)
}

// dialFromSSH connects as user from local, without a key.
func dialFromSSH(t *testing.T, s *Server, local, user string) *gossh.Client {
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
	return client
}

// bannerlessN opens n banner-less connections from local.
func bannerlessN(t *testing.T, s *Server, local string, n int) []net.Conn {
	t.Helper()
	var cs []net.Conn
	for range n {
		cs = append(cs, bannerless(t, s, local))
	}
	return cs
}

// closedByServer checks that the server closes c (which has read the
// banner) soon, saying nothing more.
func closedByServer(t *testing.T, c net.Conn, what string) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(waitLong))
	if b, err := io.ReadAll(c); err != nil || len(b) > 0 {
		t.Fatalf("%s: read %q, %v; want it closed by the server", what, b, err)
	}
}

// stillOpen checks that the server has not closed c: what it sends (a
// key exchange) is read and dropped.
func stillOpen(t *testing.T, c net.Conn, what string) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
	_, err := io.Copy(io.Discard, c)
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("%s: %v, want it still open", what, err)
	}
}

// fillShare opens banner-less connections from local until the server
// refuses one, and returns how many it admitted.
func fillShare(t *testing.T, s *Server, local string) int {
	t.Helper()
	for n := 0; ; n++ {
		c := dialFrom(t, s, local)
		c.SetReadDeadline(time.Now().Add(waitLong))
		line, err := readLine(c)
		if strings.HasPrefix(line, "gridlag: connection refused") {
			c.Close()
			return n
		}
		if err != nil || !strings.HasPrefix(line, "SSH-2.0-") {
			t.Fatalf("connection from %s: %q, %v", local, line, err)
		}
	}
}

// Connections that never send a banner are capped apart from the players:
// an address holds at most its share, the last places of the pool go only
// to addresses holding few, and a full pool makes room for a newcomer by
// closing the oldest pending handshake of the address holding the most.
// Each refusal says why, to the client and, once per interval, to the
// log, and is counted; a player from another address joins and plays
// meanwhile, and one already playing is untouched.
func TestHandshakeStageCaps(t *testing.T) {
	logs := &admittest.Log{}
	s := startSSH(t, Options{Handler: echoHandler(nil), MaxHandshakes: 8, MaxHandshakesPerAddr: 4,
		Logger: log.NewWithOptions(logs, log.Options{Level: log.DebugLevel})})
	// The pool of 8 keeps its last 2 for addresses holding none.
	hog := bannerlessN(t, s, "127.0.0.2", 4)
	for range 5 {
		refusedWith(t, s, "127.0.0.2", "too many connections from your address in their handshake (4)")
	}
	ada := playFrom(t, s, "127.0.0.3", "ada")
	bannerlessN(t, s, "127.0.0.4", 2)
	refusedWith(t, s, "127.0.0.4", "too many connections in their handshake, and yours has 2 of them")
	bannerless(t, s, "127.0.0.5")
	bannerless(t, s, "127.0.0.6") // the pool is full

	// A newcomer takes the place of the oldest of the address holding the
	// most, and plays.
	bob := playFrom(t, s, "127.0.0.7", "bob")
	closedByServer(t, hog[0], "the oldest handshake of the address holding the most")
	for _, c := range hog[1:] {
		stillOpen(t, c, "a younger handshake of that address")
	}
	bob.send("x")
	bob.waitText("keys [x]")
	ada.send("y")
	ada.waitText("keys [y]")

	if n := strings.Count(logs.String(), "too many connections from your address in their handshake"); n != 1 {
		t.Errorf("5 refusals of one kind from one address wrote %d log lines at once, want 1:\n%s", n, logs)
	}
	if !strings.Contains(logs.String(), "evicted: the 8 handshakes are full and your address holds 4 of them") {
		t.Errorf("the eviction is not logged with its reason:\n%s", logs)
	}
	got := s.Stats().Refused
	want := map[string]uint64{KindShakeAddr: 5, KindShakeReserved: 1, KindShakeEvicted: 1}
	for kind, n := range want {
		if got[kind] != n {
			t.Errorf("Stats counts %d %s, want %d (all: %v)", got[kind], kind, n, got)
		}
	}
}

// A full pool where no address holds two more than the newcomer's has
// nothing to evict: the newcomer is refused, saying why.
func TestHandshakePoolFullOfEquals(t *testing.T) {
	s := startSSH(t, Options{Handler: echoHandler(nil), MaxHandshakes: 2, MaxHandshakesPerAddr: 1})
	a := bannerless(t, s, "127.0.0.2")
	b := bannerless(t, s, "127.0.0.3")
	refusedWith(t, s, "127.0.0.4", "too many connections in their handshake (2)")
	stillOpen(t, a, "a pending handshake")
	stillOpen(t, b, "a pending handshake")
	if n := s.Stats().Refused[KindShakeFull]; n != 1 {
		t.Errorf("%d refusals of a full pool counted, want 1", n)
	}
}

// The pool at its defaults, filled by sixteen addresses, each opening
// banner-less sockets until refused, again after each newcomer: a player
// from another address gets in every time, and plays.
func TestHandshakePoolFullOfBannerlessSockets(t *testing.T) {
	s := startSSH(t, Options{Handler: echoHandler(nil)})
	fill := func() (held int) {
		for i := range 16 {
			held += fillShare(t, s, fmt.Sprintf("127.0.1.%d", i+1))
		}
		return held
	}
	t.Logf("sixteen addresses opened %d banner-less connections", fill())
	s.mu.Lock()
	used := s.shaking.Used()
	_, most := s.shaking.Heaviest()
	s.mu.Unlock()
	if used != DefaultMaxHandshakes || most > DefaultMaxHandshakesPerAddr {
		t.Fatalf("the pool holds %d, one address %d; want it full (%d), no address over its share (%d)", used, most, DefaultMaxHandshakes, DefaultMaxHandshakesPerAddr)
	}
	for i := range 3 {
		who := fmt.Sprintf("eve%d", i)
		tm := playFrom(t, s, fmt.Sprintf("127.0.2.%d", i+1), who)
		tm.send("x")
		tm.waitText("keys [x]")
		fill()
	}
	if n := s.Stats().Refused[KindShakeEvicted]; n < 3 {
		t.Errorf("%d evictions counted, want at least 3", n)
	}
}

// A connection that sends no banner gives its place back after
// BannerTimeout; one that sent its banner has the whole HandshakeTimeout.
// The deadline is the real clock's: the talker's banner, sent as soon as
// it read the server's, has 2 s to come, which only a busy machine
// starving it for that long could make it miss.
func TestBannerDeadline(t *testing.T) {
	const banner = 2 * time.Second
	s := startSSH(t, Options{Handler: echoHandler(nil), BannerTimeout: banner, HandshakeTimeout: waitLong})
	start := time.Now()
	silent := bannerless(t, s, "127.0.0.2")
	talker := bannerless(t, s, "127.0.0.2")
	io.WriteString(talker, "SSH-2.0-OpenSSH_9.2\r\n")
	closedByServer(t, silent, "a connection without a banner")
	if took := time.Since(start); took < banner {
		t.Errorf("closed after %v, before the banner deadline", took)
	}
	stillOpen(t, talker, "a connection that sent its banner")
	if n := s.Stats().Refused[KindBannerTimeout]; n != 1 {
		t.Errorf("%d banner timeouts counted, want 1", n)
	}
}

// A connection the handshake watchdog cuts is logged once, with the
// watchdog's reason, not as a failed handshake on a closed connection.
func TestHandshakeCutSaysWhy(t *testing.T) {
	logs := &admittest.Log{}
	s := startSSH(t, Options{Handler: echoHandler(nil), HandshakeTimeout: 100 * time.Millisecond,
		Logger: log.NewWithOptions(logs, log.Options{Level: log.DebugLevel})})
	c := dialFrom(t, s, "127.0.0.2")
	c.SetReadDeadline(time.Now().Add(waitLong))
	io.Copy(io.Discard, c) // until the watchdog closes it
	admittest.Eventually(t, func() bool { return strings.Contains(logs.String(), "banner deadline") },
		func() string { return "the cut was never logged:\n" + logs.String() })
	s.Close() // waits for every connection's goroutine: no line can come later
	if strings.Contains(logs.String(), "closed network connection") {
		t.Errorf("the cut is logged as a failed handshake:\n%s", logs)
	}
}
