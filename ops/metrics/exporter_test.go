package metrics

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"testing"

	"gridlag/ops/loadgen"
	"gridlag/server"
	"gridlag/server/admit/admittest"
	"gridlag/server/hub"
	"gridlag/server/world"
)

// wait bounds every wait of these tests: the hang guard.
const wait = admittest.Hung

// get fetches path from the exporter's handler and returns the body.
func get(t *testing.T, base, path string) string {
	t.Helper()
	code, body := answer(t, base, path)
	if code != http.StatusOK {
		t.Fatalf("GET %s: %d", path, code)
	}
	return body
}

// value returns the value of the sample series (a name, with its labels
// if any) in a scrape, or -1 if it is not there.
func value(scrape, series string) float64 {
	for _, line := range strings.Split(scrape, "\n") {
		if rest, ok := strings.CutPrefix(line, series+" "); ok {
			v, err := strconv.ParseFloat(rest, 64)
			if err == nil {
				return v
			}
		}
	}
	return -1
}

// scrapeUntil scrapes /metrics until ok holds, and returns that scrape.
func scrapeUntil(t *testing.T, base, what string, ok func(scrape string) bool) string {
	t.Helper()
	var s string
	admittest.Eventually(t, func() bool { s = get(t, base, "/metrics"); return ok(s) },
		func() string { return fmt.Sprintf("/metrics never showed %s:\n%s", what, s) })
	return s
}

// startWatched starts a server at 50 Hz on loopback, watched by a new
// exporter, and closes it when the test ends; it returns the exporter and
// the game's address.
func startWatched(t *testing.T) (*Exporter, string) {
	t.Helper()
	exp := New()
	srv := server.New(server.Options{Hub: hub.Options{Config: world.Config{Rate: 50}}, Metrics: exp, BotAddrs: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}})
	exp.Watch(srv.Stats)
	exp.WatchRooms(srv.Rooms)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	t.Cleanup(func() {
		srv.Close()
		if err := <-served; !errors.Is(err, server.ErrServerClosed) {
			t.Errorf("Serve: %v", err)
		}
	})
	return exp, ln.Addr().String()
}

// TestScrapeAServerAtWork: with players walking, the gauges show them and
// the counters move; when they leave, the disconnections say why; the
// profiler answers when asked for.
func TestScrapeAServerAtWork(t *testing.T) {
	exp, addr := startWatched(t)
	web := httptest.NewServer(Routes{Metrics: exp, Profiler: true}.Handler())
	defer web.Close()

	before := get(t, web.URL, "/metrics")
	if value(before, "gridlag_players") != 0 || value(before, `gridlag_disconnections_total{reason="bye"}`) != 0 {
		t.Fatalf("a fresh server's scrape:\n%s", before)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan loadgen.Summary, 1)
	go func() {
		s, err := loadgen.Run(ctx, loadgen.Options{Addr: addr, N: 3})
		if err != nil {
			t.Error(err)
		}
		done <- s
	}()
	scrapeUntil(t, web.URL, "3 players walking, ticks timed, inputs processed, frames and bytes out, writes", func(s string) bool {
		return value(s, "gridlag_players") == 3 && value(s, "gridlag_bots") == 3 && value(s, "gridlag_connections") == 3 &&
			value(s, "gridlag_joins_total") == 3 && value(s, "gridlag_rooms") == 1 &&
			value(s, "gridlag_tick_duration_seconds_count") > 0 && value(s, "gridlag_inputs_processed_total") > 0 &&
			value(s, "gridlag_frames_out_total") > 0 && value(s, "gridlag_bytes_out_total") > value(s, "gridlag_frames_out_total") &&
			value(s, "gridlag_socket_writes_total") > 0 && value(s, "gridlag_socket_written_bytes_total") > value(s, "gridlag_socket_writes_total")
	})
	stop()
	sum := <-done
	after := scrapeUntil(t, web.URL, "3 players gone, saying bye", func(s string) bool {
		return value(s, "gridlag_players") == 0 && value(s, `gridlag_disconnections_total{reason="bye"}`) == 3 &&
			value(s, "gridlag_leaves_total") == 3
	})
	if got := value(after, "gridlag_inputs_processed_total"); got != float64(sum.InputsSent) {
		t.Errorf("inputs processed %v, the players sent %d", got, sum.InputsSent)
	}
	for _, series := range []string{"process_resident_memory_bytes", "process_cpu_seconds_total", "go_goroutines", `gridlag_refusals_total{reason="full"}`} {
		if value(after, series) < 0 {
			t.Errorf("the scrape has no %s", series)
		}
	}

	if idx := get(t, web.URL, "/debug/pprof/"); !strings.Contains(idx, "goroutine") {
		t.Errorf("/debug/pprof/ lists no goroutine profile:\n%s", idx)
	}
	if g := get(t, web.URL, "/debug/pprof/goroutine?debug=1"); !strings.Contains(g, "gridlag/server") {
		t.Error("the goroutine profile shows no server goroutine")
	}
}
