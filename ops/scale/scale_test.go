package scale

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"gridlag/server/admit/admittest"
)

// scrape is one GET of the lab's /metrics: the series the panel's
// figures come from, and when it was answered.
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
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	s := scrape{at: time.Now(), series: map[string]float64{}}
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
// player, messages per State, CPU, RSS) agree within 5 % with what the
// server's /metrics says over the same interval, read from outside by
// HTTP, with the areas of interest on and off. The interval is counted in
// the server's ticks, on whatever clock the machine keeps. With the race
// detector it stops at 100 bots (make test runs it without too).
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

// compare reads the panel's figures over an interval of at least 60
// ticks, each end of it bracketed by two scrapes of /metrics between
// which the server did not tick (else it tries again), holds each
// figure to the scrapes' within 5 % and returns the panel's.
func compare(t *testing.T, l *Lab, areas bool, bots int) Figures {
	t.Helper()
	url := l.MetricsURL()
	// A first interval lets the switch take effect: the Joins of the
	// areas grown (or the Gones of those shrunk) are not the steady state.
	waitTicks(t, url, scrapeMetrics(t, url), 20)
	var a, b scrape
	var f Figures
	for try := 1; ; try++ {
		var okA, okB bool
		a, _, okA = bracketedRead(t, l)
		waitTicks(t, url, a, 60)
		b, f, okB = bracketedRead(t, l)
		if okA && okB {
			break
		}
		if try == 100 {
			t.Fatalf("the server ticked between two scrapes %d times in a row", try)
		}
	}
	if f.Areas != areas || f.Bots != bots || f.Players != bots {
		t.Fatalf("the panel says areas %v, %d bots asked, %d players; want areas %v and %d", f.Areas, f.Bots, f.Players, areas, bots)
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

// bracketedRead reads the panel's figures between two scrapes; ok
// reports whether the server did not tick between them: then the first
// scrape says what the panel read of the ticks.
func bracketedRead(t *testing.T, l *Lab) (before scrape, f Figures, ok bool) {
	t.Helper()
	before = scrapeMetrics(t, l.MetricsURL())
	f, err := l.Read(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	after := scrapeMetrics(t, l.MetricsURL())
	return before, f, after.series["gridlag_ticks_total"] == before.series["gridlag_ticks_total"]
}
