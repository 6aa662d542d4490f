package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/server"
)

// startServer serves a real game server on a loopback port.
func startServer(t *testing.T, cfg server.Config) (*server.Server, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(server.Options{Config: cfg})
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

// watcher is a client that stands still and looks at every State, noting
// any player other than the human it sees on the forbidden cell. (A player
// who left may still be drawn, nameless, until the next State: the human
// is known by ID as well as by name.)
type watcher struct {
	conn   *client.Conn
	stop   chan struct{}
	done   chan struct{}
	mu     sync.Mutex
	bad    []string
	states int
	human  grid.PlayerID // the human's player, once known
}

func watch(t *testing.T, addr string, forbidden grid.Pos) *watcher {
	t.Helper()
	conn, err := client.Dial(context.Background(), addr, client.Options{Name: "watcher", Bot: true, NoInterpolate: true})
	if err != nil {
		t.Fatal(err)
	}
	w := &watcher{conn: conn, stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		for {
			select {
			case <-conn.Changed():
			case <-conn.Done():
				return
			case <-w.stop:
				return
			}
			v := conn.View()
			w.mu.Lock()
			w.states++
			for _, o := range v.Others {
				if o.Pos == forbidden && o.Name != "human" && o.ID != w.human {
					w.bad = append(w.bad, fmt.Sprintf("player %d %q on %v", o.ID, o.Name, o.Pos))
				}
			}
			w.mu.Unlock()
		}
	}()
	return w
}

func (w *watcher) finish(t *testing.T) {
	t.Helper()
	close(w.stop)
	<-w.done
	w.conn.Close()
	if w.states < 10 {
		t.Errorf("the watcher saw only %d updates (err %v)", w.states, w.conn.View().Err)
	}
	if len(w.bad) > 0 {
		t.Errorf("bots stood on the human spawn: %v", w.bad)
	}
}

// humanJoins dials as a human, tells w who it is, and checks that it
// spawns on spawn.
func humanJoins(t *testing.T, addr string, spawn grid.Pos, w *watcher) {
	t.Helper()
	h, err := client.Dial(context.Background(), addr, client.Options{Name: "human"})
	if err != nil {
		t.Errorf("a human could not join during the bots' run: %v", err)
		return
	}
	defer h.Close()
	w.mu.Lock()
	w.human = h.View().Me
	w.mu.Unlock()
	if at := h.View().Server; at != spawn {
		t.Errorf("a human joining during the bots' run spawned at %v, want the spawn %v", at, spawn)
	}
}

// runWithHuman runs the bots and, halfway through, has a human join.
func runWithHuman(t *testing.T, addr string, opts Options, spawn grid.Pos) Summary {
	t.Helper()
	w := watch(t, addr, spawn)
	var s Summary
	var err error
	ran := make(chan struct{})
	go func() {
		defer close(ran)
		s, err = Run(context.Background(), opts)
	}()
	select {
	case <-time.After(opts.Duration / 2):
		humanJoins(t, addr, spawn, w)
	case <-ran:
		t.Error("the run ended before half its duration")
	}
	<-ran
	w.finish(t)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return s
}

func TestRunAgainstServer(t *testing.T) {
	t.Parallel()
	_, addr := startServer(t, server.Config{Rate: 20})
	const latency, jitter = 60 * time.Millisecond, 20 * time.Millisecond
	s := runWithHuman(t, addr, Options{
		Addr: addr, N: 4, Duration: 2 * time.Second,
		Latency: latency, Jitter: jitter, Seed: 1,
	}, grid.DefaultSpawn)

	if len(s.Errors) != 0 || s.Bots != 4 {
		t.Fatalf("bots %d, errors %v; want 4 bots and no error", s.Bots, s.Errors)
	}
	if s.deferred != 0 {
		t.Errorf("the clients held back %d presses: the bots pressed faster than the speed limit", s.deferred)
	}
	if s.InputsSent < 4*10 || s.InputsAcked != s.InputsSent {
		t.Errorf("inputs sent %d, acknowledged %d: want every one of at least 40 acknowledged", s.InputsSent, s.InputsAcked)
	}
	// Jitter adds 0..jitter each way; the server answers a Ping at once.
	if s.RTTp50 < latency || s.RTTp50 > latency+2*jitter+50*time.Millisecond {
		t.Errorf("round trip p50 %v, want about the injected %v (+ up to %v jitter)", s.RTTp50, latency, 2*jitter)
	}
	if s.RTTp99 < s.RTTp50 {
		t.Errorf("round trip p99 %v below p50 %v", s.RTTp99, s.RTTp50)
	}
	if s.BytesInPerBotPerSec <= 0 || s.BytesOutPerBotPerSec <= 0 {
		t.Errorf("bytes per bot per second: %.0f in, %.0f out; want both above 0", s.BytesInPerBotPerSec, s.BytesOutPerBotPerSec)
	}
	if s.Duration < 2*time.Second || s.Duration > 2*time.Second+2*(latency+jitter)+4*time.Second {
		t.Errorf("the run took %v, want a little over 2s", s.Duration)
	}

	var buf bytes.Buffer
	if err := s.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var obj map[string]any
	if err := json.Unmarshal(buf.Bytes(), &obj); err != nil {
		t.Fatalf("WriteJSON wrote %q: %v", buf.String(), err)
	}
	for _, k := range []string{"bots", "duration_ms", "inputs_sent", "inputs_acked", "corrections",
		"rtt_p50_ms", "rtt_p99_ms", "bytes_in_per_bot_per_sec", "bytes_out_per_bot_per_sec", "errors"} {
		if _, ok := obj[k]; !ok {
			t.Errorf("JSON summary has no %q: %s", k, buf.String())
		}
	}
	if len(obj) != 10 || obj["bots"] != 4.0 || obj["errors"] == nil {
		t.Errorf("JSON summary: %s", buf.String())
	}
	buf.Reset()
	if err := s.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"bots:", "acknowledged", "p50", "errors:       none"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("text summary lacks %q:\n%s", want, buf.String())
		}
	}
	t.Logf("4 bots, %v round trip, %v jitter:\n%s", latency, jitter, buf.String())
}

func TestLoneBotIsNeverCorrected(t *testing.T) {
	t.Parallel()
	_, addr := startServer(t, server.Config{Rate: 20})
	s, err := Run(context.Background(), Options{
		Addr: addr, N: 1, Duration: 2 * time.Second,
		Latency: 80 * time.Millisecond, Jitter: 40 * time.Millisecond, Seed: 9,
	})
	if err != nil || len(s.Errors) != 0 {
		t.Fatalf("Run: %v, %v", err, s.Errors)
	}
	if s.InputsSent < 10 || s.InputsAcked != s.InputsSent {
		t.Errorf("inputs sent %d, acknowledged %d", s.InputsSent, s.InputsAcked)
	}
	if s.Corrections != 0 {
		t.Errorf("a lone bot with reconciliation was corrected %d times", s.Corrections)
	}
	if s.deferred != 0 {
		t.Errorf("the client held back %d presses: the bot pressed faster than the speed limit", s.deferred)
	}
}

func TestCrowdedRoomKeepsSpawnFree(t *testing.T) {
	t.Parallel()
	// Fifteen cells, six bots and a watcher: bots bump into each other all
	// the time, so the server often refuses a move that prediction
	// allowed, and they keep walking around the spawn in the middle.
	m, err := grid.ParseMap("#######\n#.....#\n#.....#\n#.....#\n#######\n")
	if err != nil {
		t.Fatal(err)
	}
	spawn := grid.Pos{X: 3, Y: 2}
	_, addr := startServer(t, server.Config{Rate: 20, Map: m, Spawn: spawn})
	s := runWithHuman(t, addr, Options{
		Addr: addr, N: 6, Duration: 2 * time.Second,
		Latency: 60 * time.Millisecond, Jitter: 20 * time.Millisecond, Seed: 3,
		Avoid: []grid.Pos{spawn},
	}, spawn)
	if len(s.Errors) != 0 || s.Bots != 6 {
		t.Fatalf("bots %d, errors %v", s.Bots, s.Errors)
	}
	if s.InputsSent == 0 || s.InputsAcked != s.InputsSent {
		t.Errorf("inputs sent %d, acknowledged %d", s.InputsSent, s.InputsAcked)
	}
	if s.deferred != 0 {
		t.Errorf("the clients held back %d presses", s.deferred)
	}
	t.Logf("crowded room: %d inputs, %d corrections", s.InputsSent, s.Corrections)
}

func TestStartSurvivesServerClose(t *testing.T) {
	t.Parallel()
	srv, addr := startServer(t, server.Config{Rate: 20})
	stop := Start(context.Background(), Options{Addr: addr, N: 3, Latency: 20 * time.Millisecond, Seed: 5})
	deadline := time.Now().Add(10 * time.Second)
	// Walking: the bots have their first State and are pressing.
	for srv.Stats().Bots < 3 || srv.Stats().Moves < 6 {
		if time.Now().After(deadline) {
			t.Fatalf("bots joined %d, moves %d: the bots do not walk", srv.Stats().Bots, srv.Stats().Moves)
		}
		time.Sleep(10 * time.Millisecond)
	}
	srv.Close()
	got := make(chan Summary, 1)
	go func() { got <- stop() }()
	select {
	case s := <-got:
		if s.Bots != 3 || len(s.Errors) != 3 {
			t.Fatalf("after the server closed: %d bots, errors %v; want 3 and 3 drops", s.Bots, s.Errors)
		}
		for _, e := range s.Errors {
			if !strings.Contains(e, "dropped") {
				t.Errorf("error %q does not say the bot was dropped", e)
			}
		}
		if again := stop(); again.Bots != 3 {
			t.Errorf("a second stop returned %d bots", again.Bots)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("stop did not return after the server closed")
	}
}

func TestStartStops(t *testing.T) {
	t.Parallel()
	srv, addr := startServer(t, server.Config{Rate: 20})
	stop := Start(context.Background(), Options{Addr: addr, N: 2, Seed: 6})
	deadline := time.Now().Add(10 * time.Second)
	for srv.Stats().Bots < 2 || srv.Stats().Moves < 4 {
		if time.Now().After(deadline) {
			t.Fatalf("bots joined %d, moves %d: the bots do not walk", srv.Stats().Bots, srv.Stats().Moves)
		}
		time.Sleep(10 * time.Millisecond)
	}
	s := stop()
	if s.Bots != 2 || len(s.Errors) != 0 || s.InputsAcked != s.InputsSent {
		t.Fatalf("stopped: %+v", s)
	}
	for srv.Stats().Bots != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d bots still on the server after stop", srv.Stats().Bots)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestRunRefusesBadOptions(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	cases := []struct {
		name string
		opts Options
		want string
	}{
		{"no address", Options{N: 1}, "no server address"},
		{"no bots", Options{Addr: closed}, "out of range"},
		{"negative duration", Options{Addr: closed, N: 1, Duration: -time.Second}, "negative duration"},
		{"bad name", Options{Addr: closed, N: 1, NamePrefix: "\x1b[31m"}, "name prefix"},
		{"long name", Options{Addr: closed, N: 1, NamePrefix: "a-very-long-prefix"}, "name prefix"},
		{"nobody listening", Options{Addr: closed, N: 2, Duration: time.Second}, "none of the 2 bots"},
	}
	for _, c := range cases {
		s, err := Run(context.Background(), c.opts)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want one saying %q", c.name, err, c.want)
		}
		if s.Bots != 0 {
			t.Errorf("%s: %d bots played", c.name, s.Bots)
		}
	}
}
