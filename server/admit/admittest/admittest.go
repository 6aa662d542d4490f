// Package admittest is test support for the front ends (server, sshd,
// web) and the program that runs them: a log's output that a test reads
// while a server writes it, and one that goes to the test's log; a
// connection from a chosen loopback address (to play several addresses
// against the caps by address), one that counts what it reads; a server
// served on loopback for one test; a hang guard, with the waits that
// keep to it (Eventually, Poll, Ends): any package's tests that wait on
// sockets, goroutines or processes wait with them; and a wait for the
// goroutines to settle back to a baseline.
package admittest

import (
	"bytes"
	"errors"
	"io"
	"net"
	"net/http"
	"runtime"
	"runtime/pprof"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/charmbracelet/log"
)

// Hung is the hang guard: a wait for what takes no timer (a Close, a
// loop's end) that lasts longer fails as hung, long past anything a busy
// machine could cause.
const Hung = time.Minute

// Log is a log's output, safe to read while a server writes it.
type Log struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *Log) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String is everything written so far.
func (l *Log) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Count is the number of lines written so far that hold every one of
// subs.
func (l *Log) Count(subs ...string) int {
	n := 0
next:
	for _, line := range strings.Split(l.String(), "\n") {
		for _, s := range subs {
			if !strings.Contains(line, s) {
				continue next
			}
		}
		n++
	}
	return n
}

// Logger writes a server's log, at debug level, to the test's log.
func Logger(t testing.TB) *log.Logger {
	return log.NewWithOptions(Writer(t), log.Options{Level: log.DebugLevel})
}

// Writer writes what a server or a process prints to the test's log, a
// line at a time.
func Writer(t testing.TB) io.Writer { return testWriter{t} }

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// CountingConn counts the bytes read from a connection: what crosses the
// network toward a player, framing included.
type CountingConn struct {
	net.Conn
	read atomic.Int64
}

func (c *CountingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.read.Add(int64(n))
	return n, err
}

// Bytes is the number of bytes read so far.
func (c *CountingConn) Bytes() int64 { return c.read.Load() }

// DialFrom opens a TCP connection to addr from the loopback address local
// (127.0.0.2, 127.0.0.3...: Linux answers on all of 127/8); the test's
// end closes it.
func DialFrom(t testing.TB, addr, local string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(local)}, Timeout: Hung}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// Server is a front end's server: it serves a listener until Close.
type Server interface {
	Serve(net.Listener) error
	Close() error
}

// Serve serves s on a free loopback port until the test ends, then closes
// it and checks that its Serve returned closed (the server's
// ErrServerClosed). A server with an Addr method is served once Addr
// says so. Serve returns the address s serves on.
func Serve(t testing.TB, s Server, closed error) net.Addr {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ServeOn(t, s, ln, closed)
}

// ServeOn is Serve on ln.
func ServeOn(t testing.TB, s Server, ln net.Listener, closed error) net.Addr {
	t.Helper()
	served := make(chan error, 1)
	go func() { served <- s.Serve(ln) }()
	t.Cleanup(func() {
		s.Close()
		if err := <-served; !errors.Is(err, closed) {
			t.Errorf("Serve returned %v, want %v", err, closed)
		}
	})
	if a, ok := s.(interface{ Addr() net.Addr }); ok {
		Eventually(t, func() bool { return a.Addr() != nil }, func() string { return "the server never served" })
	}
	return ln.Addr()
}

// Ends runs f and reports whether it returned within the hang guard
// (Hung); past it, f goes on in the background.
func Ends(f func()) bool {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
		return true
	case <-time.After(Hung):
		return false
	}
}

// FreeAddr returns a loopback address nothing listens on, for a server
// a test starts with its address given (a flag's, a child process's).
func FreeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// Get GETs url and returns the status code and the body: a probe of a
// health check, a page.
func Get(url string) (int, string, error) {
	resp, err := http.Get(url)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body), err
}

// Settle waits until busy (nil: nothing) counts nothing running, a
// server's sessions, and no more goroutines run than baseline; it fails
// the test with every goroutine's stack if that does not happen within
// the hang guard (Hung).
func Settle(t testing.TB, baseline int, busy func() int) {
	t.Helper()
	if busy == nil {
		busy = func() int { return 0 }
	}
	for deadline := time.Now().Add(Hung); busy() > 0 || runtime.NumGoroutine() > baseline; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			var buf bytes.Buffer
			pprof.Lookup("goroutine").WriteTo(&buf, 1)
			t.Fatalf("%d running and %d goroutines (%d before) after %v:\n%s", busy(), runtime.NumGoroutine(), baseline, Hung, buf.String())
		}
	}
}

// CloseLeavesOneBehind closes a front end (close) that runs one session
// that will not end, hurried first (a second signal) if hurry is not nil,
// and checks that Close returned, within the hang guard, and not before
// grace unless hurried; that abandoned() counts the session; and that its
// log says so in one line. It logs how long Close took (no bound: a busy
// machine is slow).
func CloseLeavesOneBehind(t testing.TB, close, hurry func(), grace time.Duration, abandoned func() uint64, l *Log) {
	t.Helper()
	begun := time.Now()
	if hurry != nil {
		hurry()
	}
	if !Ends(close) {
		t.Fatal("Close did not return with a session that will not end")
	}
	took := time.Since(begun)
	t.Logf("hurried %v: Close returned after %v (grace %v)", hurry != nil, took, grace)
	if hurry == nil && took < grace {
		t.Errorf("Close returned after %v, before the grace period (%v)", took, grace)
	}
	if n := abandoned(); n != 1 {
		t.Errorf("%d sessions left behind, want 1", n)
	}
	if !strings.Contains(l.String(), "sessions=1") || l.Count("did not end after their connections were closed") != 1 {
		t.Errorf("the log does not say one session was left behind:\n%s", l.String())
	}
}

// Eventually polls cond until it holds, and fails t with what why says
// then if it has not within the hang guard (Hung). It is how a test waits
// for what happens over real sockets, goroutines and processes: however
// long a busy machine takes, never a bound on speed.
func Eventually(t testing.TB, cond func() bool, why func() string) {
	t.Helper()
	if !Poll(cond) {
		t.Fatal(why())
	}
}

// Poll polls cond until it holds or the hang guard (Hung) has passed, and
// reports whether it held: Eventually for a goroutine other than the
// test's, which may not fail it. It looks often at first, then every
// 20 ms at most: a wait of seconds costs a busy machine little.
func Poll(cond func() bool) bool {
	deadline := time.Now().Add(Hung)
	for pause := time.Millisecond; !cond(); pause = min(2*pause, 20*time.Millisecond) {
		if time.Now().After(deadline) {
			return cond()
		}
		time.Sleep(pause)
	}
	return true
}
