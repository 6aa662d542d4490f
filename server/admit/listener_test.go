package admit

import (
	"bytes"
	"errors"
	"io"
	"net"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/log"

	"gridlag/internal/ratelog"
)

// hung is the hang guard of these tests: long past anything they wait
// for, on any machine.
const hung = 30 * time.Second

// script is a listener whose Accept returns its errors, in order, then
// connections until it is closed.
type script struct {
	mu     sync.Mutex
	errs   []error
	closed chan struct{}
	once   sync.Once
}

func newScript(errs ...error) *script { return &script{errs: errs, closed: make(chan struct{})} }

func (s *script) Accept() (net.Conn, error) {
	s.mu.Lock()
	if len(s.errs) > 0 {
		err := s.errs[0]
		s.errs = s.errs[1:]
		s.mu.Unlock()
		return nil, err
	}
	s.mu.Unlock()
	select {
	case <-s.closed:
		return nil, net.ErrClosed
	default:
	}
	a, b := net.Pipe()
	b.Close()
	return a, nil
}

func (s *script) Close() error {
	s.once.Do(func() { close(s.closed) })
	return nil
}

func (s *script) Addr() net.Addr { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 1} }

// waits records the backoff's waits and answers each at once.
type waits struct {
	mu sync.Mutex
	d  []time.Duration
}

func (w *waits) after(d time.Duration) <-chan time.Time {
	w.mu.Lock()
	w.d = append(w.d, d)
	w.mu.Unlock()
	c := make(chan time.Time, 1)
	c <- time.Time{}
	return c
}

// Errors worth retrying are retried, each wait twice the last up to a
// second, then the next connection is handed over; the wait starts again
// from its first after a success.
func TestAcceptRetriesWithBackoff(t *testing.T) {
	errs := make([]error, 0, 10)
	for range 9 {
		errs = append(errs, &net.OpError{Op: "accept", Err: syscall.EMFILE})
	}
	l := Listen(newScript(append(errs, syscall.ECONNABORTED)...), nil, log.New(io.Discard))
	w := &waits{}
	l.after = w.after
	c, err := l.Accept()
	if err != nil || c == nil {
		t.Fatalf("Accept after ten retryable errors: %v, %v", c, err)
	}
	c.Close()
	want := []time.Duration{5, 10, 20, 40, 80, 160, 320, 640, 1000, 1000}
	if len(w.d) != len(want) {
		t.Fatalf("waits %v, want %v ms", w.d, want)
	}
	for i, d := range want {
		if w.d[i] != d*time.Millisecond {
			t.Fatalf("waits %v, want %v ms", w.d, want)
		}
	}
}

// An error not worth retrying is returned as it is, at once.
func TestAcceptReturnsAFailure(t *testing.T) {
	boom := errors.New("boom")
	l := Listen(newScript(boom), nil, log.New(io.Discard))
	if _, err := l.Accept(); !errors.Is(err, boom) {
		t.Fatalf("Accept: %v, want boom", err)
	}
}

// Close ends a backoff's wait at once: the wait is a second long, and
// nothing answers it but Close.
func TestCloseInterruptsTheBackoff(t *testing.T) {
	errs := make([]error, 20)
	for i := range errs {
		errs[i] = syscall.EMFILE
	}
	l := Listen(newScript(errs...), nil, log.New(io.Discard))
	waiting := make(chan struct{})
	var once sync.Once
	l.after = func(time.Duration) <-chan time.Time {
		once.Do(func() { close(waiting) })
		return nil // never
	}
	done := make(chan error, 1)
	go func() {
		_, err := l.Accept()
		done <- err
	}()
	<-waiting
	l.Close()
	select {
	case err := <-done:
		if !errors.Is(err, net.ErrClosed) {
			t.Fatalf("Accept after Close: %v, want net.ErrClosed", err)
		}
	case <-time.After(hung):
		t.Fatal("Accept still waits out its backoff after Close")
	}
}

// What admit turns away is never handed over: Accept goes on to the
// next connection, and hands over what admit returns.
func TestAdmitFilters(t *testing.T) {
	n := 0
	l := Listen(newScript(), func(c net.Conn) net.Conn {
		if n++; n < 3 {
			c.Close()
			return nil
		}
		return c
	}, log.New(io.Discard))
	c, err := l.Accept()
	if err != nil || n != 3 {
		t.Fatalf("Accept: %v after %d connections, want the third", err, n)
	}
	c.Close()
}

// Refuse tells the peer, closes the connection, and logs the first
// refusal of an address and kind at once, the rest in a summary.
func TestRefuse(t *testing.T) {
	var buf bytes.Buffer
	now := time.Unix(1e9, 0) // the log's clock, virtual
	warn := ratelog.New(log.New(&buf), time.Second, func() time.Time { return now })
	for range 3 {
		ours, theirs := net.Pipe()
		read := make(chan string, 1)
		go func() {
			b, _ := io.ReadAll(theirs)
			read <- string(b)
		}()
		Refuse(warn, "connection refused", tcpConn{ours}, Refusal{Kind: "conn_full", Text: "full"}, []byte("go away\n"))
		if got := <-read; got != "go away\n" {
			t.Fatalf("the peer read %q, want the refusal's words, then the close", got)
		}
	}
	now = now.Add(2 * time.Second)
	warn.Flush()
	out := buf.String()
	if strings.Count(out, "connection refused") != 2 || !strings.Contains(out, "more=2") || !strings.Contains(out, "remote=192.0.2.7") || !strings.Contains(out, "reason=full") {
		t.Errorf("three refusals logged:\n%s\nwant one line at once, with the address and the reason, and one summary", out)
	}
}

// tcpConn is a pipe's end that says it comes from 192.0.2.7.
type tcpConn struct{ net.Conn }

func (tcpConn) RemoteAddr() net.Addr { return &net.TCPAddr{IP: net.IPv4(192, 0, 2, 7), Port: 4000} }
