package server

import (
	"fmt"
	"net"
	"runtime"
	"strings"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
	"gridlag/server/admit/admittest"
	"gridlag/server/hub"
	"gridlag/server/world"
)

// dialFrom connects to the server from the loopback address local
// (127.0.0.2, 127.0.0.3...), so that tests can play several addresses.
func dialFrom(t *testing.T, ts *testServer, local string) *testClient {
	t.Helper()
	nc := admittest.DialFrom(t, ts.Addr().String(), local)
	return &testClient{t: t, nc: nc, dec: protocol.NewDecoder(nc), enc: protocol.NewEncoder(nc)}
}

// playsMeanwhile checks that an honest player from its own address joins,
// moves and sees its move acknowledged.
func playsMeanwhile(t *testing.T, ts *testServer, local string) {
	t.Helper()
	c := dialFrom(t, ts, local)
	c.join("honest")
	c.send(&protocol.Input{Seq: 1, Dir: grid.Right})
	c.state("the move acknowledged", func(st *protocol.State) bool { return st.Ack == 1 })
}

// TestPerAddressConnectionCap: one address holding idle connections up to
// its cap cannot take the rest of MaxConns; its next connection is refused
// with a clear Error and closed at once, the log summarises the
// refusals, and a player from another address joins and plays.
func TestPerAddressConnectionCap(t *testing.T) {
	ts := startServer(t, Options{Hub: hub.Options{Config: world.Config{Rate: 20}}, MaxConns: 10, MaxConnsPerAddr: 3})
	for i := 0; i < 3; i++ {
		dialFrom(t, ts, "127.0.0.2")
	}
	for i := 0; i < 20; i++ {
		extra := dialFrom(t, ts, "127.0.0.2")
		e, ok := extra.closed().(*protocol.Error)
		if !ok || e.Code != protocol.ErrCodeFull || !strings.Contains(e.Text, "your address") {
			t.Fatalf("connection %d over the per-address cap got %#v, want an Error naming the address cap", i, e)
		}
	}
	playsMeanwhile(t, ts, "127.0.0.3")
	if n := strings.Count(ts.logs.String(), "refused connection"); n != 1 {
		t.Errorf("20 refusals wrote %d log lines at once, want 1 (the rest summarised)", n)
	}
}

// TestPerAddressPlayerCap: one address cannot take more than its share of
// the player slots; its next Hello gets a clear Error, and a player from
// another address joins and plays.
func TestPerAddressPlayerCap(t *testing.T) {
	ts := startServer(t, Options{Hub: hub.Options{Config: world.Config{Rate: 20, MaxPlayers: 4}, MaxPlayersPerAddr: 2}})
	for i := 0; i < 2; i++ {
		dialFrom(t, ts, "127.0.0.2").join(fmt.Sprint("greedy-", i))
	}
	c := dialFrom(t, ts, "127.0.0.2")
	c.send(&protocol.Hello{Version: protocol.Version, Name: "greedy"})
	e, ok := c.closed().(*protocol.Error)
	if !ok || e.Code != protocol.ErrCodeFull || !strings.Contains(e.Text, "players from your address") {
		t.Fatalf("a third player from one address got %#v, want an Error naming the per-address cap", e)
	}
	playsMeanwhile(t, ts, "127.0.0.3")
}

// TestSlowReadersDroppedByTime: clients that joined and then never read
// are dropped once nothing was written to them for WriteTimeout, their
// queues and socket buffers bounded meanwhile, so the player slots they
// held are free again: a player from another address joins and plays. A
// client that reads slowly, but reads, stays. The stall is the writers'
// real clock: the slow reader sips forty times within it, so that a busy
// machine would have to starve it for nearly two seconds to have it taken
// for a non-reader.
func TestSlowReadersDroppedByTime(t *testing.T) {
	const stall = 2 * time.Second
	ts := startServer(t, Options{
		Hub:          hub.Options{Config: world.Config{Rate: world.MaxRate, MaxPlayers: 4}, MaxPlayersPerAddr: 4},
		WriteTimeout: stall,
		WriteBuffer:  4096,
		SendQueue:    1 << 12,
	})
	var heapBefore runtime.MemStats
	runtime.ReadMemStats(&heapBefore)
	for i := 0; i < 3; i++ {
		c := dialFrom(t, ts, "127.0.0.2")
		c.nc.(*net.TCPConn).SetReadBuffer(4096)
		c.join(fmt.Sprint("stuck-", i)) // and never reads again
	}
	slowReader := dialFrom(t, ts, "127.0.0.4")
	slowReader.nc.(*net.TCPConn).SetReadBuffer(4096)
	slowReader.join("slow")
	done := make(chan struct{})
	defer close(done)
	go func() { // reads in sips with pauses, each far shorter than the stall time
		buf := make([]byte, 4096)
		for {
			select {
			case <-done:
				return
			case <-time.After(stall / 40):
			}
			slowReader.nc.SetReadDeadline(time.Now().Add(wait))
			if _, err := slowReader.nc.Read(buf); err != nil {
				return
			}
		}
	}()
	eventually(t, func() bool { return strings.Contains(ts.logs.String(), "too slow") && ts.Stats().Players <= 1 },
		func() string { return fmt.Sprintf("the non-readers were not dropped: %d players", ts.Stats().Players) })
	if !strings.Contains(ts.logs.String(), "too slow: read nothing for "+stall.String()) {
		t.Errorf("the drop does not give its reason in seconds:\n%s", ts.logs)
	}
	playsMeanwhile(t, ts, "127.0.0.3")
	if ts.Stats().Leaves != 3 {
		t.Errorf("%d players left, want the 3 non-readers only (the slow reader reads)", ts.Stats().Leaves)
	}
	var heapAfter runtime.MemStats
	runtime.ReadMemStats(&heapAfter)
	if grew := int64(heapAfter.HeapInuse) - int64(heapBefore.HeapInuse); grew > 16<<20 {
		t.Errorf("the heap grew by %d MB while non-readers were held", grew>>20)
	}
}

// TestPingBurstWithinLimitAnswered: a burst of Pings under the flood limit,
// from a client that reads everything, gets every Pong; over the limit the
// client is refused with the flood reason, nothing else.
func TestPingBurstWithinLimitAnswered(t *testing.T) {
	const rate = 200 // burst: 400
	ts := startServer(t, Options{Hub: hub.Options{Config: world.Config{Rate: 20}}, MaxMessageRate: rate})
	c := dialFrom(t, ts, "127.0.0.2")
	c.join("pinger")
	burst := make([]byte, 0, 500*11)
	for i := 1; i <= 260; i++ {
		burst, _ = protocol.Append(burst, &protocol.Ping{Stamp: uint64(i)})
	}
	go c.nc.Write(burst)
	for want := uint64(1); want <= 260; want++ {
		p := c.until("a Pong", func(m protocol.Message) bool {
			if e, ok := m.(*protocol.Error); ok {
				t.Fatalf("a burst of 260 Pings got %v", e)
			}
			_, ok := m.(*protocol.Pong)
			return ok
		}).(*protocol.Pong)
		if p.Stamp != want {
			t.Fatalf("Pong %d, want %d", p.Stamp, want)
		}
	}
	flood := make([]byte, 0, 1000*11)
	for i := 0; i < 1000; i++ {
		flood, _ = protocol.Append(flood, &protocol.Ping{Stamp: uint64(i)})
	}
	go c.nc.Write(flood)
	e, ok := c.closed().(*protocol.Error)
	if !ok || e.Code != protocol.ErrCodeFlood {
		t.Fatalf("a flood of 1000 Pings got %#v, want the flood Error", e)
	}
	ts.waitLog(t, "flooding")
	if strings.Contains(ts.logs.String(), "too slow") || strings.Contains(ts.logs.String(), "encoded") {
		t.Errorf("the flood was logged with another reason:\n%s", ts.logs)
	}
	playsMeanwhile(t, ts, "127.0.0.3")
}

// TestDrainNoticeAndShutdownReason: Drain tells every client the time
// left and counts it down each second, newcomers are refused with the
// same sentence, and on Close everyone gets the shutdown Bye and the
// leaves say why.
func TestDrainNoticeAndShutdownReason(t *testing.T) {
	ts := startServer(t, Options{Hub: hub.Options{Config: world.Config{Rate: 20}}})
	c := dial(t, ts)
	c.join("ada")
	if ts.Draining() {
		t.Fatal("Draining before Drain")
	}
	began := time.Now()
	ts.Drain(3 * time.Second)
	if !ts.Draining() {
		t.Error("not Draining after Drain")
	}
	for _, want := range []string{"server stopping in 3 s", "server stopping in 2 s", "server stopping in 1 s"} {
		n := c.until("the Notice", func(m protocol.Message) bool { _, ok := m.(*protocol.Notice); return ok }).(*protocol.Notice)
		if n.Text != want {
			t.Errorf("notice %q, want %q", n.Text, want)
		}
	}
	if took, least := time.Since(began), 2*time.Second-50*time.Millisecond; took < least {
		t.Errorf("the countdown reached 1 s after %v, not before %v", took, least)
	}
	late := dial(t, ts)
	if e, ok := late.closed().(*protocol.Error); !ok || e.Code != protocol.ErrCodeShutdown || !strings.HasPrefix(e.Text, "server stopping ") {
		t.Errorf("a newcomer while draining got %#v, want a shutdown Error saying the server is stopping", e)
	}
	ts.Close()
	if b, ok := c.closed().(*protocol.Bye); !ok || b.Reason != protocol.ByeShutdown {
		t.Errorf("got %#v on Close, want the shutdown Bye", b)
	}
	if !strings.Contains(ts.logs.String(), `reason="server shutting down"`) || strings.Contains(ts.logs.String(), "said bye") {
		t.Errorf("the leave on shutdown does not say why:\n%s", ts.logs)
	}
}
