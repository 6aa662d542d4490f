package server

import (
	"errors"
	"fmt"
	"io"
	"net"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/charmbracelet/log"

	"gridlag/grid"
	"gridlag/protocol"
	"gridlag/server/admit/admittest"
	"gridlag/server/hub"
	"gridlag/server/world"
	"gridlag/server/world/worldtest"
)

const ms = time.Millisecond

// wait is the deadline for anything that happens over real sockets: the
// hang guard, long past what a busy machine takes.
const wait = admittest.Hung

// testServer is a server on 127.0.0.1:0 and its log.
type testServer struct {
	*Server
	logs *admittest.Log
}

// startServer serves a server with opts on loopback until the test ends
// (admittest.Serve: Close, then Serve's ErrServerClosed checked); a
// failed test shows its log.
func startServer(t *testing.T, opts Options) *testServer {
	t.Helper()
	return serveTest(t, opts, nil)
}

// startClocked is startServer on a clock the test moves (testClock): the
// server's ticks, timeouts and flood limit follow it, not the machine's.
func startClocked(t *testing.T, opts Options) (*testServer, *testClock) {
	t.Helper()
	clock := &testClock{}
	ts := serveTest(t, opts, clock)
	return ts, clock
}

func serveTest(t *testing.T, opts Options, clock *testClock) *testServer {
	t.Helper()
	logs := &admittest.Log{}
	opts.Logger = log.NewWithOptions(logs, log.Options{Level: log.DebugLevel})
	ts := &testServer{Server: New(opts), logs: logs}
	if clock != nil {
		clock.s = ts.Server
		ts.clock = clock.now // before Serve starts the loop
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("server log:\n%s", logs.String())
		}
	})
	admittest.Serve(t, ts.Server, ErrServerClosed)
	return ts
}

// testClock is a server's clock that only the test moves (Server.clock).
// What the loop decides on it (a tick, a client silent for too long) then
// depends on what the test did before each move, not on how fast a busy
// machine ran it; the loop still wakes on its real timers to read it.
type testClock struct {
	at atomic.Int64
	s  *Server
}

func (c *testClock) now() time.Duration { return time.Duration(c.at.Load()) }

// advance moves the clock on by d, and wakes the loop to act on it.
func (c *testClock) advance(d time.Duration) {
	c.at.Add(int64(d))
	select {
	case c.s.posted <- struct{}{}:
	default:
	}
}

// run moves the clock on by step every millisecond, until the function
// it returns is called: for what a test waits for on the clock (a
// timeout) once nothing else it checks depends on when it comes.
func (c *testClock) run(step time.Duration) (stop func()) {
	done := make(chan struct{})
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		tick := time.NewTicker(ms)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				c.advance(step)
			}
		}
	}()
	return func() {
		close(done)
		<-ended
	}
}

// eventually polls the server until cond holds, and fails the test with
// what why says then if it does not within the hang guard.
func eventually(t *testing.T, cond func() bool, why func() string) {
	t.Helper()
	admittest.Eventually(t, cond, why)
}

// waitLog polls the log for text.
func (ts *testServer) waitLog(t *testing.T, text string) {
	t.Helper()
	eventually(t, func() bool { return strings.Contains(ts.logs.String(), text) },
		func() string { return fmt.Sprintf("log never said %q", text) })
}

// testClient is a raw protocol client.
type testClient struct {
	t   *testing.T
	nc  net.Conn
	dec *protocol.Decoder
	enc *protocol.Encoder

	welcomes  int                 // Welcomes received: never more than one
	admission *protocol.Admission // the server's rules of admission, the first answer to a Hello of version 6
	tick      uint32              // the last State's tick: ticks only grow
	seen      worldtest.Picture   // the players in view, from the States so far
}

func dial(t *testing.T, ts *testServer) *testClient {
	t.Helper()
	nc, err := net.Dial("tcp", ts.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	return &testClient{t: t, nc: nc, dec: protocol.NewDecoder(nc), enc: protocol.NewEncoder(nc)}
}

func (c *testClient) send(m protocol.Message) {
	c.t.Helper()
	c.nc.SetWriteDeadline(time.Now().Add(wait))
	if err := c.enc.Encode(m); err != nil {
		c.t.Fatalf("send %v: %v", m.Type(), err)
	}
}

// recv reads one message, checking what holds for every connection: one
// Welcome, and States whose ticks never go back (nothing is sent twice).
// The Admission a client of version 6 is answered first is kept aside
// (c.admission), as the clients do: the message after it is returned.
func (c *testClient) recv() (protocol.Message, error) {
	c.nc.SetReadDeadline(time.Now().Add(wait))
	m, err := c.dec.Decode()
	if a, ok := m.(*protocol.Admission); ok && c.admission == nil {
		c.admission = a
		m, err = c.dec.Decode()
	}
	switch v := m.(type) {
	case *protocol.Welcome:
		if c.welcomes++; c.welcomes > 1 {
			c.t.Errorf("a second Welcome arrived")
		}
	case *protocol.State:
		if v.Tick < c.tick {
			c.t.Errorf("state of tick %d after tick %d", v.Tick, c.tick)
		}
		c.tick = v.Tick
		c.seen.Whole(v)
	case *protocol.Leave:
		c.seen.Take(v)
	}
	return m, err
}

// until reads messages until one satisfies ok, and returns it.
func (c *testClient) until(what string, ok func(protocol.Message) bool) protocol.Message {
	c.t.Helper()
	for {
		m, err := c.recv()
		if err != nil {
			c.t.Fatalf("waiting for %s: %v", what, err)
		}
		if ok(m) {
			return m
		}
	}
}

// join says Hello and returns the Welcome.
func (c *testClient) join(name string) *protocol.Welcome {
	c.t.Helper()
	c.send(&protocol.Hello{Version: protocol.Version, Name: name})
	m, err := c.recv()
	if err != nil {
		c.t.Fatalf("join %s: %v", name, err)
	}
	w, ok := m.(*protocol.Welcome)
	if !ok {
		c.t.Fatalf("join %s: got %+v, want a Welcome", name, m)
	}
	return w
}

// tickBetweenJoins moves a still clock an interval on and waits for the
// tick's State at c: without a line, the next newcomer is then the first
// since a tick, which the join gate takes at once (joingate.go), where a
// second would wait for a tick that a still clock never brings.
func tickBetweenJoins(clock *testClock, interval time.Duration, c *testClient) {
	c.t.Helper()
	clock.advance(interval)
	c.state("the tick between the joins", func(*protocol.State) bool { return true })
}

// state reads until a State satisfying ok.
func (c *testClient) state(what string, ok func(*protocol.State) bool) *protocol.State {
	c.t.Helper()
	return c.until(what, func(m protocol.Message) bool {
		st, is := m.(*protocol.State)
		return is && ok(st)
	}).(*protocol.State)
}

// closed reads until the server closes the connection, and returns the
// last Error or Bye it sent.
func (c *testClient) closed() protocol.Message {
	c.t.Helper()
	var last protocol.Message
	for {
		m, err := c.recv()
		if errors.Is(err, io.EOF) {
			return last
		}
		if err != nil {
			c.t.Fatalf("waiting for the server to close: %v", err)
		}
		switch m.(type) {
		case *protocol.Error, *protocol.Bye:
			last = m
		}
	}
}

func stateCell(st *protocol.State, id grid.PlayerID) (grid.Pos, bool) {
	for _, p := range st.Players {
		if p.ID == id {
			return p.Pos, true
		}
	}
	return grid.Pos{}, false
}

func TestTCPHandshakeMoveAndPing(t *testing.T) {
	ts := startServer(t, Options{Hub: hub.Options{Config: world.Config{Rate: 20}}})
	c := dial(t, ts)
	w := c.join("ann")
	if w.Player != 1 || w.UpdateRate != 20 || w.MapWidth != 40 {
		t.Fatalf("welcome %+v", w)
	}
	st := c.state("first state", func(*protocol.State) bool { return true })
	if p, _ := stateCell(st, 1); p != grid.DefaultSpawn || st.Ack != 0 {
		t.Fatalf("first state %+v, want ann at %v, ack 0", st, grid.DefaultSpawn)
	}
	c.send(&protocol.Input{Seq: 1, Dir: grid.Right})
	st = c.state("ack 1", func(st *protocol.State) bool { return st.Ack == 1 })
	if p, _ := stateCell(st, 1); p != (grid.Pos{X: 11, Y: 10}) {
		t.Errorf("after RIGHT ann is at %v, want (11,10)", p)
	}
	c.send(&protocol.Ping{Stamp: 42})
	c.until("pong", func(m protocol.Message) bool {
		p, ok := m.(*protocol.Pong)
		return ok && p.Stamp == 42
	})
	ts.waitLog(t, "join")
	if !strings.Contains(ts.logs.String(), "spawn=(10,10)") || !strings.Contains(ts.logs.String(), "name=ann") {
		t.Errorf("join log lacks the name or spawn cell:\n%s", ts.logs)
	}
	c.send(&protocol.Bye{Reason: "done"})
	if m := c.closed(); m == nil {
		t.Errorf("no Bye back after Bye")
	}
	ts.waitLog(t, "leave")
}

func TestTCPWrongVersion(t *testing.T) {
	ts := startServer(t, Options{Hub: hub.Options{Config: world.Config{Rate: 20}}})
	c := dial(t, ts)
	c.send(&protocol.Hello{Version: 99, Name: "old"})
	m := c.closed()
	e, ok := m.(*protocol.Error)
	if !ok || e.Code != protocol.ErrCodeVersion || !strings.Contains(e.Text, "99") {
		t.Fatalf("got %+v, want Error(version) naming version 99", m)
	}
	ts.waitLog(t, "refused")
}

func TestTCPGarbageClosesOnlyThatClient(t *testing.T) {
	ts := startServer(t, Options{Hub: hub.Options{Config: world.Config{Rate: 50}}})
	good := dial(t, ts)
	good.join("good")
	garbage := [][]byte{
		[]byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n"),
		{0, 3, 0xEE, 1, 2},       // unknown message type
		{0, 2, 4, 1},             // a truncated Input
		{0, 0},                   // an empty frame
		{0, 6, 4, 0, 0, 0, 1, 9}, // an Input with direction 9
	}
	for i, g := range garbage {
		bad := dial(t, ts)
		if i%2 == 1 {
			bad.join("bad")
		}
		bad.nc.Write(g)
		m := bad.closed()
		if e, ok := m.(*protocol.Error); !ok || e.Code != protocol.ErrCodeProtocol || !strings.Contains(e.Text, "malformed") {
			t.Errorf("garbage %q: got %+v, want Error(protocol, malformed frame)", g, m)
		}
	}
	ts.waitLog(t, "malformed frame")
	// The good client still gets fresh states.
	first := good.state("a state", func(*protocol.State) bool { return true })
	good.state("a later state", func(st *protocol.State) bool { return st.Tick >= first.Tick+5 })
}

func TestTCPHandshakeTimeout(t *testing.T) {
	ts := startServer(t, Options{Hub: hub.Options{Config: world.Config{Rate: 20}}, HandshakeTimeout: 100 * time.Millisecond})
	c := dial(t, ts)
	m := c.closed()
	if e, ok := m.(*protocol.Error); !ok || e.Code != protocol.ErrCodeTimeout {
		t.Fatalf("silent client got %+v, want Error(timeout)", m)
	}
	ts.waitLog(t, "no Hello within")
}

// TestTCPSlowClientDroppedOthersUnaffected: a client that stops reading
// fills its queue and is dropped as too slow, alone: the good client hears
// a State every tick meanwhile, then the slow one's Leave. The server runs
// on the test's clock, one tick at a time, each once the good client has
// read the last: the good client is never behind, however slowly a busy
// machine runs its reader or the server's writer, while the slow one falls
// a tick further behind at each. (A server whose tick waited for the
// stalled socket would tick no more, never fill the slow client's queue
// nor drop it: the test would not get past the Leave.)
func TestTCPSlowClientDroppedOthersUnaffected(t *testing.T) {
	const rate = 200
	// Neither client says a word after its Hello, and the kernel's buffers
	// absorb a number of States that depends on how many each write
	// carries (more on a busy machine, where the writer merges ticks): an
	// idle timeout on the test's clock must not end the test before the
	// slow one's queue fills. The queue holds 64 frames, not a handful: a
	// join's frames come at once, and on a busy machine a writer may not
	// run between two of them, which is not a client falling behind.
	ts, clock := startClocked(t, Options{Hub: hub.Options{Config: world.Config{Rate: rate}}, SendQueue: 64, WriteBuffer: 4096,
		IdleTimeout: time.Hour})
	good := dial(t, ts)
	good.join("good")
	slow := dial(t, ts)
	slow.nc.(*net.TCPConn).SetReadBuffer(4096)
	tickBetweenJoins(clock, time.Second/rate, good)
	slow.join("slow") // and never read again

	// tick moves the clock to the next tick and returns its State.
	left := false
	tick := func() *protocol.State {
		clock.advance(time.Second / rate)
		return good.until("the tick's State", func(m protocol.Message) bool {
			left = left || worldtest.LeftGame(m, 2)
			_, ok := m.(*protocol.State)
			return ok
		}).(*protocol.State)
	}
	first := tick()
	last, states := first, 0
	for !left {
		if states > 100000 {
			t.Fatalf("the slow client was not dropped after %d ticks", states)
		}
		last = tick()
		states++
	}
	ts.waitLog(t, "too slow")
	ticks := int(last.Tick - first.Tick)
	if states != ticks {
		t.Errorf("the good client got %d States over %d ticks while the slow client stalled, want one a tick", states, ticks)
	}
	if st := tick(); len(st.Players) != 1 {
		t.Errorf("a State after the drop shows %d players, want the good one alone", len(st.Players))
	}
	if testing.Verbose() {
		t.Logf("%d ticks; log:\n%s", ticks, ts.logs)
	}
}

func TestTCPFloodDisconnected(t *testing.T) {
	ts := startServer(t, Options{Hub: hub.Options{Config: world.Config{Rate: 20}}, MaxMessageRate: 50})
	good := dial(t, ts)
	good.join("good")
	c := dial(t, ts)
	c.join("flood")
	good.until("the flooder in view", func(m protocol.Message) bool {
		j, ok := m.(*protocol.Join)
		return ok && j.Player.ID == 2
	})
	go func() {
		for i := 0; i < 1000; i++ {
			if c.enc.Encode(&protocol.Ping{Stamp: uint64(i)}) != nil {
				return
			}
		}
	}()
	m := c.closed()
	if e, ok := m.(*protocol.Error); !ok || e.Code != protocol.ErrCodeFlood {
		t.Fatalf("flooder got %+v, want Error(flood)", m)
	}
	ts.waitLog(t, "flooding")
	good.until("the flooder's Leave", func(m protocol.Message) bool { return worldtest.LeftGame(m, 2) })
}

// serverGoroutines returns the stacks of goroutines running server code.
func serverGoroutines() []string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var r []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "gridlag/server.(*Server)") {
			r = append(r, g)
		}
	}
	return r
}

// noServerGoroutines waits until no goroutine runs server code: one that
// has called wg.Done may take a moment to vanish.
func noServerGoroutines(t *testing.T) {
	t.Helper()
	var g []string
	eventually(t, func() bool { g = serverGoroutines(); return len(g) == 0 }, func() string {
		return fmt.Sprintf("%d server goroutines still running after Close:\n%s", len(g), strings.Join(g, "\n\n"))
	})
}

// readers counts the connections being read: by a goroutine each, or by
// their shard's poller.
func (ts *testServer) readers() int {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	n := 0
	for _, c := range ts.live {
		select {
		case <-c.readerDone:
		default:
			n++
		}
	}
	return n
}

func TestTCPCloseSaysByeAndLeavesNoGoroutines(t *testing.T) {
	ts := startServer(t, Options{Hub: hub.Options{Config: world.Config{Rate: 20}}})
	var clients []*testClient
	for _, name := range []string{"ann", "bob"} {
		c := dial(t, ts)
		c.join(name)
		clients = append(clients, c)
	}
	silent := dial(t, ts) // connected, no Hello yet
	eventually(t, func() bool { return ts.Stats().Connections >= 2 && ts.readers() >= 3 },
		func() string { return fmt.Sprintf("connections not set up: %+v", ts.Stats()) })

	done := make(chan struct{})
	go func() {
		ts.Close()
		close(done)
	}()
	for _, c := range append(clients, silent) {
		m := c.closed()
		if b, ok := m.(*protocol.Bye); !ok || b.Reason != "server shutting down" {
			t.Errorf("got %+v, want Bye(server shutting down)", m)
		}
		c.nc.Close()
	}
	select {
	case <-done:
	case <-time.After(wait):
		t.Fatal("Close did not return")
	}
	// Serve's ErrServerClosed is checked at the test's end
	// (admittest.Serve).
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if err := ts.Serve(ln); !errors.Is(err, ErrServerClosed) {
		t.Errorf("Serve after Close returned %v, want ErrServerClosed", err)
	}
	noServerGoroutines(t)
	if _, err := net.Dial("tcp", ts.Addr().String()); err == nil {
		t.Errorf("the listener still accepts connections after Close")
	}
	ts.Close() // a second Close is harmless
}

func TestServeRejectsBadConfig(t *testing.T) {
	s := New(Options{Hub: hub.Options{Config: world.Config{Rate: -5}}})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Serve(ln); err == nil || !strings.Contains(err.Error(), "rate") {
		t.Errorf("Serve with rate -5: %v, want an error about the rate", err)
	}
	s.Close()
}

// TestTCPIdleTimeout: a player who sends nothing for IdleTimeout is told
// so and dropped, and the others hear that it left; one who keeps talking
// stays. The server runs on the test's clock (startClocked), which moves
// on 50 ms at a time, each time after the talker's Ping was read: the
// talker is never silent for more than 50 ms of the server's time, the
// quiet one for ever longer, however slowly a busy machine runs either.
// (TestSilenceDecides holds the rule itself at its edges.)
func TestTCPIdleTimeout(t *testing.T) {
	const idle, step = 150 * ms, 50 * ms
	ts, clock := startClocked(t, Options{Hub: hub.Options{Config: world.Config{Rate: 20}}, IdleTimeout: idle})
	good := dial(t, ts)
	good.join("good")
	quiet := dial(t, ts)
	tickBetweenJoins(clock, step, good)
	quiet.join("quiet")
	left := false
	for stamp := uint64(1); !left; stamp++ {
		if stamp > 100 {
			t.Fatalf("the quiet player was still in after %v", time.Duration(stamp)*step)
		}
		clock.advance(step)
		good.send(&protocol.Ping{Stamp: stamp})
		good.until("the Pong", func(m protocol.Message) bool {
			left = left || worldtest.LeftGame(m, 2)
			p, ok := m.(*protocol.Pong)
			return ok && p.Stamp == stamp
		})
	}
	m := quiet.closed()
	if e, ok := m.(*protocol.Error); !ok || e.Code != protocol.ErrCodeTimeout {
		t.Errorf("silent player got %+v, want Error(timeout)", m)
	}
	if ts.Stats().Players != 1 {
		t.Errorf("stats %+v, want the pinging player still in", ts.Stats())
	}
	ts.waitLog(t, "silent for 150ms")
	if ts.logs.Count("leave", "name=good") != 0 {
		t.Errorf("the pinging player left:\n%s", ts.logs)
	}
}

func TestTCPManyClientsEachGetTheirOwnAck(t *testing.T) {
	const n, inputs = 40, 12
	ts := startServer(t, Options{Hub: hub.Options{Config: world.Config{Rate: 50, Map: worldtest.OpenMap(t, 60, 60), Spawn: grid.Pos{X: 30, Y: 30}}, MaxPlayersPerAddr: n}})
	clients := make([]*testClient, n)
	for i := range clients {
		clients[i] = dial(t, ts)
		clients[i].join(fmt.Sprint("p", i))
	}
	var wg sync.WaitGroup
	errs := make(chan string, n)
	for i, c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := 1; s <= inputs; s++ {
				c.nc.SetWriteDeadline(time.Now().Add(wait))
				if err := c.enc.Encode(&protocol.Input{Seq: uint32(s), Dir: grid.Dir(i%4 + 1)}); err != nil {
					errs <- err.Error()
					return
				}
			}
			for {
				m, err := c.recv()
				if err != nil {
					errs <- err.Error()
					return
				}
				if st, ok := m.(*protocol.State); ok && st.Ack == inputs {
					if len(st.Players) != n {
						errs <- "state without every player"
					}
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if s := ts.Stats(); s.InputsProcessed != n*inputs || s.InputsRefused != 0 {
		t.Errorf("stats %+v, want %d inputs processed", s, n*inputs)
	}
}
