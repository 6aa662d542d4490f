package loadgen

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"gridlag/server"
	"gridlag/server/admit/admittest"
	"gridlag/server/hub"
	"gridlag/server/world"
)

// fromListener records the address each connection it accepts comes from.
type fromListener struct {
	net.Listener
	mu   sync.Mutex
	from map[string]int
}

func (l *fromListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.mu.Lock()
		l.from[c.RemoteAddr().(*net.TCPAddr).IP.String()]++
		l.mu.Unlock()
	}
	return c, err
}

// TestSpreadIsOneAddressAPlayer: past the server's cap per address, on a
// loopback target and without -addrs, every player comes from an address
// of its own, 127.0.0.1 and up, and the run says so; each room it opens
// is opened from an address that opened none.
func TestSpreadIsOneAddressAPlayer(t *testing.T) {
	t.Parallel()
	const n = 6
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := &fromListener{Listener: inner, from: map[string]int{}}
	// Two players a room and two from one address: the default room
	// takes two, and room-1 and room-2 the others; one room an address.
	_, addr := serveOn(t, ln, server.Options{Hub: hub.Options{Config: world.Config{Rate: 50, MaxPlayers: 2},
		MaxPlayersPerAddr: 2, RoomsPerAddr: 1}})
	var said strings.Builder
	s, err := Run(context.Background(), Options{Addr: addr, N: n, Duration: 100 * time.Millisecond, Say: &said})
	if err != nil {
		t.Fatal(err)
	}
	if s.Players != n || len(s.Refused) != 0 {
		t.Errorf("%d welcomed, refused %v; want all %d", s.Players, s.Refused, n)
	}
	if want := "spreading 6 players over 6 loopback addresses, one each, 127.0.0.1-127.0.0.6: the server takes 2 players from one address"; !strings.Contains(said.String(), want) {
		t.Errorf("the run said\n%s\nwant %q", said.String(), want)
	}
	ln.mu.Lock()
	defer ln.mu.Unlock()
	// 127.0.0.1 also asked for the room list, before its player and after.
	if len(ln.from) != n || ln.from["127.0.0.1"] < 1 {
		t.Errorf("connections from %v; want one from each of 127.0.0.1 to 127.0.0.%d (and the room lists' from 127.0.0.1)", ln.from, n)
	}
	for i := 2; i <= n; i++ {
		if a := fmt.Sprintf("127.0.0.%d", i); ln.from[a] != 1 {
			t.Errorf("%d connections from %s, want 1 (all: %v)", ln.from[a], a, ln.from)
		}
	}
}

// TestSpreadAddresses: the spread counts 127/8 from 127.0.0.1, one
// address a player, through the third byte and up to MaxPlayers, short
// of the broadcast address; and it is off when one address takes all.
func TestSpreadAddresses(t *testing.T) {
	for n, want := range map[int]string{1: "127.0.0.1", 255: "127.0.0.255", 256: "127.0.1.0", 10000: "127.0.39.16", MaxPlayers: "127.0.255.254"} {
		if got := spreadAddr(n); got != netip.MustParseAddr(want) {
			t.Errorf("player %d from %v, want %s", n, got, want)
		}
	}
	for _, c := range []struct{ n, perAddr, want int }{{32, 32, 0}, {33, 32, 33}, {10000, 32, 10000}, {10000, 0, 0}} {
		if got := spreadFor(c.n, c.perAddr); got != c.want {
			t.Errorf("spreadFor(%d, %d) = %d, want %d", c.n, c.perAddr, got, c.want)
		}
	}
}

// TestSummarySplitsRefusalsByWhen: a server whose ticks always cost their
// budget past its floor of 3 players, with a line of one place and a
// bound of a second, holds a first run's 3 players and takes nobody
// more; a second run's 4 are refused, one after waiting the whole bound
// in line, the others at once (the line is full): the summary counts
// them apart, and those refused after the whole bound apart again, in
// text and JSON.
func TestSummarySplitsRefusalsByWhen(t *testing.T) {
	t.Parallel()
	const n = 4
	srv, addr := startServer(t, server.Options{Hub: hub.Options{Config: world.Config{Rate: 20},
		TickBudget: time.Microsecond, LoadFloor: 3, LineWait: time.Second, LineMax: 1, MaxPlayersPerAddr: 2}})
	held, err := ParseAddrs("127.0.0.101-127.0.0.103")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	first := make(chan error, 1)
	go func() {
		_, err := Run(ctx, Options{Addr: addr, N: 3, LocalAddrs: held})
		first <- err
	}()
	defer func() {
		cancel()
		if err := <-first; err != nil {
			t.Error(err)
		}
	}()
	// Full, and for long enough that the ticks' last pace saw it (the
	// hub reads 3 ticks at least, and paces after each): no allowance is
	// left from before.
	admittest.Eventually(t, func() bool { l := srv.Load(); return srv.Stats().Players == 3 && l.Full && l.Ticks >= 5 },
		func() string { return fmt.Sprintf("the first run's 3 players in and the server full: %+v", srv.Load()) })

	s, err := Run(context.Background(), Options{Addr: addr, N: n, Duration: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	l := s.Line
	if s.Players != 0 || l == nil {
		t.Fatalf("%d welcomed, line %+v, refused %v; want none, and some queued", s.Players, l, s.Refused)
	}
	// Which of the 4 came first to the line's one place is the machine's
	// doing; a stall of a second between two dials could queue two.
	if l.Queued < 1 || l.Refused != l.Queued || s.RefusedAtOnce < 1 || s.RefusedAtOnce+l.Refused != n || total(s.Refused) != n {
		t.Errorf("queued %d, refused from the line %d, at once %d, refused %v; want all %d refused, at once or after waiting in line",
			l.Queued, l.Refused, s.RefusedAtOnce, s.Refused, n)
	}
	if l.Bound != time.Second || l.RefusedAfterBound != l.Refused || l.RefusedWaitP50 < time.Second || l.RefusedWaitMax < l.RefusedWaitP50 {
		t.Errorf("bound %v, %d of %d refused after it, waits p50 %v max %v; want every one refused after the whole second",
			l.Bound, l.RefusedAfterBound, l.Refused, l.RefusedWaitP50, l.RefusedWaitMax)
	}
	var text bytes.Buffer
	if err := s.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		fmt.Sprintf("players     0 welcomed, 4 refused (%d at once, %d after waiting in line), 0 dropped\n", s.RefusedAtOnce, l.Refused),
		fmt.Sprintf(", 0 let in, %d refused after p50 %v, max %v, %d of them after the whole 1s bound;", l.Refused, ms(l.RefusedWaitP50), ms(l.RefusedWaitMax), l.Refused),
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text summary lacks %q:\n%s", want, text.String())
		}
	}
	var js bytes.Buffer
	if err := s.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var got struct {
		AtOnce int `json:"refused_at_once"`
		Line   struct {
			Refused    int      `json:"refused"`
			RefusedP50 float64  `json:"refused_wait_p50_ms"`
			Bound      *float64 `json:"line_wait_ms"`
			AfterBound int      `json:"refused_after_line_wait"`
		} `json:"line"`
	}
	if err := json.Unmarshal(js.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.AtOnce != s.RefusedAtOnce || got.Line.Refused != l.Refused || got.Line.RefusedP50 < 1000 ||
		got.Line.Bound == nil || *got.Line.Bound != 1000 || got.Line.AfterBound != l.Refused {
		t.Errorf("JSON %s: want refused_at_once %d, line refused %d after the whole 1000 ms", js.String(), s.RefusedAtOnce, l.Refused)
	}
}
