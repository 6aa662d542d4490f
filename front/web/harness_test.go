package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"gridlag/front/remote/remotetest"
	"gridlag/internal/notify"
	"gridlag/internal/vt"
	"gridlag/server"
	"gridlag/server/admit/admittest"
	"gridlag/server/world"
)

// waitLong bounds every wait of these tests: what they wait for comes
// much sooner on an idle machine, and a busy one is given its time (the
// hang guard).
const waitLong = admittest.Hung

// startGame runs a real game server on 127.0.0.1:0 and returns it with
// its address.
func startGame(t testing.TB, opts server.Options) (*server.Server, string) {
	t.Helper()
	if opts.Hub.Config.Rate == 0 {
		opts.Hub.Config.Rate = world.DefaultRate
	}
	if opts.Hub.Config.Resume == 0 {
		opts.Hub.Config.Resume = world.DefaultResume
	}
	return remotetest.Game(t, opts)
}

// startWeb starts a web front end on 127.0.0.1:0 with opts and closes it
// when the test ends.
func startWeb(t testing.TB, opts Options) *Server {
	t.Helper()
	if opts.Logger == nil {
		opts.Logger = admittest.Logger(t).WithPrefix("web")
	}
	s, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	admittest.Serve(t, s, ErrServerClosed)
	return s
}

// startGameWeb runs a game server and a web front end playing on it, its
// players connecting through the game server itself (as gridlag -web
// does), each counting as its browser's address.
func startGameWeb(t testing.TB, opts Options) (*Server, *server.Server) {
	t.Helper()
	g, addr := startGame(t, server.Options{})
	opts.GameAddr, opts.Dial = addr, g.Dial
	return startWeb(t, opts), g
}

// dialer says how a test's browser connects: from which address, with
// which Origin (the page's own unless set) and headers.
type dialer struct {
	from    string // local address, e.g. "127.0.0.2"; "" = any
	origin  string // "" = the page's own; "-" = none
	headers http.Header
	code    string // the class code the page presents (?code=), "" for none
}

// dial opens a WebSocket to s as a browser on its page would.
func (d dialer) dial(ctx context.Context, s *Server) (*websocket.Conn, *http.Response, error) {
	addr := s.Addr().String()
	h := http.Header{}
	for k, v := range d.headers {
		h[k] = v
	}
	switch d.origin {
	case "":
		h.Set("Origin", "http://"+addr)
	case "-":
	default:
		h.Set("Origin", d.origin)
	}
	nd := &net.Dialer{}
	if d.from != "" {
		nd.LocalAddr = &net.TCPAddr{IP: net.ParseIP(d.from)}
	}
	hc := &http.Client{Transport: &http.Transport{DialContext: nd.DialContext}}
	u := "ws://" + addr + socketPath
	if d.code != "" {
		u += "?code=" + url.QueryEscape(d.code)
	}
	return websocket.Dial(ctx, u, &websocket.DialOptions{HTTPHeader: h, HTTPClient: hc})
}

// tab is a test's browser tab: a WebSocket to the server, its terminal
// and the notices it got.
type tab struct {
	t       testing.TB
	c       *websocket.Conn
	vt      *vt.Term // the terminal, 100x40 unless resized
	mu      sync.Mutex
	notices []notice
	err     error // why reading ended
	changed chan struct{}
	ended   chan struct{}
}

// testID is a browser identity for tests.
func testID(n int) string { return fmt.Sprintf("%032x", 0xc0ffee00+n) }

// openTab connects to s and says hello: the page at path, named name,
// with identity id, at 100x40.
func openTab(t testing.TB, s *Server, d dialer, name, id, path string) *tab {
	t.Helper()
	tb := connectTab(t, s, d)
	tb.sendJSON(hello{Name: name, ID: id, Path: path, Cols: 100, Rows: 40})
	return tb
}

// connectTab connects to s without a hello.
func connectTab(t testing.TB, s *Server, d dialer) *tab {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	c, _, err := d.dial(ctx, s)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	c.SetReadLimit(1 << 20)
	tb := &tab{t: t, c: c, vt: vt.New(100, 40), changed: make(chan struct{}, 1), ended: make(chan struct{})}
	go tb.read()
	t.Cleanup(func() { c.CloseNow() })
	return tb
}

func (tb *tab) read() {
	defer close(tb.ended)
	for {
		typ, data, err := tb.c.Read(context.Background())
		tb.mu.Lock()
		if err != nil {
			tb.err = err
			tb.mu.Unlock()
			tb.signal()
			return
		}
		if typ == websocket.MessageBinary {
			tb.vt.Write(data)
		} else {
			var n notice
			if err := json.Unmarshal(data, &n); err != nil {
				tb.t.Errorf("the server sent a text message that is no notice: %q", data)
			}
			tb.notices = append(tb.notices, n)
		}
		tb.mu.Unlock()
		tb.signal()
	}
}

func (tb *tab) signal() {
	notify.Poke(tb.changed)
}

// wait waits until ok holds of the tab's state, or fails.
func (tb *tab) wait(what string, ok func() bool) {
	tb.t.Helper()
	deadline := time.After(waitLong)
	for {
		tb.mu.Lock()
		done := ok()
		tb.mu.Unlock()
		if done {
			return
		}
		select {
		case <-tb.changed:
		case <-deadline:
			tb.mu.Lock()
			defer tb.mu.Unlock()
			tb.t.Fatalf("waited %s for %s; notices %+v, read error %v, screen:\n%s", waitLong, what, tb.notices, tb.err, tb.vt.Text())
		}
	}
}

// waitText waits until the screen shows each of texts, and returns it.
func (tb *tab) waitText(texts ...string) string {
	tb.t.Helper()
	var screen string
	tb.wait(fmt.Sprintf("%q on the screen", texts), func() bool {
		screen = tb.vt.Text()
		for _, s := range texts {
			if !strings.Contains(screen, s) {
				return false
			}
		}
		return true
	})
	return screen
}

// resize resizes the tab's terminal and tells the server, as the page
// does when its window changes.
func (tb *tab) resize(cols, rows int) {
	tb.t.Helper()
	tb.vt.Resize(cols, rows)
	tb.sendJSON(size{Cols: cols, Rows: rows})
}

// waitJoined waits for the notice that says who the player is.
func (tb *tab) waitJoined() joined {
	tb.t.Helper()
	var j joined
	tb.wait("the joined notice", func() bool {
		for _, n := range tb.notices {
			if n.Joined != nil {
				j = *n.Joined
				return true
			}
		}
		return false
	})
	return j
}

// waitEnd waits for the notice that says why the session ended, then
// for the socket to close, and returns the notice and the close status.
func (tb *tab) waitEnd() (ending, websocket.StatusCode) {
	tb.t.Helper()
	var e ending
	tb.wait("the end notice", func() bool {
		for _, n := range tb.notices {
			if n.End != nil {
				e = *n.End
				return true
			}
		}
		return false
	})
	return e, tb.waitClosed()
}

// waitClosed waits for the socket to close and returns its close status
// (-1 if it closed without one).
func (tb *tab) waitClosed() websocket.StatusCode {
	tb.t.Helper()
	select {
	case <-tb.ended:
	case <-time.After(waitLong):
		tb.t.Fatalf("the socket is still open after %s", waitLong)
	}
	return websocket.CloseStatus(tb.err)
}

// send sends input, as the page sends key presses.
func (tb *tab) send(keys string) {
	tb.t.Helper()
	if err := tb.c.Write(context.Background(), websocket.MessageBinary, []byte(keys)); err != nil {
		tb.t.Fatalf("send: %v", err)
	}
}

// sendJSON sends v as a text message, as the page sends its hello and
// sizes.
func (tb *tab) sendJSON(v any) {
	tb.t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.t.Fatal(err)
	}
	if err := tb.c.Write(context.Background(), websocket.MessageText, b); err != nil {
		tb.t.Fatalf("send: %v", err)
	}
}
