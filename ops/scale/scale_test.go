package scale

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"gridlag/ops/metrics"
	"gridlag/server/admit/admittest"
)

// scrape is one reading of the lab's /metrics text: the series the
// panel's figures come from, and when it was read.
type scrape struct {
	at     time.Time
	series map[string]float64
}

// scrapeMetrics reads url as Prometheus would.
func scrapeMetrics(t *testing.T, url string) scrape {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang guard
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	return parseMetrics(t, url, time.Now(), resp.Body)
}

// snapshotText reads a snapshot of the registry as the /metrics text it
// is, parsed as Prometheus would: what the server served at snap.At.
func snapshotText(t *testing.T, snap metrics.Snapshot) scrape {
	t.Helper()
	var b bytes.Buffer
	if err := snap.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	return parseMetrics(t, "a snapshot", snap.At, &b)
}

// parseMetrics parses the text format: each series of one sample by its
// name, a histogram's as name_count and name_sum.
func parseMetrics(t *testing.T, from string, at time.Time, r io.Reader) scrape {
	t.Helper()
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(r)
	if err != nil {
		t.Fatalf("%s: %v", from, err)
	}
	s := scrape{at: at, series: map[string]float64{}}
	for name, f := range families {
		if len(f.GetMetric()) != 1 {
			continue
		}
		m := f.GetMetric()[0]
		switch f.GetType() {
		case dto.MetricType_COUNTER:
			s.series[name] = m.GetCounter().GetValue()
		case dto.MetricType_GAUGE:
			s.series[name] = m.GetGauge().GetValue()
		case dto.MetricType_HISTOGRAM:
			s.series[name+"_count"] = float64(m.GetHistogram().GetSampleCount())
			s.series[name+"_sum"] = m.GetHistogram().GetSampleSum()
		}
	}
	return s
}

// rate is a counter's growth per second from a to b.
func rate(a, b scrape, name string) float64 {
	return (b.series[name] - a.series[name]) / b.at.Sub(a.at).Seconds()
}

// within reports whether got is within 5 % of want.
func within(got, want float64) bool { return math.Abs(got-want) <= 0.05*math.Abs(want) }

// TestThousandBotsAndTheirFigures: the lab reaches its 1,000 bots, step
// by step, and the figures its panel shows (tick time, writes, bytes per
// player, messages per State, CPU, RSS) agree within 5 % with the
// server's /metrics text over the same interval, with the areas of
// interest on and off: the text of the registry's snapshots the panel
// read, each bracketed by scrapes over HTTP (compare). The interval is
// counted in the server's ticks, on whatever clock the machine keeps, and
// nothing asks the server to hold still. With the race detector it stops
// at 100 bots (make test runs it without too).
func TestThousandBotsAndTheirFigures(t *testing.T) {
	if testing.Short() {
		t.Skip("1,000 bots over loopback")
	}
	steps := DefaultSteps
	if raceOn {
		steps = steps[:2]
	}
	most := steps[len(steps)-1]
	// Bots walking a step a second: the figures are the point, not the
	// load, on a machine that runs the race detector beside other work.
	l, err := Start(Options{Seed: 7, MoveTime: time.Second, Steps: steps})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	url := l.MetricsURL()
	for _, want := range l.Steps() {
		if !l.Up() {
			t.Fatalf("Up refused the step to %d bots", want)
		}
		admittest.Eventually(t, func() bool {
			return scrapeMetrics(t, url).series["gridlag_players"] == float64(want)
		}, func() string { return fmt.Sprintf("not %d bots in the room", want) })
	}
	if l.Up() || l.Bots() != most {
		t.Fatalf("after the last step: Up went on, or %d bots, want %d", l.Bots(), most)
	}
	var perPlayer [2]float64 // bytes per player per second, areas on and off
	for i, areas := range []bool{true, false} {
		l.SetAreas(areas)
		perPlayer[i] = compare(t, l, areas, most).BytesPerPlayer()
	}
	// Each State tells of every player: more than twice the bytes (ten
	// times more at 1,000 on a 2-core machine).
	if perPlayer[1] < 2*perPlayer[0] {
		t.Errorf("bytes per player per second: %.0f with areas of interest, %.0f without; want more than twice as many without", perPlayer[0], perPlayer[1])
	}
}

// counters are the /metrics series the panel's figures are made of that
// only grow.
var counters = []string{
	"gridlag_ticks_total", "gridlag_tick_duration_seconds_count", "gridlag_tick_duration_seconds_sum",
	"gridlag_socket_writes_total", "gridlag_bytes_out_total", "gridlag_frames_out_total",
	"gridlag_states_sent_total", "process_cpu_seconds_total",
}

// compare reads the panel's figures over an interval of at least 60
// ticks and holds each to the /metrics text of the two snapshots of the
// registry it is the difference of, parsed and divided here, within 5 %.
// That the snapshots are the live /metrics is checked from outside: a
// scrape over HTTP just before the interval's end and one just after
// bracket every counter of the end's snapshot, and say the same players.
// Neither needs the server to hold still: the panel and the text come
// from one gathering of the registry, however often the server ticks
// between the scrapes on a busy machine.
func compare(t *testing.T, l *Lab, areas bool, bots int) Figures {
	t.Helper()
	url := l.MetricsURL()
	// A first interval lets the switch take effect: the Joins of the
	// areas grown (or the Gones of those shrunk) are not the steady state.
	waitTicks(t, url, scrapeMetrics(t, url), 20)
	if _, err := l.Read(time.Now()); err != nil {
		t.Fatal(err)
	}
	waitTicks(t, url, scrapeMetrics(t, url), 60)
	before := scrapeMetrics(t, url)
	f, err := l.Read(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	after := scrapeMetrics(t, url)
	a, b := snapshotText(t, f.Start), snapshotText(t, f.End)
	for _, name := range counters {
		if v := b.series[name]; v < before.series[name] || v > after.series[name] {
			t.Errorf("%s: the panel's snapshot says %g, outside the /metrics scrapes around it (%g, %g)", name, v, before.series[name], after.series[name])
		}
	}
	if p := b.series["gridlag_players"]; p != before.series["gridlag_players"] || p != after.series["gridlag_players"] {
		t.Errorf("gridlag_players: the panel's snapshot says %g, the /metrics scrapes around it %g and %g", p, before.series["gridlag_players"], after.series["gridlag_players"])
	}
	if f.Areas != areas || f.Bots != bots || f.Players != bots {
		t.Fatalf("the panel says areas %v, %d bots asked, %d players; want areas %v and %d", f.Areas, f.Bots, f.Players, areas, bots)
	}
	if f.Ticks < 60 {
		t.Fatalf("the panel's interval holds %d ticks, want 60 or more", f.Ticks)
	}
	players := b.series["gridlag_players"]
	dTicks := b.series["gridlag_tick_duration_seconds_count"] - a.series["gridlag_tick_duration_seconds_count"]
	states := b.series["gridlag_states_sent_total"] - a.series["gridlag_states_sent_total"]
	for _, c := range []struct {
		what      string
		got, want float64
	}{
		{"tick time, mean (s)", f.TickMean, (b.series["gridlag_tick_duration_seconds_sum"] - a.series["gridlag_tick_duration_seconds_sum"]) / dTicks},
		{"writes per second", f.Writes, rate(a, b, "gridlag_socket_writes_total")},
		{"bytes per player per second", f.BytesPerPlayer(), rate(a, b, "gridlag_bytes_out_total") / players},
		{"messages per State", f.MessagesPerState(), (b.series["gridlag_frames_out_total"] - a.series["gridlag_frames_out_total"]) / states},
		{"CPU (cores)", f.CPU, rate(a, b, "process_cpu_seconds_total")},
		{"RSS (bytes)", float64(f.RSS), b.series["process_resident_memory_bytes"]},
	} {
		t.Logf("areas %v: %s: panel %.4g, /metrics %.4g", areas, c.what, c.got, c.want)
		if !within(c.got, c.want) {
			t.Errorf("areas %v: %s: the panel says %.4g, /metrics %.4g: more than 5 %% apart", areas, c.what, c.got, c.want)
		}
	}
	return f
}

// waitTicks waits until the server has ticked n times since from.
func waitTicks(t *testing.T, url string, from scrape, n float64) {
	t.Helper()
	admittest.Eventually(t, func() bool {
		return scrapeMetrics(t, url).series["gridlag_ticks_total"] >= from.series["gridlag_ticks_total"]+n
	}, func() string { return fmt.Sprintf("not %v ticks", n) })
}
