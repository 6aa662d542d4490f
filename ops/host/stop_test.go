package host

import (
	"io"
	"net"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/log"

	"gridlag/protocol"
	"gridlag/server/admit/admittest"
)

// TestSignalWhileClosingClosesAtOnce: a signal that comes while the
// server closes (after the drain, or with none) cuts the close's grace
// short; should the close still not be over ExitGrace later, the process
// exits with status 1, whatever holds it. A close that ends in time
// exits as ever.
func TestSignalWhileClosingClosesAtOnce(t *testing.T) {
	for _, endsInTime := range []bool{false, true} {
		sigs, exited := make(chan os.Signal, 1), make(chan int, 1)
		h := &Host{cfg: Config{Hurry: sigs, Exit: func(code int) { exited <- code }},
			log: log.New(io.Discard), done: make(chan struct{})}
		h.drain() // no drain: the close begins
		sigs <- syscall.SIGTERM
		if endsInTime {
			close(h.done)
			select {
			case code := <-exited:
				t.Errorf("exited with %d though the close ended", code)
			case <-time.After(3 * ExitGrace): // long past when it would have
			}
			continue
		}
		select {
		case code := <-exited:
			if code != 1 {
				t.Errorf("exit status %d, want 1", code)
			}
		case <-time.After(time.Minute): // a hang guard
			t.Error("the process did not exit while the close held it")
		}
	}
}

// join connects a player to the game at addr and waits for its Welcome:
// from then on the server counts it (server.Server.People). The test
// closes it, unless the caller does first.
func join(t *testing.T, addr string) net.Conn {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	if err := protocol.NewEncoder(nc).Encode(&protocol.Hello{Version: protocol.Version, Name: "ada"}); err != nil {
		t.Fatal(err)
	}
	dec := protocol.NewDecoder(nc)
	nc.SetReadDeadline(time.Now().Add(time.Minute)) // a hang guard
	for {
		m, err := dec.Decode()
		if err != nil {
			t.Fatalf("waiting for the Welcome: %v", err)
		}
		if _, ok := m.(*protocol.Welcome); ok {
			nc.SetReadDeadline(time.Time{})
			return nc
		}
	}
}

// TestBotsAloneCloseWithoutDrain: a server whose only players are bots
// has nobody to warn: Stop closes it without its drain of an hour, and
// the log says why.
func TestBotsAloneCloseWithoutDrain(t *testing.T) {
	logs := &admittest.Log{}
	c := Config{Addr: "127.0.0.1:0", Drain: time.Hour, Bots: 2, Logger: log.New(logs),
		After: func(d time.Duration) <-chan time.Time {
			t.Errorf("a clock of %v asked for: there is no drain", d)
			return nil
		}}
	h, err := Start(c)
	if err != nil {
		t.Fatal(err)
	}
	admittest.Eventually(t, func() bool { return h.srv.Stats().Bots == 2 }, func() string { return "the bots never joined" })
	h.Stop("reason", "test") // returns: no drain of an hour
	if want := "no player or spectator to warn (bots alone): closing without the drain"; !strings.Contains(logs.String(), want) {
		t.Errorf("the log does not say %q:\n%s", want, logs)
	}
}

// TestDrainEndsWhenEveryoneLeft: the drain looks every PeopleCheck
// whether anyone is left to warn, and ends once nobody is, saying so.
func TestDrainEndsWhenEveryoneLeft(t *testing.T) {
	logs := &admittest.Log{}
	checks := make(chan time.Time)
	c := Config{Addr: "127.0.0.1:0", Drain: time.Hour, Logger: log.New(logs),
		After: func(d time.Duration) <-chan time.Time {
			if d == PeopleCheck {
				return checks
			}
			return nil // the hour never ends
		}}
	h, err := Start(c)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	nc := join(t, h.Addr())
	done := make(chan struct{})
	go func() {
		h.Stop("reason", "test")
		close(done)
	}()
	checks <- time.Time{} // the player is still there
	select {
	case <-done:
		t.Fatal("the drain ended with a player to warn")
	default:
	}
	if !h.srv.Draining() {
		t.Error("the server is not draining: the player was never warned")
	}
	nc.Close()
	for left := false; !left; {
		select {
		case checks <- time.Time{}: // until the server has seen it leave
		case <-done:
			left = true
		case <-time.After(time.Minute): // a hang guard
			t.Fatalf("the drain went on after the player left:\n%s", logs)
		}
	}
	if want := "every player and spectator left: closing before the drain's end"; !strings.Contains(logs.String(), want) {
		t.Errorf("the log does not say %q:\n%s", want, logs)
	}
}
