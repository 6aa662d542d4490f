package loadgen

import (
	"math"
	"sync/atomic"
	"time"
)

// Round trips are counted in buckets growing by rttStep, from rttMin to
// rttMax: percentiles within 2 %, in constant memory however many inputs a
// run sends.
const (
	rttMin  = 10 * time.Microsecond
	rttMax  = 100 * time.Second
	rttStep = 1.02
)

// rttBuckets is how many buckets cover rttMin to rttMax.
var rttBuckets = int(math.Ceil(math.Log(float64(rttMax/rttMin))/math.Log(rttStep))) + 1

// rttHistogram counts round trips. It is safe for concurrent use.
type rttHistogram struct {
	counts []atomic.Uint64
	max    atomic.Int64
}

func newRTTHistogram() *rttHistogram {
	return &rttHistogram{counts: make([]atomic.Uint64, rttBuckets)}
}

// add counts one round trip.
func (h *rttHistogram) add(d time.Duration) {
	h.counts[rttBucket(d)].Add(1)
	for {
		m := h.max.Load()
		if int64(d) <= m || h.max.CompareAndSwap(m, int64(d)) {
			return
		}
	}
}

// rttBucket is the bucket of d: the first whose upper bound is d or more.
func rttBucket(d time.Duration) int {
	if d <= rttMin {
		return 0
	}
	i := int(math.Ceil(math.Log(float64(d)/float64(rttMin)) / math.Log(rttStep)))
	return min(i, rttBuckets-1)
}

// bucketTop is the upper bound of bucket i.
func bucketTop(i int) time.Duration {
	return time.Duration(float64(rttMin) * math.Pow(rttStep, float64(i)))
}

// count is how many round trips were counted.
func (h *rttHistogram) count() uint64 {
	var total uint64
	for i := range h.counts {
		total += h.counts[i].Load()
	}
	return total
}

// percentile returns the round trip that p percent of those counted do
// not exceed (to within a bucket, and never above the largest), or 0 if
// none was counted.
func (h *rttHistogram) percentile(p float64) time.Duration {
	total := h.count()
	if total == 0 {
		return 0
	}
	rank := uint64(math.Ceil(p / 100 * float64(total)))
	var seen uint64
	for i := range h.counts {
		if seen += h.counts[i].Load(); seen >= max(rank, 1) {
			return min(bucketTop(i), time.Duration(h.max.Load()))
		}
	}
	return time.Duration(h.max.Load())
}

// snapshot returns the counts so far, for percentileSince.
func (h *rttHistogram) snapshot() []uint64 {
	c := make([]uint64, len(h.counts))
	for i := range h.counts {
		c[i] = h.counts[i].Load()
	}
	return c
}

// percentileSince returns the round trip that p percent of those counted
// since the snapshot before do not exceed (to within a bucket), and how
// many were counted since.
func (h *rttHistogram) percentileSince(before []uint64, p float64) (time.Duration, uint64) {
	return percentileBetween(before, h.snapshot(), p)
}

// percentileBetween returns the round trip that p percent of those
// counted between two snapshots do not exceed (to within a bucket), and
// how many were counted between them.
func percentileBetween(before, after []uint64, p float64) (time.Duration, uint64) {
	var total uint64
	for i := range after {
		total += after[i] - before[i]
	}
	if total == 0 {
		return 0, 0
	}
	rank := max(uint64(math.Ceil(p/100*float64(total))), 1)
	var seen uint64
	for i := range after {
		if seen += after[i] - before[i]; seen >= rank {
			return bucketTop(i), total
		}
	}
	return bucketTop(len(after) - 1), total
}
