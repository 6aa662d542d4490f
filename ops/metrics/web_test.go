package metrics

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"gridlag/server"
)

// answer fetches path and returns its status code and body.
func answer(t *testing.T, base, path string) (int, string) {
	t.Helper()
	resp, err := http.Get(base + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(body)
}

// TestProfilerOnlyWhenAskedFor: the metrics address serves no profiler
// (it shows the command line to anyone) unless Routes.Profiler says so;
// / lists what it serves.
func TestProfilerOnlyWhenAskedFor(t *testing.T) {
	exp := New()
	for _, profiler := range []bool{false, true} {
		web := httptest.NewServer(Routes{Metrics: exp, Health: func() server.Health { return server.Health{} }, Profiler: profiler}.Handler())
		want := http.StatusNotFound
		if profiler {
			want = http.StatusOK
		}
		for _, path := range []string{"/debug/pprof/", "/debug/pprof/cmdline", "/debug/pprof/goroutine?debug=1"} {
			if code, _ := answer(t, web.URL, path); code != want {
				t.Errorf("profiler %v: GET %s: %d, want %d", profiler, path, code, want)
			}
		}
		code, index := answer(t, web.URL, "/")
		wantIndex := "gridlag: /metrics /healthz /readyz\n"
		if profiler {
			wantIndex = "gridlag: /metrics /healthz /readyz /debug/pprof/\n"
		}
		if code != http.StatusOK || index != wantIndex {
			t.Errorf("profiler %v: GET /: %d %q, want %q", profiler, code, index, wantIndex)
		}
		if code, _ := answer(t, web.URL, "/nothing"); code != http.StatusNotFound {
			t.Errorf("GET /nothing: %d, want 404", code)
		}
		web.Close()
	}
}

// TestHealthAnswers: /healthz and /readyz answer 200 or 503 with one
// line saying why, from the server's Health at the handler's clock.
func TestHealthAnswers(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	now := t0
	h := server.Health{Serving: true, Beat: t0, Interval: 2 * time.Second, Players: 3, MaxPlayers: 10, Conns: 4, MaxConns: 100}
	web := httptest.NewServer(Routes{Health: func() server.Health { return h }, Now: func() time.Time { return now }}.Handler())
	defer web.Close()
	check := func(when, path string, wantCode int, wantBody string) {
		t.Helper()
		code, body := answer(t, web.URL, path)
		if code != wantCode || body != wantBody+"\n" {
			t.Errorf("%s: GET %s: %d %q, want %d %q", when, path, code, body, wantCode, wantBody)
		}
	}
	check("serving", "/healthz", 200, "ok")
	check("serving", "/readyz", 200, "ready: 3 of 10 players, 4 of 100 connections")
	now = t0.Add(6 * time.Second)
	check("three beats late", "/healthz", 200, "ok")
	h.Players = 10
	check("full", "/readyz", 503, "full: 10 of 10 players")
	h.Players, h.Conns = 3, 100
	check("out of connections", "/readyz", 503, "full: 100 of 100 connections")
	h.Conns, h.Draining = 4, "server stopping in 10 s"
	check("draining", "/healthz", 200, "ok")
	check("draining", "/readyz", 503, "draining: server stopping in 10 s")
	now = t0.Add(6*time.Second + time.Millisecond)
	check("stalled", "/healthz", 503, "stalled: the world's last heartbeat was 6.001s ago, more than 3 beats of 2s")
	check("stalled", "/readyz", 503, "stalled: the world's last heartbeat was 6.001s ago, more than 3 beats of 2s")
	h.Serving = false
	check("closed", "/healthz", 503, "not serving")

	resp, err := http.Head(web.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 503 || resp.Header.Get("Content-Type") != "text/plain; charset=utf-8" || resp.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("HEAD /healthz: %d %v", resp.StatusCode, resp.Header)
	}
}

// TestHTTPServerClosesIdleAndSlowConnections: the metrics and health
// address has every timeout set, and with them (shortened here) it closes a
// keep-alive connection that sends no further request and one that sends
// its headers too slowly.
func TestHTTPServerClosesIdleAndSlowConnections(t *testing.T) {
	for _, profiler := range []bool{false, true} {
		s := NewHTTPServer(http.NotFoundHandler(), profiler)
		if s.ReadHeaderTimeout <= 0 || s.ReadTimeout <= 0 || s.WriteTimeout <= 0 || s.IdleTimeout <= 0 || s.MaxHeaderBytes <= 0 {
			t.Errorf("profiler %v: a limit is unset: %+v", profiler, s)
		}
		if profiler && s.WriteTimeout <= time.Minute {
			t.Errorf("with the profiler, WriteTimeout %v leaves no room for a minute's profile", s.WriteTimeout)
		}
	}

	s := NewHTTPServer(Routes{Health: func() server.Health { return server.Health{} }}.Handler(), false)
	s.IdleTimeout, s.ReadHeaderTimeout = 100*time.Millisecond, 100*time.Millisecond
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve(ln)
	defer s.Close()

	idle := dialWeb(t, ln.Addr().String())
	if _, err := idle.Write([]byte("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(idle), nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	if resp.Close {
		t.Fatal("the server asked to close the connection: it is not kept alive, so this test shows nothing")
	}
	waitClosed(t, idle, "an idle keep-alive connection")

	slow := dialWeb(t, ln.Addr().String())
	if _, err := slow.Write([]byte("GET /healthz HTTP/1.1\r\nHo")); err != nil {
		t.Fatal(err)
	}
	waitClosed(t, slow, "a connection sending its headers too slowly")
}

func dialWeb(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// waitClosed waits for the server to close c: a read that ends, before a
// deadline far longer than the timeouts.
func waitClosed(t *testing.T, c net.Conn, what string) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(wait))
	_, err := io.Copy(io.Discard, c)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("the server kept %s open for %v", what, wait)
	}
}
