package tcp_test

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"gridlag/client"
	"gridlag/client/tcp"
	"gridlag/grid"
	"gridlag/protocol"
	"gridlag/server"
	"gridlag/server/hub"
	"gridlag/server/world"
)

// patience bounds every wait of these tests on the wall clock: a guard
// against a hang, never a property (those are pinned on the virtual
// clock, in package sim). A test asserts only "not before" on the wall
// clock.
const patience = time.Minute

// startServer runs the real TCP server at rate on a free loopback port.
func startServer(t *testing.T, rate int) string {
	t.Helper()
	_, addr := startServerWith(t, world.Config{Rate: rate})
	return addr
}

// startServerWith runs the real TCP server of cfg on a free loopback
// port, and returns it with its address.
func startServerWith(t *testing.T, cfg world.Config) (*server.Server, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(server.Options{Hub: hub.Options{Config: cfg}})
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	t.Cleanup(func() {
		srv.Close()
		if err := <-done; !errors.Is(err, server.ErrServerClosed) {
			t.Errorf("serve: %v, want ErrServerClosed", err)
		}
	})
	return srv, ln.Addr().String()
}

// TestRealTCPPredictionAndAck: over real TCP with 200 ms injected round
// trip, RIGHT from (10,10) shows (11,10) at once; the acknowledgement comes
// no sooner than 200 ms, and nothing is then pending. That it comes within
// one update interval more is pinned on the virtual clock
// (sim.TestAckAfterTheRoundTripAndATick).
func TestRealTCPPredictionAndAck(t *testing.T) {
	const rate = 20
	addr := startServer(t, rate)
	c, err := tcp.Dial(context.Background(), addr, tcp.Options{Options: client.Options{Name: "ada", Latency: 200 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if v := c.View(); v.Predicted != (grid.Pos{X: 10, Y: 10}) || v.Server != (grid.Pos{X: 10, Y: 10}) {
		t.Fatalf("joined at %v (server %v), want (10,10)", v.Predicted, v.Server)
	}
	sent := time.Now()
	c.Press(grid.Right)
	v := c.View()
	if v.Predicted != (grid.Pos{X: 11, Y: 10}) || len(v.Pending) != 1 || v.Pending[0].Seq != 1 {
		t.Fatalf("right after the press: sees %v, pending %+v; want (11,10) and #1", v.Predicted, v.Pending)
	}
	if v.Server != (grid.Pos{X: 10, Y: 10}) {
		t.Fatalf("the server's word moved before any answer: %v", v.Server)
	}
	waitChange(t, c, "an acknowledgement", func() bool { return c.View().LastAck >= 1 })
	took := time.Since(sent)
	if took < 200*time.Millisecond {
		t.Fatalf("acknowledged after %v, before the 200ms round trip", took)
	}
	v = c.View()
	if len(v.Pending) != 0 || v.Predicted != (grid.Pos{X: 11, Y: 10}) || v.Server != (grid.Pos{X: 11, Y: 10}) || v.Corrections != 0 {
		t.Fatalf("after the ack: sees %v, server %v, pending %d, corrections %d", v.Predicted, v.Server, len(v.Pending), v.Corrections)
	}
	t.Logf("acknowledged after %v", took)
}

// TestRealTCPLatencyChangesLive: the slider's call reaches the driver of
// a real connection, and the connection goes on. That the next messages
// take the new latency (an acknowledgement within one update interval
// once the latency is 0) is pinned on the virtual clock
// (sim.TestLatencyChangesLive).
func TestRealTCPLatencyChangesLive(t *testing.T) {
	addr := startServer(t, 50)
	c, err := tcp.Dial(context.Background(), addr, tcp.Options{Options: client.Options{Name: "ada", Latency: 600 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetLatency(0)
	if v := c.View(); v.Latency != 0 {
		t.Fatalf("latency %v after SetLatency(0)", v.Latency)
	}
	// A Ping sent before the change is still on its way: TCP keeps order,
	// so the next input would queue behind it. Wait for its Pong.
	waitChange(t, c, "a pong", func() bool { return c.View().RTT != 0 })
	sent := time.Now()
	c.Press(grid.Down)
	waitChange(t, c, "an acknowledgement", func() bool { return c.View().LastAck >= 1 })
	t.Logf("acknowledged %v after the press, with the latency set to 0", time.Since(sent))
}

// waitChange waits on c's Changed until cond holds; it fails the test if
// the connection ends first (or after patience).
func waitChange(t *testing.T, c *tcp.Conn, what string, cond func() bool) {
	t.Helper()
	deadline := time.After(patience)
	for !cond() {
		select {
		case <-c.Changed():
		case <-deadline:
			t.Fatalf("no %s after %v", what, patience)
		case <-c.Done():
			t.Fatalf("connection ended before %s: %v", what, c.View().Err)
		}
	}
}

// TestDialRefusedName: a bad name gets the server's clear error.
func TestDialRefusedName(t *testing.T) {
	addr := startServer(t, 20)
	_, err := tcp.Dial(context.Background(), addr, tcp.Options{Options: client.Options{Name: "\x1b[2Jevil", Latency: 100 * time.Millisecond}})
	var pe *protocol.Error
	if !errors.As(err, &pe) || pe.Code != protocol.ErrCodeName {
		t.Fatalf("dial with a name carrying an escape sequence: %v, want the server's name error", err)
	}
	t.Logf("error: %v", err)
}
