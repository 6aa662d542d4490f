package metrics

import (
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"

	"gridlag/protocol"
	"gridlag/server"
)

// Summary is what a server did over an interval, for its log's periodic
// line: the figures /metrics serves, read from the same registry.
type Summary struct {
	// Players, Spectators and Rooms are the gauges at the interval's end
	// (gridlag_players, gridlag_spectators, gridlag_rooms).
	Players, Spectators, Rooms int
	// Joins and Leaves are the players who joined and left during the
	// interval (gridlag_joins_total, gridlag_leaves_total).
	Joins, Leaves uint64
	// TickP50 and TickP99 bound the ticks of the interval: the upper
	// bounds of the buckets of gridlag_tick_duration_seconds that hold the
	// 50th and the 99th percentile, in seconds; +Inf beyond the last
	// bucket, NaN if there was no tick.
	TickP50, TickP99 float64
	// BytesOut and StatesOut are per second over the interval
	// (gridlag_bytes_out_total, gridlag_states_sent_total).
	BytesOut, StatesOut float64
	// Writes is the write system calls to the clients' sockets per second
	// over the interval (gridlag_socket_writes_total), and
	// WritesPerMember the same per player and spectator at the
	// interval's end (NaN with none).
	Writes, WritesPerMember float64
	// Refused counts the refusals of the interval by kind of reason
	// (gridlag_refusals_total), the kinds with none left out, in the order
	// of server.ReasonKinds.
	Refused []Count
	// Ticks is the number of ticks of the interval and TickMean their
	// mean time in seconds (gridlag_tick_duration_seconds' count and sum;
	// NaN without a tick).
	Ticks    uint64
	TickMean float64
	// FramesOut is the frames (messages) queued for the clients per
	// second over the interval (gridlag_frames_out_total).
	FramesOut float64
	// CPU is the process's CPU time over the interval, in seconds per
	// second: 1 is one core busy (process_cpu_seconds_total); NaN where
	// the platform does not say.
	CPU float64
	// RSS and HeapInUse are the process's resident memory and the bytes
	// of its heap's spans in use, at the interval's end
	// (process_resident_memory_bytes, go_memstats_heap_inuse_bytes): 0
	// where the platform does not say.
	RSS, HeapInUse uint64
	// Admission is the admission decision and its inputs at the
	// interval's end, and the line's traffic over it (the gauges of
	// WatchLoad); nil where the server's load is not watched.
	Admission *Admission
}

// Admission is what a Summary says of the admission by load: the ticks'
// cost against their budget, whether newcomers wait (or are refused,
// without a line), how many wait, the line's pace, what a join costs
// apart from the ticks, and those let in from the line and refused a
// place in it during the interval.
type Admission struct {
	TickCost, Budget, JoinCost float64 // seconds
	Full                       bool
	Waiting                    int
	Headroom                   int     // places the capacity leaves the line, at capacity; -1 before
	Pace                       float64 // joins a second
	LineIn, LineRefused        uint64
}

// Count is a number of something of a kind.
type Count struct {
	Kind string
	N    uint64
}

// Summarizer gives the Summary of each interval: what the exporter's
// registry says at the interval's end against what it said at its start.
// It is for one goroutine.
type Summarizer struct {
	e    *Exporter
	last reading
}

// reading is the registry's figures at one time.
type reading struct {
	at                           time.Time
	players, spectators, rooms   float64
	joins, leaves, bytes, states float64
	writes, frames, tickSum, cpu float64
	hasCPU                       bool
	ticks                        uint64
	buckets                      []*dto.Bucket // cumulative
	refused                      map[string]float64
	rss, heap                    float64
	load                         map[string]float64 // WatchLoad's gauges and counters, by name
}

// Snapshot is the exporter's registry gathered once, at one time: what
// a scrape of /metrics at that time serves, every series read in the
// same gathering. A Summary is the difference of two snapshots, so that
// whatever shows a Summary (the log's line, a panel) can be held to the
// /metrics text of the very snapshots it came from (WriteText), however
// busy the server is between them.
type Snapshot struct {
	At       time.Time
	families []*dto.MetricFamily
}

// Snapshot gathers the registry, at now.
func (e *Exporter) Snapshot(now time.Time) (Snapshot, error) {
	families, err := e.reg.Gather()
	if err != nil {
		return Snapshot{}, err
	}
	return Snapshot{At: now, families: families}, nil
}

// WriteText writes the snapshot in Prometheus' text format, as /metrics
// serves it (the same encoder).
func (s Snapshot) WriteText(w io.Writer) error {
	enc := expfmt.NewEncoder(w, expfmt.NewFormat(expfmt.TypeTextPlain))
	for _, f := range s.families {
		if err := enc.Encode(f); err != nil {
			return err
		}
	}
	return nil
}

// Summarizer returns a Summarizer whose first interval starts at now.
func (e *Exporter) Summarizer(now time.Time) (*Summarizer, error) {
	snap, err := e.Snapshot(now)
	if err != nil {
		return nil, err
	}
	return e.SummarizerFrom(snap), nil
}

// SummarizerFrom returns a Summarizer whose first interval starts at
// snapshot snap.
func (e *Exporter) SummarizerFrom(snap Snapshot) *Summarizer {
	return &Summarizer{e: e, last: readSnapshot(snap)}
}

// Next returns the Summary of the interval from the previous call (or the
// Summarizer's start) to now.
func (s *Summarizer) Next(now time.Time) (Summary, error) {
	snap, err := s.e.Snapshot(now)
	if err != nil {
		return Summary{}, err
	}
	return s.NextAt(snap), nil
}

// NextAt returns the Summary of the interval from the previous call (or
// the Summarizer's start) to snapshot snap, one of its exporter's.
func (s *Summarizer) NextAt(snap Snapshot) Summary {
	r := readSnapshot(snap)
	before := s.last
	s.last = r
	sum := Summary{
		Players: int(r.players), Spectators: int(r.spectators), Rooms: int(r.rooms),
		Joins: delta(r.joins, before.joins), Leaves: delta(r.leaves, before.leaves),
		RSS: uint64(max(r.rss, 0)), HeapInUse: uint64(max(r.heap, 0)),
	}
	sum.CPU = math.NaN()
	if secs := r.at.Sub(before.at).Seconds(); secs > 0 {
		sum.BytesOut = float64(delta(r.bytes, before.bytes)) / secs
		sum.StatesOut = float64(delta(r.states, before.states)) / secs
		sum.Writes = float64(delta(r.writes, before.writes)) / secs
		sum.FramesOut = float64(delta(r.frames, before.frames)) / secs
		if r.hasCPU && before.hasCPU {
			sum.CPU = max(r.cpu-before.cpu, 0) / secs
		}
	}
	sum.Ticks, sum.TickMean = r.ticks-before.ticks, math.NaN()
	if sum.Ticks > 0 {
		sum.TickMean = max(r.tickSum-before.tickSum, 0) / float64(sum.Ticks)
	}
	sum.WritesPerMember = math.NaN()
	if members := sum.Players + sum.Spectators; members > 0 {
		sum.WritesPerMember = sum.Writes / float64(members)
	}
	sum.TickP50, sum.TickP99 = percentileBound(before, r, 0.5), percentileBound(before, r, 0.99)
	for _, k := range server.ReasonKinds() {
		if n := delta(r.refused[k], before.refused[k]); n > 0 {
			sum.Refused = append(sum.Refused, Count{k, n})
		}
	}
	if _, ok := r.load["gridlag_tick_budget_seconds"]; ok {
		l := r.load
		sum.Admission = &Admission{
			TickCost: l["gridlag_tick_cost_seconds"], Budget: l["gridlag_tick_budget_seconds"], JoinCost: l["gridlag_join_cost_seconds"],
			Full: l["gridlag_at_capacity"] == 1, Waiting: int(l["gridlag_line_waiting"]), Pace: l["gridlag_line_pace"],
			Headroom:    int(l["gridlag_line_headroom"]),
			LineIn:      delta(l["gridlag_line_admitted_total"], before.load["gridlag_line_admitted_total"]),
			LineRefused: delta(l["gridlag_line_refused_total"], before.load["gridlag_line_refused_total"]),
		}
	}
	return sum
}

// delta is a counter's growth, as a count.
func delta(now, before float64) uint64 {
	return uint64(max(now-before, 0))
}

// readSnapshot reads the figures of a snapshot of the registry.
func readSnapshot(snap Snapshot) reading {
	r := reading{at: snap.At, refused: map[string]float64{}, load: map[string]float64{}}
	for _, f := range snap.families {
		ms := f.GetMetric()
		if len(ms) == 0 {
			continue
		}
		m := ms[0]
		switch f.GetName() {
		case "gridlag_players":
			r.players = m.GetGauge().GetValue()
		case "gridlag_spectators":
			r.spectators = m.GetGauge().GetValue()
		case "gridlag_rooms":
			r.rooms = m.GetGauge().GetValue()
		case "gridlag_joins_total":
			r.joins = m.GetCounter().GetValue()
		case "gridlag_leaves_total":
			r.leaves = m.GetCounter().GetValue()
		case "gridlag_bytes_out_total":
			r.bytes = m.GetCounter().GetValue()
		case "gridlag_states_sent_total":
			r.states = m.GetCounter().GetValue()
		case "gridlag_socket_writes_total":
			r.writes = m.GetCounter().GetValue()
		case "gridlag_frames_out_total":
			r.frames = m.GetCounter().GetValue()
		case "process_cpu_seconds_total":
			r.cpu, r.hasCPU = m.GetCounter().GetValue(), true
		case "gridlag_tick_duration_seconds":
			h := m.GetHistogram()
			r.ticks, r.buckets, r.tickSum = h.GetSampleCount(), h.GetBucket(), h.GetSampleSum()
		case "process_resident_memory_bytes":
			r.rss = m.GetGauge().GetValue()
		case "go_memstats_heap_inuse_bytes":
			r.heap = m.GetGauge().GetValue()
		case "gridlag_tick_cost_seconds", "gridlag_tick_budget_seconds", "gridlag_at_capacity",
			"gridlag_line_waiting", "gridlag_line_headroom", "gridlag_line_pace", "gridlag_join_cost_seconds":
			r.load[f.GetName()] = m.GetGauge().GetValue()
		case "gridlag_line_admitted_total", "gridlag_line_refused_total":
			r.load[f.GetName()] = m.GetCounter().GetValue()
		case "gridlag_refusals_total":
			for _, m := range ms {
				for _, l := range m.GetLabel() {
					if l.GetName() == "reason" {
						r.refused[l.GetValue()] = m.GetCounter().GetValue()
					}
				}
			}
		}
	}
	return r
}

// percentileBound returns the upper bound of the tick histogram's bucket
// that holds the q-th quantile of the ticks between two readings: +Inf
// beyond the last bucket, NaN if there was no tick.
func percentileBound(before, after reading, q float64) float64 {
	n := after.ticks - before.ticks
	if n == 0 {
		return math.NaN()
	}
	for i, b := range after.buckets {
		in := b.GetCumulativeCount()
		if i < len(before.buckets) {
			in -= before.buckets[i].GetCumulativeCount()
		}
		if float64(in) >= q*float64(n) {
			return b.GetUpperBound()
		}
	}
	return math.Inf(1)
}

// KeyVals are the summary's fields as a log line's keys and values, e.g.
// players=12 ... tick_p50=0.25ms ... bytes_out=24.1kB/s ...
// refused=full:3,timeout:1 rss=48.2MB heap=12.1MB.
func (s Summary) KeyVals() []any {
	refused := "0"
	if len(s.Refused) > 0 {
		parts := make([]string, len(s.Refused))
		for i, c := range s.Refused {
			parts[i] = c.Kind + ":" + strconv.FormatUint(c.N, 10)
		}
		refused = strings.Join(parts, ",")
	}
	kv := []any{
		"players", s.Players, "spectators", s.Spectators, "rooms", s.Rooms,
		"joins", s.Joins, "leaves", s.Leaves,
		"tick_p50", tickBound(s.TickP50), "tick_p99", tickBound(s.TickP99),
		"bytes_out", bytesRate(s.BytesOut), "states_out", perSecond(s.StatesOut),
		"writes", perSecond(s.Writes), "writes_per_player", perMember(s.WritesPerMember),
		"refused", refused,
		"rss", memory(s.RSS), "heap", memory(s.HeapInUse),
	}
	if a := s.Admission; a != nil {
		full := 0
		if a.Full {
			full = 1
		}
		headroom := "-"
		if a.Headroom >= 0 {
			headroom = strconv.Itoa(a.Headroom)
		}
		kv = append(kv, "tick_cost", millis(a.TickCost), "budget", millis(a.Budget), "full", full,
			"waiting", a.Waiting, "headroom", headroom, "line_in", a.LineIn, "line_refused", a.LineRefused,
			"pace", perSecond(a.Pace), "join_cost", millis(a.JoinCost))
	}
	return kv
}

// millis writes seconds in milliseconds to a tenth of a microsecond at
// most: "23.8ms", "0.9ms".
func millis(secs float64) string {
	return strconv.FormatFloat(math.Round(secs*1e7)/1e4, 'f', -1, 64) + "ms"
}

// tickBound writes a bucket's bound in milliseconds: "0.25ms", "+Inf"
// beyond the last, "-" without a tick.
func tickBound(secs float64) string {
	switch {
	case math.IsNaN(secs):
		return "-"
	case math.IsInf(secs, 1):
		return "+Inf"
	}
	return strconv.FormatFloat(secs*1000, 'f', -1, 64) + "ms"
}

// bytesRate writes bytes per second in B, kB, MB or GB (powers of 1000):
// whole bytes, three figures from a kB (24.1kB/s, 1.23MB/s).
func bytesRate(b float64) string { return bytesSize(b) + "/s" }

// memory writes an amount of memory as bytesSize does, "-" for 0 (not
// known).
func memory(b uint64) string {
	if b == 0 {
		return "-"
	}
	return bytesSize(float64(b))
}

// bytesSize writes bytes in B, kB, MB or GB (powers of 1000): whole
// bytes, three figures from a kB (24.1kB, 1.23MB).
func bytesSize(b float64) string {
	unit, prec := "B", 0
	for _, u := range []string{"kB", "MB", "GB"} {
		if b < 999.5 {
			break
		}
		b, unit = b/1000, u
		switch {
		case b < 9.995:
			prec = 2
		case b < 99.95:
			prec = 1
		default:
			prec = 0
		}
	}
	return strconv.FormatFloat(b, 'f', prec, 64) + unit
}

// perMember writes a rate per player with one decimal (19.4/s), "-"
// without players.
func perMember(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return strconv.FormatFloat(v, 'f', 1, 64) + "/s"
}

// perSecond writes a rate of things per second: one decimal below 10,
// none from there (0.5/s, 9.9/s, 10/s, 240/s).
func perSecond(v float64) string {
	prec := 0
	if v < 9.95 {
		prec = 1
	}
	return strconv.FormatFloat(v, 'f', prec, 64) + "/s"
}

// Counters is the summary as the teachers' scale panel is told it
// (protocol.Counters, in fixed point), of an interval of the given
// length: the figures the panel shows, each from the registry /metrics
// serves. The tick budget is the hub's to say, per room.
func (s Summary) Counters(interval time.Duration) protocol.Counters {
	c := protocol.Counters{
		IntervalMS: fixed(interval.Seconds(), 1e3), Players: fixed(float64(s.Players), 1), Ticks: fixed(float64(s.Ticks), 1),
		TickMeanNS: fixed(s.TickMean, 1e9), TickP99NS: fixed(s.TickP99, 1e9), BudgetNS: protocol.NoFigure,
		Writes: fixed(s.Writes, 1), BytesPerPlayer: protocol.NoFigure, MessagesPerStateMilli: protocol.NoFigure,
		CPUPermyriad: fixed(s.CPU, 1e4), RSS: s.RSS,
	}
	if s.Players > 0 {
		c.BytesPerPlayer = fixed(s.BytesOut/float64(s.Players), 1)
	}
	if s.StatesOut > 0 {
		c.MessagesPerStateMilli = fixed(s.FramesOut/s.StatesOut, 1e3)
	}
	return c
}

// fixed is v times unit, rounded, as a Counters figure: NoFigure for
// NaN, infinities and what does not fit.
func fixed(v, unit float64) uint32 {
	v = math.Round(v * unit)
	if math.IsNaN(v) || v < 0 || v >= float64(protocol.NoFigure) {
		return protocol.NoFigure
	}
	return uint32(v)
}
