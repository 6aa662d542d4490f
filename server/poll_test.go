package server

import (
	"net"
	"strings"
	"testing"
	"time"

	"gridlag/protocol"
	"gridlag/server/hub"
	"gridlag/server/world"
)

// pings returns n Pings, stamped first, first+1, ..., as one byte stream.
func pings(first, n int) []byte {
	var b []byte
	for i := 0; i < n; i++ {
		b, _ = protocol.Append(b, &protocol.Ping{Stamp: uint64(first + i)})
	}
	return b
}

// pongsInOrder reads until the Pongs stamped first to last have come, in
// order, and fails at any other answer to a Ping.
func (c *testClient) pongsInOrder(first, last int) {
	c.t.Helper()
	for want := uint64(first); want <= uint64(last); want++ {
		p := c.until("a Pong", func(m protocol.Message) bool {
			if e, ok := m.(*protocol.Error); ok {
				c.t.Fatalf("waiting for Pong %d: got %v", want, e)
			}
			_, ok := m.(*protocol.Pong)
			return ok
		}).(*protocol.Pong)
		if p.Stamp != want {
			c.t.Fatalf("Pong %d, want %d: a message was lost or reordered", p.Stamp, want)
		}
	}
}

// TestTCPFramesInAnyPiecesEachAnswered: whatever pieces the client's
// bytes come in (a byte at a time, frames cut anywhere, more in one write
// than the server reads at once), every message is answered once, in
// order, and nothing is taken for garbage.
func TestTCPFramesInAnyPiecesEachAnswered(t *testing.T) {
	ts := startServer(t, Options{Hub: hub.Options{Config: world.Config{Rate: 20}}, MaxMessageRate: 100000})
	c := dial(t, ts)
	c.join("pieces")

	// A byte at a time, each its own segment.
	c.nc.(*net.TCPConn).SetNoDelay(true)
	for _, b := range pings(1, 20) {
		if _, err := c.nc.Write([]byte{b}); err != nil {
			t.Fatal(err)
		}
	}
	c.pongsInOrder(1, 20)

	// Pieces of 7 bytes: frames (11 bytes) cut at every offset.
	b := pings(21, 200)
	go func() {
		for len(b) > 0 {
			n := min(7, len(b))
			if _, err := c.nc.Write(b[:n]); err != nil {
				return
			}
			b = b[n:]
		}
	}()
	c.pongsInOrder(21, 220)

	// Five times what the server reads at once, in one write.
	big := pings(221, 5*(16<<10)/11)
	go c.nc.Write(big)
	c.pongsInOrder(221, 220+5*(16<<10)/11)
	if l := ts.logs.String(); strings.Contains(l, "flood") || strings.Contains(l, "decode") {
		t.Errorf("the pieces were taken for abuse:\n%s", l)
	}
}

// TestTCPHeldBackReaderLosesNothing: a client that sends thousands of
// Pings and reads nothing meanwhile is held back (its socket is not read
// while its answers fill half its send queue), then, once it reads, gets
// every Pong in order; and a server closed while a client is held back
// closes cleanly, leaving no goroutine.
func TestTCPHeldBackReaderLosesNothing(t *testing.T) {
	// No ticks (Rate 0): only the Pongs and the server's own Pings fill
	// the queue of 16 frames, so that a client that does not read is held
	// back at 8 and not dropped as too slow by a State a tick meanwhile.
	ts := startServer(t, Options{Hub: hub.Options{Config: world.Config{Rate: 0}}, MaxMessageRate: 100000,
		SendQueue: 16, WriteBuffer: 4096})
	held := func(name string) *conn {
		ts.mu.Lock()
		defer ts.mu.Unlock()
		for _, c := range ts.live {
			if c.holding.Load() && c.nc.RemoteAddr().String() == name {
				return c
			}
		}
		return nil
	}
	for i, name := range []string{"reader", "stays"} {
		c := dial(t, ts)
		c.nc.(*net.TCPConn).SetReadBuffer(4096)
		c.join(name)
		const n = 6000
		go c.nc.Write(pings(1, n))
		local := c.nc.LocalAddr().String()
		eventually(t, func() bool { return held(local) != nil },
			func() string { return name + " never held back: " + ts.logs.String() })
		if i == 1 {
			break // held back when the server closes
		}
		c.pongsInOrder(1, n)
		c.send(&protocol.Ping{Stamp: n + 1})
		c.pongsInOrder(n+1, n+1)
	}
	if l := ts.logs.String(); strings.Contains(l, "flood") || strings.Contains(l, "too slow") {
		t.Errorf("a held back client was taken for abuse:\n%s", l)
	}
	done := make(chan struct{})
	go func() {
		ts.Close()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(wait):
		t.Fatal("Close did not return while a client was held back")
	}
	noServerGoroutines(t)
}
