package loadgen

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"slices"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// The server's metrics the load generator reads (see the metrics
// package and `gridlag serve -metrics`).
const (
	tickMetric = "gridlag_tick_duration_seconds"
	cpuMetric  = "process_cpu_seconds_total"
	rssMetric  = "process_resident_memory_bytes"
)

// The server's figures, by their names in the JSON summary (and in
// ServerSide.Unmeasured).
const (
	figTicks    = "ticks"
	figTickP50  = "tick_p50_ms_at_most"
	figTickP99  = "tick_p99_ms_at_most"
	figCPU      = "cpu_ms"
	figCPUShare = "cpu_share_of_a_core"
	figRSS      = "rss_bytes"
)

// ServerSide is what the server's own metrics say of the walk: read from
// its /metrics when the walk starts and when it ends. A figure the
// readings could not give is zero and named in Unmeasured with the reason.
type ServerSide struct {
	// Ticks is how many ticks the server took during the walk.
	Ticks uint64
	// TickP50 and TickP99 bound the tick's duration, in seconds: the upper
	// bounds of the histogram's buckets that hold the 50th and the 99th
	// percentile.
	TickP50, TickP99 float64
	// CPU is the server process's CPU time over the walk.
	CPU time.Duration
	// CPUShare is CPU over the walk's length: 1 is one core.
	CPUShare float64
	// RSS is the server's resident memory at the end of the walk, in bytes.
	RSS float64
	// Unmeasured holds why each figure that could not be measured was
	// not, by its JSON name (ticks, tick_p50_ms_at_most,
	// tick_p99_ms_at_most, cpu_ms, cpu_share_of_a_core, rss_bytes). Nil
	// when every figure was measured.
	Unmeasured map[string]string
}

// unmeasured records why the figures named were not measured (the first
// reason given for a figure stands).
func (v *ServerSide) unmeasured(reason string, figures ...string) {
	if v.Unmeasured == nil {
		v.Unmeasured = map[string]string{}
	}
	for _, f := range figures {
		if _, ok := v.Unmeasured[f]; !ok {
			v.Unmeasured[f] = reason
		}
	}
}

// scrape is one reading of a server's metrics.
type scrape struct {
	at      time.Time
	buckets []*dto.Bucket // the tick histogram's, cumulative
	ticks   uint64
	cpu     float64 // seconds
	rss     float64
	// hasCPU and hasRSS say whether the reading had those metrics: the
	// process collector leaves them out, without an error, when it cannot
	// read /proc (a server at its open-files limit cannot open it).
	hasCPU, hasRSS bool
}

// readMetrics reads the metrics the load generator wants from url.
func readMetrics(ctx context.Context, url string) (scrape, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return scrape{}, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return scrape{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return scrape{}, fmt.Errorf("%s: %s", url, resp.Status)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	families, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		return scrape{}, fmt.Errorf("%s: %w", url, err)
	}
	s := scrape{at: time.Now()}
	tick := families[tickMetric]
	if tick == nil || len(tick.GetMetric()) != 1 || tick.GetMetric()[0].GetHistogram() == nil {
		return scrape{}, fmt.Errorf("%s: no %s histogram: is it a gridlag server's -metrics?", url, tickMetric)
	}
	h := tick.GetMetric()[0].GetHistogram()
	s.buckets, s.ticks = h.GetBucket(), h.GetSampleCount()
	s.cpu, s.hasCPU = single(families[cpuMetric])
	s.rss, s.hasRSS = single(families[rssMetric])
	return s, nil
}

// single returns the value of a family of one counter or gauge; false if
// it is missing or is not a number.
func single(f *dto.MetricFamily) (float64, bool) {
	if f == nil || len(f.GetMetric()) != 1 {
		return 0, false
	}
	m := f.GetMetric()[0]
	var v float64
	switch {
	case m.GetCounter() != nil:
		v = m.GetCounter().GetValue()
	case m.GetGauge() != nil:
		v = m.GetGauge().GetValue()
	default:
		return 0, false
	}
	return v, !math.IsNaN(v) && !math.IsInf(v, 0)
}

// missingMetric is why a figure is unmeasured when the reading at the
// walk's start or end lacks the metric it comes from.
func missingMetric(name, when string) string {
	return fmt.Sprintf("the server's metrics at the walk's %s have no %s "+
		"(its process collector leaves it out when it cannot read /proc, as at its open-files limit)", when, name)
}

// serverSide is what the server did between the readings at the walk's
// start and end, each with the error that kept it from being taken.
// Every figure that both readings (or, for RSS, the last) give is
// measured; the others say why not.
func serverSide(before scrape, beforeErr error, after scrape, afterErr error) *ServerSide {
	v := &ServerSide{}
	if afterErr != nil {
		v.unmeasured("reading the server's metrics at the walk's end failed: "+afterErr.Error(),
			figTicks, figTickP50, figTickP99, figCPU, figCPUShare, figRSS)
		return v
	}
	if after.hasRSS {
		v.RSS = after.rss
	} else {
		v.unmeasured(missingMetric(rssMetric, "end"), figRSS)
	}
	if beforeErr != nil {
		v.unmeasured("reading the server's metrics at the walk's start failed: "+beforeErr.Error(),
			figTicks, figTickP50, figTickP99, figCPU, figCPUShare)
		return v
	}
	v.cpuSince(before, after)
	v.ticksSince(before, after)
	return v
}

// restarted is why figures counted from the walk's start are unmeasured
// when a counter went back.
const restarted = "the server's counters went back: it restarted during the walk"

// cpuSince fills the CPU time and share of the walk.
func (v *ServerSide) cpuSince(before, after scrape) {
	switch {
	case !before.hasCPU:
		v.unmeasured(missingMetric(cpuMetric, "start"), figCPU, figCPUShare)
		return
	case !after.hasCPU:
		v.unmeasured(missingMetric(cpuMetric, "end"), figCPU, figCPUShare)
		return
	case after.cpu < before.cpu:
		v.unmeasured(restarted, figCPU, figCPUShare)
		return
	}
	v.CPU = time.Duration((after.cpu - before.cpu) * float64(time.Second))
	if secs := after.at.Sub(before.at).Seconds(); secs > 0 {
		v.CPUShare = (after.cpu - before.cpu) / secs
	} else {
		v.unmeasured("the readings at the walk's start and end were taken at the same instant", figCPUShare)
	}
}

// ticksSince fills the ticks of the walk and the bounds of their
// percentiles, from the difference of the tick histogram's two readings.
func (v *ServerSide) ticksSince(before, after scrape) {
	if after.ticks < before.ticks {
		v.unmeasured(restarted, figTicks, figTickP50, figTickP99)
		return
	}
	v.Ticks = after.ticks - before.ticks
	if v.Ticks == 0 {
		v.unmeasured("the server took no tick during the walk", figTickP50, figTickP99)
		return
	}
	if len(after.buckets) == 0 {
		v.unmeasured("the server's tick histogram has no buckets", figTickP50, figTickP99)
		return
	}
	counts := make([]uint64, len(after.buckets))
	for i, b := range after.buckets {
		j := slices.IndexFunc(before.buckets, func(o *dto.Bucket) bool { return o.GetUpperBound() == b.GetUpperBound() })
		was := uint64(0)
		switch {
		case j >= 0:
			was = before.buckets[j].GetCumulativeCount()
		case before.ticks > 0:
			v.unmeasured("the server's tick histogram changed its buckets during the walk", figTickP50, figTickP99)
			return
		}
		if b.GetCumulativeCount() < was {
			v.unmeasured(restarted, figTickP50, figTickP99)
			return
		}
		counts[i] = b.GetCumulativeCount() - was
	}
	bound := func(q float64, fig string) float64 {
		last := 0.0 // the last finite bound
		for i, c := range counts {
			ub := after.buckets[i].GetUpperBound()
			if math.IsInf(ub, 1) || math.IsNaN(ub) {
				break
			}
			if float64(c) >= q*float64(v.Ticks) {
				return ub
			}
			last = ub
		}
		v.unmeasured(fmt.Sprintf("over %v, beyond the tick histogram's last bucket", secondsText(last)), fig)
		return 0
	}
	v.TickP50, v.TickP99 = bound(0.5, figTickP50), bound(0.99, figTickP99)
}

// secondsText writes a bound in seconds as a duration.
func secondsText(secs float64) string { return time.Duration(secs * float64(time.Second)).String() }
