package main

import (
	"net"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/ops/host"
	"gridlag/protocol"
	"gridlag/server/admit/admittest"
	"gridlag/server/world"
)

// player is a raw protocol client of a test game.
type player struct {
	t   *testing.T
	nc  net.Conn
	dec *protocol.Decoder
}

func joinGame(t *testing.T, addr string) *player {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	p := &player{t: t, nc: nc, dec: protocol.NewDecoder(nc)}
	p.send(&protocol.Hello{Version: protocol.Version, Name: "ada"})
	p.until("the Welcome", func(m protocol.Message) bool { _, ok := m.(*protocol.Welcome); return ok })
	return p
}

func (p *player) send(m protocol.Message) {
	p.t.Helper()
	if err := protocol.NewEncoder(p.nc).Encode(m); err != nil {
		p.t.Fatal(err)
	}
}

// closeOnBye reads until the server's Bye (or the connection's end) and
// closes the connection then, as a client does: the server waits a
// while for a client to close its side after its last frame.
func (p *player) closeOnBye() {
	defer p.nc.Close()
	for {
		m, err := p.dec.Decode()
		if _, bye := m.(*protocol.Bye); err != nil || bye {
			return
		}
	}
}

func (p *player) until(what string, ok func(protocol.Message) bool) protocol.Message {
	p.t.Helper()
	for {
		p.nc.SetReadDeadline(time.Now().Add(10 * time.Second))
		m, err := p.dec.Decode()
		if err != nil {
			p.t.Fatalf("waiting for %s: %v", what, err)
		}
		if ok(m) {
			return m
		}
	}
}

// startTestGame starts a headless game on loopback, closed by the test,
// that drains for 10 s when it stops, its drain ending when the test
// fires, or at once on a signal on sigs.
func startTestGame(t *testing.T, sigs chan os.Signal) (h *host.Host, fire chan time.Time) {
	t.Helper()
	fire = make(chan time.Time)
	c := host.Config{Addr: "127.0.0.1:0", Drain: 10 * time.Second, Hurry: sigs,
		After: func(d time.Duration) <-chan time.Time {
			if d == host.PeopleCheck {
				return nil // the players stay
			}
			if d != 10*time.Second {
				t.Errorf("drain of %v, want 10s", d)
			}
			return fire
		}}
	c.Server.Hub.Config = world.Config{Rate: 20, MoveTime: world.DefaultMoveTime}
	h, err := host.Start(c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	return h, fire
}

// runShutdown stops h as a signal does (host.Host.Stop); done is closed
// once it has.
func runShutdown(h *host.Host) (done chan struct{}) {
	done = make(chan struct{})
	go func() {
		h.Stop("signal", "test")
		close(done)
	}()
	return done
}

// TestShutdownWarnsThenDrains: after the first signal a player sees
// "server stopping in 10 s" and plays on until the drain ends; then the
// server says Bye and closes.
func TestShutdownWarnsThenDrains(t *testing.T) {
	g, fire := startTestGame(t, make(chan os.Signal, 1))
	p := joinGame(t, g.Addr())
	done := runShutdown(g)
	n := p.until("the Notice", func(m protocol.Message) bool { _, ok := m.(*protocol.Notice); return ok }).(*protocol.Notice)
	if n.Text != "server stopping in 10 s" {
		t.Errorf("notice %q, want %q", n.Text, "server stopping in 10 s")
	}
	p.send(&protocol.Input{Seq: 1, Dir: grid.Right})
	p.until("the move acknowledged while draining", func(m protocol.Message) bool {
		st, ok := m.(*protocol.State)
		return ok && st.Ack == 1
	})
	select {
	case <-done:
		t.Fatal("the server closed before the drain ended")
	default:
	}
	fire <- time.Time{}
	p.until("the Bye", func(m protocol.Message) bool { _, ok := m.(*protocol.Bye); return ok })
	<-done
}

// TestSecondSignalClosesAtOnce: a second signal ends the drain.
func TestSecondSignalClosesAtOnce(t *testing.T) {
	sigs := make(chan os.Signal, 1)
	g, _ := startTestGame(t, sigs)
	p := joinGame(t, g.Addr())
	done := runShutdown(g)
	p.until("the Notice", func(m protocol.Message) bool { _, ok := m.(*protocol.Notice); return ok })
	sigs <- syscall.SIGTERM
	p.until("the Bye", func(m protocol.Message) bool { _, ok := m.(*protocol.Bye); return ok })
	<-done
}

// TestSignalsEndTheServerWithStatus0: the process drains on SIGTERM and
// exits 0 after a second one, however long the drain (a player is there
// to warn).
func TestSignalsEndTheServerWithStatus0(t *testing.T) {
	t.Parallel() // the binary in a process of its own, mostly waited on: see TestMain
	addr := freeAddr(t)
	cmd, logs, exited := startProcess(t, buildBinary(t), "-server", "-addr", addr, "-drain", "1h")
	waitFor := func(text string) { waitLogged(t, cmd, logs, text) }
	waitFor("gridlag server")
	p := joinGame(t, addr)
	waitFor("join")
	go p.closeOnBye()
	cmd.Process.Signal(syscall.SIGTERM)
	waitFor("shutting down")
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("exit: %v, want status 0\n%s", err, logs)
		}
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		t.Fatalf("a second SIGTERM did not end the server:\n%s", logs)
	}
	if !strings.Contains(logs.String(), "second signal") {
		t.Errorf("the log does not say why it closed at once:\n%s", logs)
	}
}

// TestBotsAloneCloseWithoutDrain: a server whose only players are bots
// has nobody to warn: one SIGTERM closes it (status 0) without its drain
// of an hour, and the log says why.
func TestBotsAloneCloseWithoutDrain(t *testing.T) {
	t.Parallel() // the binary in a process of its own, mostly waited on: see TestMain
	cmd, logs, exited := startProcess(t, buildBinary(t), "serve", "-addr", "127.0.0.1:0", "-drain", "1h", "-bots", "2")
	waitLogged(t, cmd, logs, "gridlag server")
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("exit: %v, want status 0\n%s", err, logs)
		}
	case <-time.After(time.Minute): // a hang guard: the drain is an hour
		cmd.Process.Kill()
		t.Fatalf("one SIGTERM did not end a server of bots alone:\n%s", logs)
	}
	if !strings.Contains(logs.String(), "no player or spectator to warn (bots alone): closing without the drain") {
		t.Errorf("the log does not say why it closed without the drain:\n%s", logs)
	}
}

// startProcess starts bin with args, its standard error in logs; exited
// gets what its Wait returns.
func startProcess(t *testing.T, bin string, args ...string) (cmd *exec.Cmd, logs *admittest.Log, exited chan error) {
	t.Helper()
	cmd = exec.Command(bin, args...)
	logs = &admittest.Log{}
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited = make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	return cmd, logs, exited
}

// waitLogged waits until the process cmd logged text, or kills it and
// fails as hung.
func waitLogged(t *testing.T, cmd *exec.Cmd, logs *admittest.Log, text string) {
	t.Helper()
	if !admittest.Poll(func() bool { return strings.Contains(logs.String(), text) }) {
		cmd.Process.Kill()
		t.Fatalf("the server never logged %q:\n%s", text, logs)
	}
}
