package loadgen

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"gridlag/server/admit/admittest"
)

// garbage matches what a figure that was not measured used to print: NaN,
// infinities and negative numbers (an unset time went out as
// -2562047h47m16.854775808s).
var garbage = regexp.MustCompile(`NaN|Inf|(^|[^\w.])-\d`)

// summaries returns s in text and in JSON, failing the test if either has
// garbage in place of a figure or the JSON does not parse; the JSON comes
// back decoded too.
func summaries(t *testing.T, s Summary) (text string, js string, obj map[string]any) {
	t.Helper()
	var tb, jb bytes.Buffer
	if err := s.WriteText(&tb); err != nil {
		t.Fatal(err)
	}
	if err := s.WriteJSON(&jb); err != nil {
		t.Fatalf("WriteJSON: %v (the run's figures are lost)", err)
	}
	if err := json.Unmarshal(jb.Bytes(), &obj); err != nil || strings.Count(jb.String(), "\n") != 1 {
		t.Fatalf("WriteJSON wrote %q: %v", jb.String(), err)
	}
	for what, out := range map[string]string{"text": tb.String(), "JSON": jb.String()} {
		if bad := garbage.FindString(out); bad != "" {
			t.Errorf("the %s summary prints %q in place of a figure:\n%s", what, bad, out)
		}
	}
	return tb.String(), jb.String(), obj
}

// nullWithReason checks that obj (a JSON summary, or its "server") has
// figure f as null, and a reason for it in its "unmeasured" that
// contains want.
func nullWithReason(t *testing.T, obj map[string]any, f, want string) {
	t.Helper()
	v, there := obj[f]
	if !there || v != nil {
		t.Errorf("%q is %v (present %v), want null", f, v, there)
	}
	why, _ := obj["unmeasured"].(map[string]any)[f].(string)
	if !strings.Contains(why, want) {
		t.Errorf("%q is unmeasured for %q, want a reason with %q", f, why, want)
	}
}

// measured reports whether the server's figure f was measured.
func (v *ServerSide) measured(f string) bool {
	_, missing := v.Unmeasured[f]
	return !missing
}

// TestServerWithoutProcessMetrics: a server whose metrics lack its CPU
// and memory (its process collector leaves them out, without an error,
// when it cannot read /proc: at its open-files limit, as at 20,000
// players) still gives the walk's ticks; CPU and RSS say why they are
// missing, in text and as nulls in JSON, never NaN or a negative time.
func TestServerWithoutProcessMetrics(t *testing.T) {
	t.Parallel()
	_, addr, full := startMeteredServer(t)
	// The server's own page, less the process collector's lines.
	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		resp, err := http.Get(full.URL + "/metrics")
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		var b bytes.Buffer
		b.ReadFrom(resp.Body)
		for line := range strings.Lines(b.String()) {
			if !strings.Contains(line, "process_") {
				fmt.Fprint(w, line)
			}
		}
	}))
	t.Cleanup(web.Close)
	s, err := Run(context.Background(), Options{Addr: addr, N: 2, Duration: 300 * time.Millisecond, Seed: 1, ServerMetrics: web.URL})
	if err != nil {
		t.Fatal(err)
	}
	text, _, obj := summaries(t, s)
	if s.Server == nil || s.Server.Ticks == 0 || !s.Server.measured(figTickP50) || s.ServerErr != "" {
		t.Fatalf("server side %+v (%q): want the walk's ticks and their p50", s.Server, s.ServerErr)
	}
	server := obj["server"].(map[string]any)
	for _, f := range []string{figCPU, figCPUShare} {
		nullWithReason(t, server, f, "no process_cpu_seconds_total")
	}
	nullWithReason(t, server, figRSS, "no process_resident_memory_bytes")
	if ticks, _ := server[figTicks].(float64); ticks != float64(s.Server.Ticks) {
		t.Errorf("JSON ticks %v, want %d", server[figTicks], s.Server.Ticks)
	}
	for _, want := range []string{fmt.Sprintf("server      %d ticks, tick p50 <= ", s.Server.Ticks),
		"cpu not measured (the server's metrics at the walk's start have no process_cpu_seconds_total",
		"rss not measured (the server's metrics at the walk's end have no process_resident_memory_bytes"} {
		if !strings.Contains(text, want) {
			t.Errorf("the text summary lacks %q:\n%s", want, text)
		}
	}
}

// TestServerKilledDuringTheWalk: when the server dies in the middle of
// the walk (its game port and its metrics gone at once), the run ends
// without walking on to its end, and the summary has every figure the
// players measured before; the server's figures are null, saying that
// its metrics could not be read at the walk's end, and why.
func TestServerKilledDuringTheWalk(t *testing.T) {
	t.Parallel()
	srv, addr, web := startMeteredServer(t)
	// An hour's walk, far past the hang guard: a run that walked on
	// without its server would not end within it.
	const walk = time.Hour
	go func() {
		// Kill it once the players have walked a little.
		admittest.Poll(func() bool { return srv.Stats().InputsProcessed >= 20 })
		web.CloseClientConnections()
		web.Close()
		srv.Close()
	}()
	var (
		s   Summary
		err error
	)
	if !admittest.Ends(func() {
		s, err = Run(context.Background(), Options{Addr: addr, N: 3, Duration: walk, Seed: 1, ServerMetrics: web.URL + "/metrics"})
	}) {
		t.Fatalf("the run walked on without a server for %v", admittest.Hung)
	}
	if err != nil {
		t.Fatal(err)
	}
	text, _, obj := summaries(t, s)
	if s.Players != 3 || total(s.Dropped) != 3 || s.InputsSent == 0 || s.InputsAcked == 0 {
		t.Errorf("%d players, dropped %v, inputs %d sent %d acknowledged: want the 3 players' walk until the server went, each dropped",
			s.Players, s.Dropped, s.InputsSent, s.InputsAcked)
	}
	for _, f := range []string{"rtt_p50_ms", "rtt_p99_ms", "bytes_in_per_player_per_sec", "cpu_user_ms"} {
		if _, ok := obj[f].(float64); !ok {
			t.Errorf("%q is %v, want the figure measured before the server went", f, obj[f])
		}
	}
	server := obj["server"].(map[string]any)
	for _, f := range []string{figTicks, figTickP50, figTickP99, figCPU, figCPUShare, figRSS} {
		nullWithReason(t, server, f, "reading the server's metrics at the walk's end failed")
	}
	if !strings.Contains(s.ServerErr, "at the walk's end") || !strings.Contains(text, "server      no figures: reading the server's metrics at the walk's end failed: ") {
		t.Errorf("the summary does not say why the server has no figures (%q):\n%s", s.ServerErr, text)
	}
}

// TestNothingWelcomedSaysWhy: a run in which no player was welcomed has
// no round trip, no rate per player: each says why, in text and JSON.
func TestNothingWelcomedSaysWhy(t *testing.T) {
	t.Parallel()
	s, err := Run(context.Background(), Options{Addr: "127.0.0.1:1", N: 2, Duration: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	text, _, obj := summaries(t, s)
	if s.Players != 0 || total(s.Refused) != 2 {
		t.Fatalf("%d welcomed, refused %v: want both refused", s.Players, s.Refused)
	}
	for _, f := range []string{figRTTp50, figRTTp99, figRTTMax} {
		nullWithReason(t, obj, f, noneAcked)
	}
	for _, f := range []string{figBytesIn, figBytesOut} {
		nullWithReason(t, obj, f, noneWelcomed)
	}
	for _, want := range []string{"inputs      none sent", "round trip  not measured: no input was acknowledged",
		"per player per second not measured: no player was welcomed"} {
		if !strings.Contains(text, want) {
			t.Errorf("the text summary lacks %q:\n%s", want, text)
		}
	}
	if s.Walked > 10*time.Second {
		t.Errorf("walked %v with nobody connected", s.Walked)
	}
}

// TestTickHistogramTroubles: readings whose histograms cannot be
// compared give no percentile, and say why, rather than a wrong one.
func TestTickHistogramTroubles(t *testing.T) {
	at := time.Now()
	bucket := func(le float64, n uint64) []*dto.Bucket {
		return []*dto.Bucket{{UpperBound: &le, CumulativeCount: &n}}
	}
	before := scrape{at: at, ticks: 10, buckets: bucket(0.01, 10), hasCPU: true, hasRSS: true}
	for _, c := range []struct {
		name  string
		after scrape
		want  string
	}{
		{"no buckets", scrape{ticks: 20}, "has no buckets"},
		{"other buckets", scrape{ticks: 20, buckets: bucket(0.02, 20)}, "changed its buckets"},
		{"a bucket went back", scrape{ticks: 20, buckets: bucket(0.01, 5)}, restarted},
	} {
		c.after.at, c.after.hasCPU, c.after.hasRSS = at.Add(time.Second), true, true
		v := serverSide(before, nil, c.after, nil)
		if v.Ticks != 10 || !strings.Contains(v.Unmeasured[figTickP50], c.want) || !strings.Contains(v.Unmeasured[figTickP99], c.want) {
			t.Errorf("%s: %+v, want 10 ticks and no percentile: %q", c.name, v, c.want)
		}
		if _, _, obj := summaries(t, Summary{Server: v}); obj["server"].(map[string]any)[figTickP50] != nil {
			t.Errorf("%s: JSON gives a percentile", c.name)
		}
	}
}
