package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/coder/websocket"
)

// Each end and refusal comes with the close code the page acts on: a cap
// 1013 and the seconds to wait (-web-retry), a server that stops 1001,
// what a page never sends 1008 with the reason, sizes among it: 0,
// negative, fractional, over the largest side, a size after a key.
func TestCloseCodes(t *testing.T) {
	s := startWeb(t, Options{Handler: sizeHandler(nil), MaxPerAddr: 1, RetryAfter: 7e9})
	a := openTab(t, s, dialer{}, "ada", testID(1), "/")
	a.waitText("hello ada")
	b := connectTab(t, s, dialer{}) // refused before its hello
	if e, code := b.waitEnd(); code != closeTryLater || !e.Again || e.Retry != 7 || !strings.Contains(e.Reason, "too many sessions from your address (1)") {
		t.Errorf("a refusal for a cap: end %+v, close %v; want 1013, again, retry 7 s, the reason", e, code)
	}
	sizes := startWeb(t, Options{Handler: sizeHandler(nil)})
	for i, c := range []struct{ name, size, want string }{
		{"zero", `{"cols":0,"rows":24}`, "a terminal size of 0x24"},
		{"negative", `{"cols":80,"rows":-1}`, "a terminal size of 80x-1"},
		{"fractional", `{"cols":80.5,"rows":24}`, "a message it never sends"},
		{"65536", `{"cols":65536,"rows":24}`, "a terminal size of 65536x24"},
		{"a size and an ack", `{"cols":80,"rows":24,"ack":0}`, "a message it never sends"},
		{"half a size", `{"cols":80}`, "a message it never sends"},
	} {
		tb := openTab(t, sizes, dialer{}, "ada", testID(10+i), "/")
		tb.waitText("hello ada")
		tb.c.Write(context.Background(), websocket.MessageText, []byte(c.size))
		if e, code := tb.waitEnd(); code != closePolicy || !strings.Contains(e.Reason, c.want) {
			t.Errorf("size %s (%s): end %+v, close %v; want 1008, %q", c.size, c.name, e, code, c.want)
		}
	}
	// A size after the session ended (the page's resize racing the end)
	// finds a closed socket: nothing else happens.
	tb := openTab(t, sizes, dialer{}, "ada", testID(20), "/")
	tb.waitText("hello ada")
	tb.send("q")
	tb.waitEnd()
	tb.c.Write(context.Background(), websocket.MessageText, []byte(`{"cols":90,"rows":30}`))
	last := openTab(t, sizes, dialer{}, "ada", testID(21), "/")
	last.waitText("hello ada")

	closed := make(chan struct{})
	go func() {
		defer close(closed)
		sizes.Close()
	}()
	if e, code := last.waitEnd(); code != closeGoingAway || e.Reason != "server stopped" {
		t.Errorf("a server that stops: end %+v, close %v; want server stopped, 1001", e, code)
	}
	<-closed
}

// A page with flow control: its pings are answered; an acknowledgement
// of more than was sent, or going back, ends the session (1008); one
// from a page that did not ask for flow control too.
func TestFlowAcksAndPings(t *testing.T) {
	s := startWeb(t, Options{Handler: sizeHandler(nil)})
	tb := connectTab(t, s, dialer{})
	tb.sendJSON(hello{Name: "ada", ID: testID(1), Path: "/", Cols: 80, Rows: 24, Flow: true})
	tb.waitText("hello ada")
	tb.sendJSON(map[string]int{"ping": 41})
	tb.wait("the answer to ping 41", func() bool {
		for _, n := range tb.notices {
			if n.Pong != nil && *n.Pong == 41 {
				return true
			}
		}
		return false
	})
	tb.sendJSON(map[string]int64{"ack": 1 << 40})
	if e, code := tb.waitEnd(); code != closePolicy || !strings.Contains(e.Reason, "acknowledged 1099511627776 bytes") {
		t.Errorf("an ack of more than was sent: end %+v, close %v", e, code)
	}
	old := openTab(t, s, dialer{}, "bea", testID(2), "/") // no flow control
	old.waitText("hello bea")
	old.sendJSON(map[string]int{"ack": 0})
	if e, code := old.waitEnd(); code != closePolicy || !strings.Contains(e.Reason, "without asking for flow control") {
		t.Errorf("an ack without flow control: end %+v, close %v", e, code)
	}
}

// The flow control itself: writes go while fewer than the window's bytes
// are in flight; past it they are left out, and so are all after, until
// the page has drawn all it was sent: then it is redrawn, once.
func TestFlowWindow(t *testing.T) {
	var st flowStats
	f := newFlow(100, &st)
	redraws := 0
	f.redraw = func() { redraws++ }
	if !f.take(60) || !f.take(60) || f.take(1) {
		t.Fatalf("a window of 100: 60, 60 go, 1 more is left out")
	}
	if err := f.ack(100); err != nil || f.take(1) {
		t.Fatalf("ack 100 of 120 (%v): a write went while the page is behind", err)
	}
	if redraws != 0 {
		t.Fatalf("redrawn before the page caught up")
	}
	if err := f.ack(120); err != nil || redraws != 1 || !f.take(50) {
		t.Fatalf("caught up (%v): %d redraws, want 1, and writes go again", err, redraws)
	}
	if err := f.ack(100); err == nil {
		t.Errorf("an ack going back is taken")
	}
	if st.maxInFlight.Load() != 120 || st.skipped.Load() != 2 || st.redraws.Load() != 1 {
		t.Errorf("stats: in flight at most %d, %d left out, %d redraws; want 120, 2, 1", st.maxInFlight.Load(), st.skipped.Load(), st.redraws.Load())
	}
}

// Over HTTP/2 (TLS, as behind a proxy that speaks it), a request has no
// Host header but an :authority, which is the name the check reads: a
// page on a foreign name is refused with the reason, the server's own
// name passes on to the upgrade (which HTTP/2 cannot make: 426).
func TestHostCheckOverHTTP2(t *testing.T) {
	s, err := New(Options{Handler: sizeHandler(nil)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	ts := httptest.NewUnstartedServer(s)
	ts.EnableHTTP2 = true
	ts.StartTLS()
	t.Cleanup(ts.Close)
	s.hosts.listen(ts.Listener.Addr())
	hc := ts.Client()
	for _, c := range []struct {
		host   string
		status int
		says   string
	}{
		{"evil.example", http.StatusForbidden, "does not answer to the name evil.example"},
		{ts.Listener.Addr().String(), http.StatusUpgradeRequired, "the game's WebSocket"},
	} {
		req, _ := http.NewRequest("GET", ts.URL+socketPath, nil)
		req.Host = c.host
		req.Header.Set("Origin", "https://"+c.host)
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 512)
		n, _ := resp.Body.Read(buf)
		resp.Body.Close()
		if resp.ProtoMajor != 2 || resp.StatusCode != c.status || !strings.Contains(string(buf[:n]), c.says) {
			t.Errorf(":authority %s: HTTP/%d %d %q; want HTTP/2 %d saying %q", c.host, resp.ProtoMajor, resp.StatusCode, buf[:n], c.status, c.says)
		}
	}
}
