package sshd

import (
	"fmt"
	"net"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"gridlag/server"
	"gridlag/server/admit/admittest"
	"gridlag/server/world"
)

// rates are the bytes per second one SSH player receives: what reaches
// the terminal, and what crosses the network (SSH framing, MACs and
// encryption included).
type rates struct {
	terminal, wire float64
}

// measureRates plays one SSH session for d, walking (one move per 100 ms,
// the default speed limit, back and forth) or idle, and measures the bytes
// it receives once the first screen is drawn.
func measureRates(t testing.TB, s *Server, g *server.Server, walking bool, d time.Duration) rates {
	t.Helper()
	raw, err := net.Dial("tcp", s.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	cc := &admittest.CountingConn{Conn: raw}
	cfg := &gossh.ClientConfig{
		User:            "ada",
		HostKeyCallback: hostKeyIs(s.HostKeyFingerprint()),
		Auth:            []gossh.AuthMethod{gossh.PublicKeys(newClientKey(t))},
	}
	conn, chans, reqs, err := gossh.NewClientConn(cc, raw.RemoteAddr().String(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	c := gossh.NewClient(conn, chans, reqs)
	defer c.Close()
	tm := openTerm(t, c, "xterm-256color", 100, 40)
	tm.waitText("you (", "rtt ") // the first full screen
	sent := g.Stats().StatesSent
	admittest.Eventually(t, func() bool { return g.Stats().StatesSent >= sent+4 }, // and the frames of four States more
		func() string { return fmt.Sprintf("the game sent no States: %+v", g.Stats()) })

	term0, wire0, start := tm.vt.Bytes(), cc.Bytes(), time.Now()
	keys := []string{"\x1b[C", "\x1b[D"}
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for i := 0; time.Since(start) < d; i++ {
		<-tick.C
		if walking {
			tm.send(keys[i%2])
		}
	}
	secs := time.Since(start).Seconds()
	r := rates{
		terminal: float64(tm.vt.Bytes()-term0) / secs,
		wire:     float64(cc.Bytes()-wire0) / secs,
	}
	tm.send("q")
	tm.waitExit(time.Now())
	return r
}

// An idle player costs little; a walking player costs what redrawing the
// moves takes, not whole screens.
func TestBytesPerSecond(t *testing.T) {
	if testing.Short() {
		t.Skip("measures for 4 s")
	}
	g, addr := startGameWith(t, world.Config{Rate: world.DefaultRate})
	s := startSSH(t, Options{GameAddr: addr})
	// A busy machine can hold a session's output back and let it catch
	// up in one redraw (a burst no idle player on a quiet server gets):
	// the figure is the quietest of up to three windows, so a window
	// with such a burst does not fail the test, and a player that is
	// sent whole screens fails it in every window.
	var idle, walking rates
	for try := 0; try < 3; try++ {
		idle = measureRates(t, s, g, false, 2*time.Second)
		if idle.wire <= 2000 {
			break
		}
		t.Logf("idle player, window %d: %.0f B/s on the wire", try+1, idle.wire)
	}
	for try := 0; try < 3; try++ {
		walking = measureRates(t, s, g, true, 2*time.Second)
		if walking.wire <= 20000 {
			break
		}
		t.Logf("walking player, window %d: %.0f B/s on the wire", try+1, walking.wire)
	}
	t.Logf("idle player:    %6.0f B/s to the terminal, %6.0f B/s on the wire", idle.terminal, idle.wire)
	t.Logf("walking player: %6.0f B/s to the terminal, %6.0f B/s on the wire (10 moves/s)", walking.terminal, walking.wire)
	// A full 100x40 screen is about 4 KB; a player must never be sent
	// whole screens at the frame rate.
	if idle.wire > 2000 {
		t.Errorf("idle player receives %.0f B/s, want under 2000", idle.wire)
	}
	if walking.wire > 20000 {
		t.Errorf("walking player receives %.0f B/s, want under 20000", walking.wire)
	}
}

// BenchmarkPlayerBytesPerSecond reports the bytes per second sent to one
// idle and one walking SSH player (go test -bench PlayerBytes -run ^$).
func BenchmarkPlayerBytesPerSecond(b *testing.B) {
	g, addr := startGameWith(b, world.Config{Rate: world.DefaultRate})
	s := startSSH(b, Options{GameAddr: addr})
	var idle, walking rates
	for b.Loop() {
		idle = measureRates(b, s, g, false, 2*time.Second)
		walking = measureRates(b, s, g, true, 2*time.Second)
	}
	b.ReportMetric(idle.terminal, "idle-term-B/s")
	b.ReportMetric(idle.wire, "idle-wire-B/s")
	b.ReportMetric(walking.terminal, "walk-term-B/s")
	b.ReportMetric(walking.wire, "walk-wire-B/s")
}
