package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/internal/netcut"
	"gridlag/lab/sim"
	"gridlag/server"
	"gridlag/server/admit/admittest"
	"gridlag/server/hub"
	"gridlag/server/world"
)

// startServer serves a real game server on a loopback port.
func startServer(t *testing.T, cfg world.Config) (*server.Server, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	// The bots say they are: the operator allows it from loopback.
	srv := server.New(server.Options{Hub: hub.Options{Config: cfg}, BotAddrs: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}})
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

// waitServer polls srv's Stats until cond holds, or fails the test after
// the hang guard.
func waitServer(t *testing.T, srv *server.Server, what string, cond func(world.Stats) bool) {
	t.Helper()
	admittest.Eventually(t, func() bool { return cond(srv.Stats()) },
		func() string { return fmt.Sprintf("timed out waiting for %s: %+v", what, srv.Stats()) })
}

func TestRunAgainstServer(t *testing.T) {
	t.Parallel()
	const latency, jitter = 60 * time.Millisecond, 20 * time.Millisecond
	s, w := runWithHuman(t, world.Config{Rate: 20}, Options{
		N: 4, Duration: 2 * time.Second,
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
	for _, k := range []string{"bots", "duration_ms", "inputs_sent", "inputs_acked", "corrections", "resumes",
		"zaps_sent", "tags_made", "tags_suffered", "rtt_p50_ms", "rtt_p99_ms", "bytes_in_per_bot_per_sec", "bytes_out_per_bot_per_sec", "errors"} {
		if _, ok := obj[k]; !ok {
			t.Errorf("JSON summary has no %q: %s", k, buf.String())
		}
	}
	if len(obj) != 14 || obj["bots"] != 4.0 || obj["errors"] == nil {
		t.Errorf("JSON summary: %s", buf.String())
	}
	buf.Reset()
	if err := s.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"bots:", "acknowledged", "tags made", "tags suffered", "p50", "errors:       none"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("text summary lacks %q:\n%s", want, buf.String())
		}
	}
	if st := w.Server().Stats(); st.Bots != 0 {
		t.Errorf("%d bots still on the server after the run", st.Bots)
	}
	t.Logf("4 bots, %v round trip, %v jitter:\n%s", latency, jitter, buf.String())
}

func TestLoneBotIsNeverCorrected(t *testing.T) {
	t.Parallel()
	s := simRun(t, sim.New(world.Config{Rate: 20}), Options{
		N: 1, Duration: 2 * time.Second,
		Latency: 80 * time.Millisecond, Jitter: 40 * time.Millisecond, Seed: 9,
	}, nil)
	if len(s.Errors) != 0 {
		t.Fatalf("errors: %v", s.Errors)
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
	s, _ := runWithHuman(t, world.Config{Rate: 20, Map: m, Spawn: spawn}, Options{
		N: 6, Duration: 2 * time.Second,
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

// TestBotsSurviveServerClose: bots walking until stopped, whose server
// closes their connections, each end with an error saying they were
// dropped, and the run ends.
func TestBotsSurviveServerClose(t *testing.T) {
	t.Parallel()
	w := sim.New(world.Config{Rate: 20})
	closed := false
	s := simRun(t, w, Options{N: 3, Latency: 20 * time.Millisecond, Seed: 5}, func(_ time.Duration, bots []*sim.Client) {
		// Walking: the bots have their first State and are pressing.
		if st := w.Server().Stats(); !closed && st.Bots == 3 && st.Moves >= 6 {
			closed = true
			for _, c := range bots {
				w.Hangup(c, "server closed")
			}
		}
	})
	if !closed {
		t.Fatal("the bots did not walk")
	}
	if s.Bots != 3 || len(s.Errors) != 3 {
		t.Fatalf("after the server closed: %d bots, errors %v; want 3 and 3 drops", s.Bots, s.Errors)
	}
	for _, e := range s.Errors {
		if !strings.Contains(e, "dropped") {
			t.Errorf("error %q does not say the bot was dropped", e)
		}
	}
}

// TestStartStops, over real TCP: Start's bots walk until stop, which waits
// for them to close cleanly, and may be called again.
func TestStartStops(t *testing.T) {
	t.Parallel()
	srv, addr := startServer(t, world.Config{Rate: 20})
	stop := Start(context.Background(), Options{Addr: addr, N: 2, Seed: 6})
	waitServer(t, srv, "the bots to walk", func(s world.Stats) bool { return s.Bots >= 2 && s.Moves >= 4 })
	s := stop()
	if s.Bots != 2 || len(s.Errors) != 0 || s.InputsAcked != s.InputsSent {
		t.Fatalf("stopped: %+v", s)
	}
	if again := stop(); again.Bots != 2 {
		t.Errorf("a second stop returned %d bots", again.Bots)
	}
	waitServer(t, srv, "the bots to leave after stop", func(s world.Stats) bool { return s.Bots == 0 })
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

// TestBotsComeBackAfterADrop, over real TCP through a proxy that cuts
// every connection while the bots walk: each comes back as the same
// player, the summary counts the resumes, and every input was processed
// once.
func TestBotsComeBackAfterADrop(t *testing.T) {
	t.Parallel()
	srv, addr := startServer(t, world.Config{Rate: 20, Resume: 30 * time.Second})
	proxy := netcut.Start(t, addr)
	stop := Start(context.Background(), Options{Addr: proxy.Addr(), N: 2, Seed: 7})
	waitServer(t, srv, "the bots to walk", func(s world.Stats) bool { return s.Bots == 2 && s.Moves >= 4 })
	proxy.Cut()
	waitServer(t, srv, "both to come back", func(s world.Stats) bool { return s.Resumes == 2 })
	moves := srv.Stats().Moves
	waitServer(t, srv, "the bots to walk on", func(s world.Stats) bool { return s.Moves >= moves+4 })
	s := stop()
	if s.Bots != 2 || len(s.Errors) != 0 || s.Resumes != 2 {
		t.Fatalf("summary %+v: want 2 bots, no error, 2 resumes", s)
	}
	waitServer(t, srv, "the bots to leave", func(s world.Stats) bool { return s.Players == 0 })
	st := srv.Stats()
	if s.InputsAcked != s.InputsSent || st.InputsProcessed != uint64(s.InputsSent) || st.Joins != 2 || st.Leaves != 2 {
		t.Errorf("bots sent %d, acknowledged %d; server processed %d, %d joins, %d leaves: want every input once, the same 2 players",
			s.InputsSent, s.InputsAcked, st.InputsProcessed, st.Joins, st.Leaves)
	}
	var text, js bytes.Buffer
	s.WriteText(&text)
	s.WriteJSON(&js)
	if !strings.Contains(text.String(), "resumes:      2") || !strings.Contains(js.String(), `"resumes":2`) {
		t.Errorf("summaries do not count the resumes:\n%s%s", text.String(), js.String())
	}
}
