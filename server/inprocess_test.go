package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"gridlag/protocol"
	"gridlag/server/hub"
	"gridlag/server/world"
)

// dialIn opens an in-process connection standing for remote.
func dialIn(t *testing.T, ts *testServer, remote net.Addr) *testClient {
	t.Helper()
	nc, err := ts.Dial(context.Background(), remote)
	if err != nil {
		t.Fatalf("Dial from %v: %v", remote, err)
	}
	t.Cleanup(func() { nc.Close() })
	return &testClient{t: t, nc: nc, dec: protocol.NewDecoder(nc), enc: protocol.NewEncoder(nc)}
}

// refusal says Hello and returns the Error the server answers, failing
// if it welcomes the player.
func (c *testClient) refusal(name string) *protocol.Error {
	c.t.Helper()
	c.send(&protocol.Hello{Version: protocol.Version, Name: name})
	e, ok := c.closed().(*protocol.Error)
	if !ok {
		c.t.Fatalf("%s was not refused", name)
	}
	return e
}

// TestDialCountsEachOriginsAddress: players that come in through Dial (the
// SSH front end's) count against the address they stand for, each its
// own, not against the loopback address they all share in the process;
// the server's own players (bots) count against no address. A TCP player
// from loopback keeps its own count.
func TestDialCountsEachOriginsAddress(t *testing.T) {
	ts := startServer(t, Options{Hub: hub.Options{Config: world.Config{Rate: 20}, MaxPlayersPerAddr: 2}, MaxConnsPerAddr: 3})
	ada := &net.TCPAddr{IP: net.IPv4(192, 0, 2, 7), Port: 50000}
	bob := &net.TCPAddr{IP: net.IPv4(192, 0, 2, 8), Port: 50000}

	// Five bots of the server's own: more than either cap per address.
	for _, name := range []string{"bot-1", "bot-2", "bot-3", "bot-4", "bot-5"} {
		c := dialIn(t, ts, Own)
		c.send(&protocol.Hello{Version: protocol.Version, Name: name, Bot: true})
		c.until("the Welcome of "+name, func(m protocol.Message) bool { _, ok := m.(*protocol.Welcome); return ok })
	}
	dialIn(t, ts, ada).join("ada")
	dialIn(t, ts, ada).join("ada2")
	e := dialIn(t, ts, ada).refusal("ada3")
	if e.Code != protocol.ErrCodeFull || !strings.Contains(e.Text, "too many players from your address") {
		t.Errorf("ada's third player got %+v, want the per-address refusal", e)
	}
	dialIn(t, ts, bob).join("bob") // another address has its own share
	tcp := dial(t, ts)             // and loopback, the bots' old address, too
	tcp.join("cy")
	ts.waitLog(t, "remote=192.0.2.7:50000")
	ts.waitLog(t, "remote=in-process")

	// Connections too: the fourth open one from ada is refused at once,
	// the bots' are not capped.
	dialIn(t, ts, ada)
	dialIn(t, ts, ada)
	if e, ok := dialIn(t, ts, ada).closed().(*protocol.Error); !ok || !strings.Contains(e.Text, "too many connections from your address") {
		t.Errorf("ada's fourth connection got %+v, want the per-address connection refusal", e)
	}
	for range 4 {
		dialIn(t, ts, Own)
	}
	c := dialIn(t, ts, Own)
	c.send(&protocol.Hello{Version: protocol.Version, Name: "bot-6", Bot: true})
	c.until("the Welcome of bot-6", func(m protocol.Message) bool { _, ok := m.(*protocol.Welcome); return ok })
}

// TestDialBeforeServeAndAfterClose: an in-process connection asked for
// before the server serves waits for it (as a TCP one waits in the
// listener's backlog); none once the server is closed.
func TestDialBeforeServeAndAfterClose(t *testing.T) {
	s := New(Options{Hub: hub.Options{Config: world.Config{Rate: 20}}})
	dialed := make(chan error, 1)
	go func() {
		nc, err := s.Dial(context.Background(), Own)
		if err == nil {
			protocol.NewEncoder(nc).Encode(&protocol.Hello{Version: protocol.Version, Name: "bot-1", Bot: true})
			var m protocol.Message
			dec := protocol.NewDecoder(nc)
			if m, err = dec.Decode(); err == nil {
				if _, ok := m.(*protocol.Admission); ok { // the server's rules of admission come first
					m, err = dec.Decode()
				}
			}
			if err == nil {
				if _, ok := m.(*protocol.Welcome); !ok {
					err = fmt.Errorf("got %v, want a Welcome", m.Type())
				}
			}
			nc.Close()
		}
		dialed <- err
	}()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve(ln)
	if err := <-dialed; err != nil {
		t.Errorf("Dial before Serve: %v", err)
	}
	s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	if _, err := New(Options{}).Dial(ctx, Own); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Dial of a server that never serves: %v, want the context's end", err)
	}
	ts := startServer(t, Options{Hub: hub.Options{Config: world.Config{Rate: 20}}})
	ts.Close()
	if _, err := ts.Dial(context.Background(), Own); err != ErrNotServing {
		t.Errorf("Dial after Close: %v, want ErrNotServing", err)
	}
}

// TestPerAddressPlayerCapHoldsInABurst: Hellos from one address that the
// world handles in one batch meet the cap one after the other: no more
// than the cap join, however fast they come.
func TestPerAddressPlayerCapHoldsInABurst(t *testing.T) {
	ts := startServer(t, Options{Hub: hub.Options{Config: world.Config{Rate: 20}, MaxPlayersPerAddr: 2}, MaxConnsPerAddr: 200})
	ada := &net.TCPAddr{IP: net.IPv4(192, 0, 2, 7), Port: 50000}
	var burst []*testClient
	for range 150 {
		burst = append(burst, dialIn(t, ts, ada))
	}
	for i, c := range burst {
		c.send(&protocol.Hello{Version: protocol.Version, Name: fmt.Sprint("ada", i)})
	}
	welcomed := 0
	for _, c := range burst {
		m, err := c.recv()
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := m.(*protocol.Welcome); ok {
			welcomed++
		}
	}
	if welcomed != 2 {
		t.Errorf("%d of a burst of 150 Hellos from one address joined, want 2, the cap", welcomed)
	}
}
