package server

import (
	"fmt"
	"net"
	"testing"
	"time"

	"gridlag/protocol"
	"gridlag/server/admit/admittest"
	"gridlag/server/hub"
	"gridlag/server/world"
)

// TestTCPConnectionCap: connections that never say Hello cannot pile up
// past MaxConns; the next one gets a clear Error, and once one goes away a
// player can join again.
func TestTCPConnectionCap(t *testing.T) {
	ts := startServer(t, Options{Hub: hub.Options{Config: world.Config{Rate: 20}}, MaxConns: 3})
	var idle []*testClient
	for i := 0; i < 3; i++ {
		idle = append(idle, dial(t, ts))
	}
	extra := dial(t, ts)
	e, ok := extra.closed().(*protocol.Error)
	if !ok || e.Code != protocol.ErrCodeFull {
		t.Fatalf("connection over the cap got %#v, want a 'server busy' Error", e)
	}
	ts.waitLog(t, "refused connection")
	idle[0].nc.Close()
	var (
		m   protocol.Message
		err error
	)
	eventually(t, func() bool {
		c := dial(t, ts)
		c.send(&protocol.Hello{Version: protocol.Version, Name: "ada"})
		m, err = c.recv()
		_, welcome := m.(*protocol.Welcome)
		return err == nil && welcome
	}, func() string { return fmt.Sprintf("no room after a connection closed: %v %v", m, err) })
}

// TestTCPErrorFromJoinedClientCloses: a client that reports an Error
// leaves and is closed, like a Bye.
func TestTCPErrorFromJoinedClientCloses(t *testing.T) {
	ts := startServer(t, Options{Hub: hub.Options{Config: world.Config{Rate: 20}}})
	c := dial(t, ts)
	c.join("ada")
	c.send(&protocol.Error{Code: protocol.ErrCodeProtocol, Text: "client gives up"})
	if _, ok := c.closed().(*protocol.Bye); !ok {
		t.Fatal("no Bye before the close")
	}
	ts.waitLog(t, "client gives up")
}

// TestTCPCloseIsQuickAfterADrop: a client that stopped reading, then sent
// a malformed frame, is dropped with its Error queued behind a writer stuck
// on the full socket. Close must cut that writer, not wait out the write
// timeout: here an hour, far past the hang guard.
func TestTCPCloseIsQuickAfterADrop(t *testing.T) {
	ts := startServer(t, Options{Hub: hub.Options{Config: world.Config{Rate: world.MaxRate}}, SendQueue: 1 << 16, WriteBuffer: 4096, WriteTimeout: time.Hour})
	c := dial(t, ts)
	c.nc.(*net.TCPConn).SetReadBuffer(4096)
	c.join("stuck") // and never reads again
	// Wait until far more has been sent than the two 4 KB socket buffers
	// hold (a State here is 27 bytes), so that the writer is blocked; the
	// queue is large, so the client is not dropped as slow.
	eventually(t, func() bool { return ts.Stats().StatesSent >= 1000 }, func() string { return "the server sent too few states" })
	c.nc.Write([]byte{0, 3, 99, 1, 2})
	ts.waitLog(t, "malformed")
	if !admittest.Ends(func() { ts.Close() }) {
		c.nc.Close() // frees the writer, so that the test's cleanup ends
		t.Fatal("Close waited for the dropped client's stuck writer")
	}
}
