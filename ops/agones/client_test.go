package agones

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/charmbracelet/log"
)

// signalWriter closes ch at the first write that contains text.
type signalWriter struct {
	text string
	ch   chan struct{}
	once sync.Once
}

func (w *signalWriter) Write(p []byte) (int, error) {
	if strings.Contains(string(p), w.text) {
		w.once.Do(func() { close(w.ch) })
	}
	return len(p), nil
}

// fast is a backoff of a few milliseconds, for tests.
var fast = Backoff{First: time.Millisecond, Max: 4 * time.Millisecond}

// closedAddr returns a loopback address where nothing listens.
func closedAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

func newClient(t *testing.T, addr string, timeout time.Duration) *Client {
	t.Helper()
	c, err := New(Options{Addr: addr, Timeout: timeout, CallTimeout: time.Second, Backoff: fast})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestMissingSidecarIsAClearErrorAfterTheTimeout: nothing listens, and the
// call gives up after Timeout, naming the sidecar and the timeout.
func TestMissingSidecarIsAClearErrorAfterTheTimeout(t *testing.T) {
	addr := closedAddr(t)
	c := newClient(t, addr, 50*time.Millisecond)
	began := time.Now()
	done := make(chan error, 1)
	go func() { done <- c.Ready(context.Background()) }()
	var err error
	select {
	case err = <-done:
	case <-time.After(30 * time.Second): // a hang guard: a call that never gives up
		t.Fatal("Ready still waits for the missing sidecar; Timeout is 50ms")
	}
	if err == nil {
		t.Fatal("Ready succeeded with no sidecar")
	}
	for _, want := range []string{"POST /ready", addr, "did not answer within 50ms"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if took := time.Since(began); took < 50*time.Millisecond {
		t.Errorf("gave up after %v, before the Timeout of 50ms", took)
	}
}

// TestCallWaitsForALateSidecar: the sidecar starts listening after the
// first try was refused (the client says it waits), and the call succeeds.
func TestCallWaitsForALateSidecar(t *testing.T) {
	addr := closedAddr(t)
	refused := make(chan struct{})
	logger := log.New(&signalWriter{text: "waiting for the Agones SDK sidecar", ch: refused})
	var readies atomic.Int32
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == "POST" && r.URL.Path == "/ready" {
			readies.Add(1)
		}
		w.Write([]byte("{}"))
	})}
	t.Cleanup(func() { srv.Close() })
	go func() {
		<-refused // the sidecar starts once the first try was refused
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			t.Error(err) // the port was taken meanwhile
			return
		}
		srv.Serve(ln)
	}()
	c, err := New(Options{Addr: addr, Timeout: 10 * time.Second, CallTimeout: time.Second, Backoff: fast, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Ready(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := readies.Load(); n != 1 {
		t.Errorf("the sidecar got %d Ready calls, want 1", n)
	}
}

// TestUnavailableIsRetriedOtherErrorsAreNot: the gateway's 503 (its SDK
// server not up yet) is tried again; a 500 is the caller's error at once,
// with the gateway's message.
func TestUnavailableIsRetriedOtherErrorsAreNot(t *testing.T) {
	var calls atomic.Int32
	sidecar := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := calls.Add(1)
		switch {
		case r.URL.Path == "/health" && n <= 3:
			w.WriteHeader(http.StatusServiceUnavailable)
			w.Write([]byte(`{"code":14,"message":"connection error"}`))
		case r.URL.Path == "/health":
			w.Write([]byte("{}"))
		default:
			w.WriteHeader(http.StatusInternalServerError)
			w.Write([]byte(`{"code":2,"message":"not found. players List not found","details":[]}`))
		}
	}))
	t.Cleanup(sidecar.Close)
	c := newClient(t, strings.TrimPrefix(sidecar.URL, "http://"), 10*time.Second)
	if err := c.Health(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := calls.Load(); n != 4 {
		t.Errorf("Health took %d tries, want 4 (three 503s, then OK)", n)
	}
	calls.Store(100)
	err := c.PlayerConnect(context.Background(), "ann")
	if err == nil || !strings.Contains(err.Error(), "players List not found") {
		t.Errorf("PlayerConnect's error is %v, want the gateway's message", err)
	}
	if n := calls.Load(); n != 101 {
		t.Errorf("PlayerConnect took %d tries, want 1", n-100)
	}
}

// TestCallTimeoutBoundsATry: a sidecar that accepts but never answers
// makes each try end after CallTimeout, and the call after Timeout.
func TestCallTimeoutBoundsATry(t *testing.T) {
	stuck := make(chan struct{})
	sidecar := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-stuck:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(func() { close(stuck); sidecar.Close() })
	c, err := New(Options{Addr: strings.TrimPrefix(sidecar.URL, "http://"), Timeout: 100 * time.Millisecond, CallTimeout: 10 * time.Millisecond, Backoff: fast})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Shutdown(context.Background()); err == nil || !strings.Contains(err.Error(), "did not answer within 100ms") {
		t.Errorf("Shutdown's error is %v, want the sidecar did not answer", err)
	}
}

// TestCancelledCallEndsAtOnce: cancelling the context ends the waiting.
func TestCancelledCallEndsAtOnce(t *testing.T) {
	c := newClient(t, closedAddr(t), time.Hour)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(10*time.Millisecond, cancel)
	if err := c.SetLabel(ctx, "players", "1"); err == nil || !strings.Contains(err.Error(), "context canceled") {
		t.Errorf("SetLabel's error is %v, want context canceled", err)
	}
}

// TestSidecarAddrFromTheEnvironment: the port comes from
// AGONES_SDK_HTTP_PORT, 9358 without it; a bad one is an error.
func TestSidecarAddrFromTheEnvironment(t *testing.T) {
	for env, want := range map[string]string{"": "127.0.0.1:9358", "19358": "127.0.0.1:19358", "x": "", "70000": ""} {
		t.Setenv(PortEnv, env)
		got, err := SidecarAddr()
		if got != want || (err != nil) != (want == "") {
			t.Errorf("%s=%q: SidecarAddr() = %q, %v; want %q", PortEnv, env, got, err, want)
		}
	}
}
