package loadgen

import (
	"context"
	"errors"
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
// package and `gridlag -server -metrics`).
const (
	tickMetric = "gridlag_tick_duration_seconds"
	cpuMetric  = "process_cpu_seconds_total"
	rssMetric  = "process_resident_memory_bytes"
)

// ServerSide is what the server's own metrics say of the walk: read from
// its /metrics when the walk starts and when it ends.
type ServerSide struct {
	// Ticks is how many ticks the server took during the walk.
	Ticks uint64
	// TickP50 and TickP99 bound the tick's duration: the upper bounds of
	// the histogram's buckets that hold the 50th and the 99th percentile
	// (+Inf beyond the last bucket, NaN if there was no tick).
	TickP50, TickP99 float64
	// CPU is the server process's CPU time over the walk.
	CPU time.Duration
	// CPUShare is CPU over the walk's length: 1 is one core.
	CPUShare float64
	// RSS is the server's resident memory at the end of the walk, in bytes.
	RSS float64
}

// scrape is one reading of a server's metrics.
type scrape struct {
	at      time.Time
	buckets []*dto.Bucket // the tick histogram's, cumulative
	ticks   uint64
	cpu     float64 // seconds
	rss     float64
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
	s.cpu = single(families[cpuMetric])
	s.rss = single(families[rssMetric])
	return s, nil
}

// single returns the value of a family of one counter or gauge, NaN if
// it is missing.
func single(f *dto.MetricFamily) float64 {
	if f == nil || len(f.GetMetric()) != 1 {
		return math.NaN()
	}
	m := f.GetMetric()[0]
	if c := m.GetCounter(); c != nil {
		return c.GetValue()
	}
	return m.GetGauge().GetValue()
}

// since returns what the server did between an earlier reading and s.
// The percentiles are NaN if it took no tick.
func (s scrape) since(before scrape) (ServerSide, error) {
	if s.ticks < before.ticks || s.cpu < before.cpu {
		return ServerSide{}, errors.New("the server's counters went back: it restarted during the walk")
	}
	out := ServerSide{Ticks: s.ticks - before.ticks, RSS: s.rss}
	out.CPU = time.Duration((s.cpu - before.cpu) * float64(time.Second))
	if secs := s.at.Sub(before.at).Seconds(); secs > 0 {
		out.CPUShare = (s.cpu - before.cpu) / secs
	}
	counts := make([]uint64, len(s.buckets))
	for i, b := range s.buckets {
		counts[i] = b.GetCumulativeCount()
		if j := slices.IndexFunc(before.buckets, func(o *dto.Bucket) bool { return o.GetUpperBound() == b.GetUpperBound() }); j >= 0 {
			counts[i] -= before.buckets[j].GetCumulativeCount()
		}
	}
	bound := func(q float64) float64 {
		if out.Ticks == 0 {
			return math.NaN()
		}
		for i, c := range counts {
			if float64(c) >= q*float64(out.Ticks) {
				return s.buckets[i].GetUpperBound()
			}
		}
		return math.Inf(1)
	}
	out.TickP50, out.TickP99 = bound(0.5), bound(0.99)
	return out, nil
}
