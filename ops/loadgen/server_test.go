package loadgen

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"gridlag/ops/metrics"
	"gridlag/server"
	"gridlag/server/hub"
	"gridlag/server/world"
)

// startMeteredServer serves a real game server (50 Hz, a move each 20 ms)
// on a loopback port, and its metrics as -metrics does.
func startMeteredServer(t *testing.T) (srv *server.Server, addr string, web *httptest.Server) {
	t.Helper()
	exp := metrics.New()
	srv, addr = startServer(t, server.Options{Hub: hub.Options{Config: world.Config{Rate: 50, MoveTime: 20 * time.Millisecond}}, Metrics: exp})
	exp.Watch(srv.Stats)
	web = httptest.NewServer(exp.Handler())
	t.Cleanup(web.Close)
	return srv, addr, web
}

// TestServerSideOfTheWalk: given a real server's metrics, the summary
// reports its ticks, tick percentiles, CPU and RSS during the walk, in
// text and JSON.
func TestServerSideOfTheWalk(t *testing.T) {
	t.Parallel()
	_, addr, web := startMeteredServer(t)
	s, err := Run(context.Background(), Options{Addr: addr, N: 3, Duration: 500 * time.Millisecond, Seed: 1, ServerMetrics: web.URL + "/metrics"})
	if err != nil {
		t.Fatal(err)
	}
	v := s.Server
	if v == nil {
		t.Fatalf("no server side: %q", s.ServerErr)
	}
	// No figure depends on the machine's speed: ticks were counted, the
	// percentiles are buckets' bounds in order, and the server has a size.
	if v.Ticks == 0 || !(v.TickP50 <= v.TickP99) || v.RSS < 1<<20 || v.CPU < 0 {
		t.Errorf("server side %+v: want ticks, p50 <= p99 in the buckets, a resident size", v)
	}
	var text, js strings.Builder
	s.WriteText(&text)
	s.WriteJSON(&js)
	if !strings.Contains(text.String(), fmt.Sprintf("server      %d ticks, tick p50 <= ", v.Ticks)) || !strings.Contains(js.String(), `"server":{"ticks":`) {
		t.Errorf("the summary does not tell the server's side:\n%s%s", text.String(), js.String())
	}
}

// TestServerSideFromReadings: the walk's ticks are the difference of two
// readings, and a percentile is the bound of the first bucket that holds
// it; a server not reached fails the run at once, and one that stops
// answering leaves the figures out, with the reason.
func TestServerSideFromReadings(t *testing.T) {
	reading := func(b1, b2, b3, count int, cpu float64) string {
		return fmt.Sprintf(`# TYPE gridlag_tick_duration_seconds histogram
gridlag_tick_duration_seconds_bucket{le="0.001"} %d
gridlag_tick_duration_seconds_bucket{le="0.01"} %d
gridlag_tick_duration_seconds_bucket{le="0.1"} %d
gridlag_tick_duration_seconds_bucket{le="+Inf"} %d
gridlag_tick_duration_seconds_sum 1
gridlag_tick_duration_seconds_count %d
# TYPE process_cpu_seconds_total counter
process_cpu_seconds_total %g
# TYPE process_resident_memory_bytes gauge
process_resident_memory_bytes 3.3e+07
`, b1, b2, b3, count, count, cpu)
	}
	var served atomic.Int32
	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if served.Add(1) == 1 {
			fmt.Fprint(w, reading(10, 10, 10, 10, 1))
			return
		}
		// 100 more ticks: 40 under 1 ms, 58 more under 10 ms, 2 over 100 ms.
		fmt.Fprint(w, reading(50, 108, 108, 110, 3))
	}))
	defer web.Close()
	before, err := readMetrics(context.Background(), web.URL)
	if err != nil {
		t.Fatal(err)
	}
	after, err := readMetrics(context.Background(), web.URL)
	if err != nil {
		t.Fatal(err)
	}
	after.at = before.at.Add(4 * time.Second)
	v := serverSide(before, nil, after, nil)
	if v.Ticks != 100 || v.TickP50 != 0.01 || v.CPU != 2*time.Second || v.CPUShare != 0.5 || v.RSS != 33e6 {
		t.Errorf("%+v: want 100 ticks, p50 <= 10 ms, 2 s of CPU (half a core), 33 MB", v)
	}
	if why := v.Unmeasured[figTickP99]; why != "over 100ms, beyond the tick histogram's last bucket" || len(v.Unmeasured) != 1 {
		t.Errorf("unmeasured %q, want p99 beyond the last bucket (100 ms), and nothing else", v.Unmeasured)
	}

	if back := serverSide(after, nil, before, nil); back.Unmeasured[figTicks] != restarted || back.Unmeasured[figCPU] != restarted || back.RSS != 33e6 {
		t.Errorf("counters going back: %+v, want the server taken as restarted, its RSS at the end still read", back)
	}
	if idle := serverSide(before, nil, before, nil); idle.Unmeasured[figTickP50] != "the server took no tick during the walk" ||
		idle.Unmeasured[figCPUShare] == "" || !idle.measured(figTicks) || !idle.measured(figCPU) {
		t.Errorf("no tick, no time: %+v, want 0 ticks, 0 CPU, no percentile and no share", idle)
	}
	if _, err := Run(context.Background(), Options{Addr: "127.0.0.1:1", N: 1, ServerMetrics: "http://127.0.0.1:1/metrics"}); err == nil || !strings.Contains(err.Error(), "the server's metrics") {
		t.Errorf("a server's metrics not reached: %v, want the run refused", err)
	}
	notOurs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "# TYPE up gauge\nup 1\n") }))
	defer notOurs.Close()
	if _, err := readMetrics(context.Background(), notOurs.URL); err == nil || !strings.Contains(err.Error(), "is it a gridlag server's -metrics?") {
		t.Errorf("metrics without the tick histogram: %v", err)
	}
}
