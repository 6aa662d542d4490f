package loadgen

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/netip"
	"reflect"
	"strings"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
	"gridlag/server"
	"gridlag/server/hub"
	"gridlag/server/world"
)

// startServer serves a real game server on a loopback port.
func startServer(t *testing.T, opts server.Options) (*server.Server, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return serveOn(t, ln, opts)
}

// serveOn serves a real game server on ln.
func serveOn(t *testing.T, ln net.Listener, opts server.Options) (*server.Server, string) {
	t.Helper()
	// The players say they are bots: the operator allows it from loopback.
	opts.BotAddrs = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	srv := server.New(opts)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	t.Cleanup(func() {
		srv.Close()
		if err := <-served; !errors.Is(err, server.ErrServerClosed) {
			t.Errorf("Serve: %v, want ErrServerClosed", err)
		}
	})
	return srv, ln.Addr().String()
}

// TestRunAgainstServer: the players walk at the server's speed limit, never
// over it, every input is acknowledged, the Pings are answered, and the
// bytes counted are the bytes sent.
func TestRunAgainstServer(t *testing.T) {
	t.Parallel()
	const n = 5
	srv, addr := startServer(t, server.Options{
		Hub: hub.Options{Config: world.Config{Rate: 50, MoveTime: 20 * time.Millisecond}, PingInterval: 100 * time.Millisecond},
	})
	s, err := Run(context.Background(), Options{Addr: addr, N: n, Duration: time.Second, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	st := srv.Stats()
	if s.Players != n || len(s.Refused) != 0 || len(s.Dropped) != 0 {
		t.Fatalf("%d players welcomed, refused %v, dropped %v; want %d, none refused or dropped", s.Players, s.Refused, s.Dropped, n)
	}
	if s.InputsSent < n*10 || s.InputsAcked != s.InputsSent {
		t.Errorf("inputs sent %d, acknowledged %d: want every one of at least %d acknowledged", s.InputsSent, s.InputsAcked, n*10)
	}
	if st.InputsProcessed != s.InputsSent || st.InputsRefused != 0 {
		t.Errorf("the server processed %d inputs and refused %d; the players sent %d", st.InputsProcessed, st.InputsRefused, s.InputsSent)
	}
	if st.TooFast != 0 {
		t.Errorf("%d inputs came faster than the speed limit", st.TooFast)
	}
	if st.Moves == 0 {
		t.Error("nobody moved")
	}
	if s.RTTp50 <= 0 || s.RTTp99 < s.RTTp50 || s.RTTMax < s.RTTp99 {
		t.Errorf("round trips p50 %v, p99 %v, max %v: want 0 < p50 <= p99 <= max", s.RTTp50, s.RTTp99, s.RTTMax)
	}
	if s.Pongs == 0 {
		t.Error("no Ping answered")
	}
	bye, _ := protocol.Marshal(&protocol.Bye{Reason: "load run over"})
	input, _ := protocol.Marshal(&protocol.Input{Seq: 1, Dir: 1})
	pong, _ := protocol.Marshal(&protocol.Pong{})
	if want := int64(len(input))*int64(s.InputsSent) + int64(len(pong))*s.Pongs + int64(len(bye))*n; s.BytesOut != want {
		t.Errorf("bytes out %d, want %d: the inputs, Pongs and Byes written", s.BytesOut, want)
	}
	if least := int64(st.StatesSent) * int64(protocol.MinStateLen); s.BytesIn < least {
		t.Errorf("bytes in %d, less than the %d States the server sent take (%d)", s.BytesIn, st.StatesSent, least)
	}
	if s.BytesInPerPlayerPerSec <= 0 || s.BytesOutPerPlayerPerSec <= 0 {
		t.Errorf("bytes per player per second %.0f in, %.0f out; want both above 0", s.BytesInPerPlayerPerSec, s.BytesOutPerPlayerPerSec)
	}
	if s.CPUUser+s.CPUSys <= 0 {
		t.Error("no CPU time measured")
	}

	var buf bytes.Buffer
	if err := s.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var obj map[string]any
	if err := json.Unmarshal(buf.Bytes(), &obj); err != nil || strings.Count(buf.String(), "\n") != 1 {
		t.Fatalf("WriteJSON wrote %q: %v", buf.String(), err)
	}
	for _, k := range []string{"players", "inputs_sent", "inputs_acked", "rtt_p50_ms", "rtt_p99_ms", "rtt_max_ms",
		"bytes_in_per_player_per_sec", "bytes_out_per_player_per_sec", "refused", "dropped", "cpu_user_ms", "cpu_sys_ms"} {
		if _, ok := obj[k]; !ok {
			t.Errorf("JSON summary has no %q: %s", k, buf.String())
		}
	}
	buf.Reset()
	if err := s.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"5 welcomed, 0 refused, 0 dropped", "(100.00%)", "round trip  p50 "} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("text summary lacks %q:\n%s", want, buf.String())
		}
	}
}

// TestRunCountsRefusals: players past the server's cap are refused with its
// reason, and names such as bot-1 pass, as the players say they are bots.
// (The run spreads the rest over rooms of their own: the server opens no
// other room here.)
func TestRunCountsRefusals(t *testing.T) {
	t.Parallel()
	srv, addr := startServer(t, server.Options{Hub: hub.Options{Config: world.Config{Rate: 20, MaxPlayers: 3}, MaxRooms: 1}})
	s, err := Run(context.Background(), Options{Addr: addr, N: 5, Duration: 200 * time.Millisecond, NamePrefix: "bot"})
	if err != nil {
		t.Fatal(err)
	}
	if s.Players != 3 || !reflect.DeepEqual(s.Refused, map[string]int{"server busy: 1 rooms open, the most allowed": 2}) {
		t.Errorf("%d welcomed, refused %v; want 3, and 2 refused as the server opens no other room", s.Players, s.Refused)
	}
	if s.InputsAcked != s.InputsSent || srv.Stats().Joins != 3 {
		t.Errorf("inputs sent %d, acknowledged %d, joins %d", s.InputsSent, s.InputsAcked, srv.Stats().Joins)
	}
}

// TestLocalAddrsSpreadTheConnections: the connections come from the source
// addresses given, in turn.
func TestLocalAddrsSpreadTheConnections(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	from := make(chan string, 4)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			m, _ := protocol.NewDecoder(c).Decode() // the Hello, so that closing is not a reset
			if _, ok := m.(*protocol.Hello); ok {   // not the run's ask for the room list
				from <- c.RemoteAddr().(*net.TCPAddr).IP.String()
			}
			c.Close()
		}
	}()
	addrs, err := ParseAddrs("127.0.0.2-127.0.0.3")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Run(context.Background(), Options{Addr: ln.Addr().String(), N: 4, Duration: time.Millisecond, LocalAddrs: addrs})
	if err != nil {
		t.Fatal(err)
	}
	if s.Players != 0 || s.Refused["connection closed by the server"] != 4 {
		t.Errorf("%d welcomed, refused %v; want none, closed by the server", s.Players, s.Refused)
	}
	seen := map[string]int{}
	for range 4 {
		seen[<-from]++
	}
	if want := map[string]int{"127.0.0.2": 2, "127.0.0.3": 2}; !reflect.DeepEqual(seen, want) {
		t.Errorf("connections from %v, want %v", seen, want)
	}
}

func TestParseAddrs(t *testing.T) {
	got, err := ParseAddrs("127.0.0.2-127.0.0.4,10.0.0.1")
	want := []netip.Addr{netip.MustParseAddr("127.0.0.2"), netip.MustParseAddr("127.0.0.3"),
		netip.MustParseAddr("127.0.0.4"), netip.MustParseAddr("10.0.0.1")}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("ParseAddrs = %v, %v; want %v", got, err, want)
	}
	for _, bad := range []string{"", "127.0.0.9-127.0.0.2", "127.0.0.1-::1", "localhost", "10.0.0.0-10.255.255.255"} {
		if _, err := ParseAddrs(bad); err == nil {
			t.Errorf("ParseAddrs(%q) took it", bad)
		}
	}
}

func TestRTTPercentiles(t *testing.T) {
	h := newRTTHistogram()
	for i := 1; i <= 100; i++ {
		h.add(time.Duration(i) * time.Millisecond)
	}
	for _, c := range []struct {
		p    float64
		want time.Duration
	}{{50, 50 * time.Millisecond}, {99, 99 * time.Millisecond}, {100, 100 * time.Millisecond}} {
		if got := h.percentile(c.p); got < c.want || float64(got) > float64(c.want)*rttStep {
			t.Errorf("p%v = %v, want %v (within %v)", c.p, got, c.want, rttStep)
		}
	}
	if newRTTHistogram().percentile(50) != 0 {
		t.Error("an empty histogram has a percentile")
	}
}

// TestRunOnABigMap: on a map too big for the Welcome, the first player
// decodes the map's bits and the others skip them; all walk on it, and
// the map's bytes count as the handshake's, not the walk's.
func TestRunOnABigMap(t *testing.T) {
	t.Parallel()
	m, err := grid.Generate(400, 300, 2)
	if err != nil {
		t.Fatal(err)
	}
	var spawn grid.Pos
	for i, c := range m.Cells() {
		if c == grid.FloorCell {
			spawn = grid.Pos{X: i % m.Width(), Y: i / m.Width()}
			break
		}
	}
	_, addr := startServer(t, server.Options{Hub: hub.Options{Config: world.Config{Map: m, Spawn: spawn, Rate: 50, MoveTime: 20 * time.Millisecond}}})
	s, err := Run(context.Background(), Options{Addr: addr, N: 3, Duration: 500 * time.Millisecond, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if s.Players != 3 || len(s.Dropped) != 0 || s.Undecodable != 0 || s.InputsSent == 0 || s.InputsAcked != s.InputsSent {
		t.Fatalf("%d welcomed, dropped %v, %d undecodable, inputs %d sent %d acknowledged: want 3 walking on the big map",
			s.Players, s.Dropped, s.Undecodable, s.InputsSent, s.InputsAcked)
	}
	var bits int64
	for _, p := range protocol.MapBitsOf(m) {
		b, _ := protocol.Marshal(p)
		bits += int64(len(b))
	}
	if s.BytesIn > 3*bits {
		t.Errorf("%d bytes in after the handshakes: the map's %d bytes of bits were counted", s.BytesIn, bits)
	}
}

// TestRefusalsAtCapacityAreOneLine: a server at capacity says what its
// ticks cost in each refusal, so the texts differ in their figures; the
// summary counts them on one line, with the most frequent text, and
// keeps other reasons apart.
func TestRefusalsAtCapacityAreOneLine(t *testing.T) {
	s := &Summary{Refused: map[string]int{
		"server full: at capacity: its ticks take 31.2ms of their 25ms budget with 4,812 players and spectators; try again later": 7,
		"server full: at capacity: its ticks take 44ms of their 25ms budget with 4,900 players and spectators; try again later":   9,
		"server full: at capacity: its ticks take 29.9ms of their 25ms budget with 5,001 players and spectators; try again later": 1,
		"server full: 3 of 3 players": 2,
	}}
	var b strings.Builder
	writeReasons(&b, "refused", s.Refused)
	want := "refused     17 x server full: at capacity: its ticks take 44ms of their 25ms budget with 4,900 players and spectators; try again later (and 2 more texts like it, the figures differing)\n" +
		"refused     2 x server full: 3 of 3 players\n"
	if b.String() != want {
		t.Errorf("refusals printed\n%s\nwant\n%s", b.String(), want)
	}
}
