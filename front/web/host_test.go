package web

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/log"
	"github.com/coder/websocket"

	"gridlag/internal/vt"
	"gridlag/server/admit/admittest"
)

// dialHost opens a WebSocket to s over loopback as a page reached by
// the name host would: Host: host, and origin (the page's own, http://
// and host, unless set).
func dialHost(t *testing.T, s *Server, host, origin string) (*websocket.Conn, *http.Response, error) {
	t.Helper()
	if origin == "" {
		origin = "http://" + host
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	c, resp, err := websocket.Dial(ctx, "ws://"+s.Addr().String()+socketPath, &websocket.DialOptions{
		Host: host, HTTPHeader: http.Header{"Origin": {origin}}})
	if err == nil {
		t.Cleanup(func() { c.CloseNow() })
	}
	return c, resp, err
}

// refused checks that a dial was answered 403 with a body holding want,
// and returns the body.
func refused(t *testing.T, what string, c *websocket.Conn, resp *http.Response, err error, want string) {
	t.Helper()
	if err == nil {
		c.CloseNow()
		t.Errorf("%s: the socket opened", what)
		return
	}
	if resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("%s: %v, want 403", what, err)
		return
	}
	body, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(body), want) {
		t.Errorf("%s: 403 saying %q, want %q", what, body, want)
	}
}

// plays checks that a page reached as host plays.
func plays(t *testing.T, s *Server, host string) {
	t.Helper()
	c, _, err := dialHost(t, s, host, "")
	if err != nil {
		t.Errorf("Host %s: %v, want the socket open", host, err)
		return
	}
	tb := &tab{t: t, c: c, vt: vt.New(100, 40), changed: make(chan struct{}, 1), ended: make(chan struct{})}
	go tb.read()
	tb.sendJSON(hello{Name: "ada", ID: testID(1), Path: "/", Cols: 100, Rows: 40})
	tb.waitText("hello ada")
	c.Close(websocket.StatusNormalClosure, "")
	<-tb.ended
}

// A page on a name the server is not reached by (DNS rebinding:
// evil.example pointed at the server's address, the page's origin its
// own) is refused before anything is spent on it, the log saying why
// (once for a burst: the others are counted for its summary), and the
// page told why, as it reads when it asks.
func TestForeignHostIsRefused(t *testing.T) {
	var lb admittest.Log
	s := startWeb(t, Options{Handler: sizeHandler(nil), Logger: log.New(io.MultiWriter(&lb, admittest.Writer(t)))})
	port := s.Addr().(*net.TCPAddr).Port
	evil := net.JoinHostPort("evil.example", strconv.Itoa(port))
	for range 20 {
		c, resp, err := dialHost(t, s, evil, "")
		refused(t, "Host "+evil, c, resp, err, "does not answer to the name "+evil)
	}
	s.mu.Lock()
	tracked := len(s.live)
	s.mu.Unlock()
	if tracked != 0 {
		t.Errorf("%d sessions tracked for refused sockets", tracked)
	}
	if all, _ := s.sessions.Held("127.0.0.1"); all != 0 {
		t.Errorf("%d session places taken by refused sockets", all)
	}
	// The page asks /ws why its socket failed: a plain request.
	req, _ := http.NewRequest("GET", "http://"+s.Addr().String()+socketPath, nil)
	req.Host = evil
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden || !strings.Contains(string(body), "does not answer to the name evil.example") {
		t.Errorf("GET /ws as evil.example: %d %q, want 403 and why", resp.StatusCode, body)
	}
	req.Host = s.Addr().String()
	if resp, err = http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUpgradeRequired {
		t.Errorf("GET /ws by its own address: %d, want 426 (nothing refused, no socket asked for)", resp.StatusCode)
	}
	// 21 refusals from one address: one line, the others counted for
	// the log's summary (ratelog).
	if n := lb.Count("web socket refused", "host=evil.example", "DNS rebinding"); n != 1 {
		t.Errorf("%d lines of the refusals, want one (summarised):\n%s", n, lb.String())
	}
}

// The names the server is reached by play: the address it listens on,
// localhost, loopback addresses (IPv6 in brackets, with a port or
// without), the machine's own addresses, and the names given (-web-host),
// in any case; any other is refused, and so is an Origin that is not
// the page's host, even one of those names.
func TestHostsTheServerIsReachedBy(t *testing.T) {
	hosts, err := ParseHosts("game.example, 203.0.113.7")
	if err != nil {
		t.Fatal(err)
	}
	s := startWeb(t, Options{Handler: sizeHandler(nil), Hosts: hosts})
	port := strconv.Itoa(s.Addr().(*net.TCPAddr).Port)
	ok := []string{s.Addr().String(), "localhost:" + port, "LocalHost:" + port, "localhost", "play.localhost:" + port,
		"[::1]:" + port, "[::1]", "127.0.0.2:" + port, "game.example:" + port, "Game.Example", "game.example.", "203.0.113.7:" + port}
	if a := machineAddr(); a.IsValid() {
		ok = append(ok, net.JoinHostPort(a.String(), port))
	} else {
		t.Log("the machine has no address but loopback and link-local ones: not tried")
	}
	for _, h := range ok {
		plays(t, s, h)
	}
	for _, h := range []string{"evil.example:" + port, "game.example.evil.example", "203.0.113.8:" + port,
		"[2001:db8::1]:" + port, "[fe80::1%25eth0]:" + port, "::1:" + port, "[::1]x"} {
		c, resp, err := dialHost(t, s, h, "")
		refused(t, "Host "+h, c, resp, err, "does not answer to the name")
	}
	for _, c := range []struct{ host, origin string }{
		{"localhost:" + port, "http://127.0.0.1:" + port},
		{"game.example", "http://localhost:" + port},
		{"game.example", "http://evil.example"},
		{"localhost:" + port, "http://localhost:" + port + ".evil.example"},
	} {
		conn, resp, err := dialHost(t, s, c.host, c.origin)
		refused(t, "Host "+c.host+", Origin "+c.origin, conn, resp, err, "for the game's own page")
	}
}

// A server listening on IPv6 loopback plays a page reached by its
// address, [::1]:PORT.
func TestIPv6Listener(t *testing.T) {
	ln, err := net.Listen("tcp", "[::1]:0")
	if err != nil {
		t.Skipf("no IPv6 loopback here: %v", err)
	}
	s, err := New(Options{Handler: sizeHandler(nil), Logger: admittest.Logger(t)})
	if err != nil {
		t.Fatal(err)
	}
	admittest.ServeOn(t, s, ln, ErrServerClosed)
	tb := openTab(t, s, dialer{}, "ada", testID(1), "/")
	tb.waitText("hello ada")
}

// machineAddr is one of the machine's addresses that is not loopback,
// if it has one.
func machineAddr() netip.Addr {
	for _, a := range machineAddrs() {
		if !a.IsLoopback() && !a.IsLinkLocalUnicast() {
			return a
		}
	}
	return netip.Addr{}
}

func TestSplitHost(t *testing.T) {
	for in, want := range map[string]string{
		"localhost": "localhost", "localhost:8080": "localhost", "[::1]:8080": "::1", "[::1]": "::1",
		"[fe80::1%25eth0]:80": "fe80::1", "10.0.0.1:80": "10.0.0.1",
		"": "", ":80": "", "::1": "", "[::1": "", "[::1]8080": "", "[nope]:80": "", "host:port": "", "host:123456": "",
	} {
		got, ok := splitHost(in)
		if ok != (want != "") || got != want {
			t.Errorf("splitHost(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

func TestParseHosts(t *testing.T) {
	got, err := ParseHosts(" Game.Example., 203.0.113.7,[2001:db8::1],,")
	if err != nil || strings.Join(got, " ") != "game.example 203.0.113.7 2001:db8::1" {
		t.Errorf("ParseHosts = %q, %v", got, err)
	}
	for _, bad := range []string{"game.example:443", "bad host", "a..b", "http://game.example"} {
		if _, err := ParseHosts(bad); err == nil {
			t.Errorf("ParseHosts(%q): no error", bad)
		}
	}
}
