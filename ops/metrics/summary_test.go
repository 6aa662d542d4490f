package metrics

import (
	"context"
	"fmt"
	"math"
	"net"
	"net/http/httptest"
	"runtime"
	"testing"
	"time"

	"gridlag/ops/loadgen"
)

// TestSummaryIsWhatMetricsSays: over an interval (a minute on the
// summarizer's clock, whatever the real one says) the summary counts the
// players who joined and left, the refusals by reason, the ticks' bounds
// the bytes and States out and the writes per second (and per player),
// and each figure is what a
// scrape of /metrics says at its end.
func TestSummaryIsWhatMetricsSays(t *testing.T) {
	exp, addr := startWatched(t)
	web := httptest.NewServer(exp.Handler())
	defer web.Close()

	t0 := time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC)
	sum, err := exp.Summarizer(t0)
	if err != nil {
		t.Fatal(err)
	}
	// Three players walk, then two leave; two connections send garbage.
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, err := loadgen.Run(ctx, loadgen.Options{Addr: addr, N: 2}); err != nil {
			t.Error(err)
		}
	}()
	stay, stayStop := context.WithCancel(context.Background())
	defer stayStop()
	go loadgen.Run(stay, loadgen.Options{Addr: addr, N: 1, NamePrefix: "stay"}) // a name of its own: no two players of a room share one
	scrapeUntil(t, web.URL, "3 players", func(s string) bool { return value(s, "gridlag_players") == 3 })
	for range 2 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		c.Write([]byte{0xff, 0xff, 0xff, 0xff, 0})
		c.Close()
	}
	stop()
	<-done
	end := scrapeUntil(t, web.URL, "2 left, 2 malformed refused", func(s string) bool {
		return value(s, "gridlag_leaves_total") == 2 && value(s, `gridlag_refusals_total{reason="malformed"}`) == 2
	})

	minute, err := sum.Next(t0.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	// The player who stays walks on: the summary's counters lie between
	// the scrape before it and one after (however busy the machine).
	after := scrapeUntil(t, web.URL, "a scrape", func(string) bool { return true })
	// The player who stays walks on: the scrape and the summary may be a
	// tick apart in the counters that move with every tick.
	if minute.Players != 1 || minute.Spectators != 0 || minute.Rooms != 1 || minute.Joins != 3 || minute.Leaves != 2 {
		t.Errorf("the minute's gauges and joins: %+v, want 1 player, no spectator, 1 room, 3 joins, 2 leaves", minute)
	}
	if fmt.Sprint(minute.Refused) != "[{malformed 2}]" {
		t.Errorf("the minute's refusals: %v, want 2 malformed", minute.Refused)
	}
	for _, f := range []struct {
		name, metric string
		got          float64
	}{
		{"bytes out", "gridlag_bytes_out_total", minute.BytesOut},
		{"States out", "gridlag_states_sent_total", minute.StatesOut},
		{"writes", "gridlag_socket_writes_total", minute.Writes},
	} {
		lo, hi := value(end, f.metric)/60, value(after, f.metric)/60
		if f.got < lo || f.got > hi {
			t.Errorf("%s per second: %v, /metrics says %v to %v a second over the minute (the scrapes before and after)", f.name, f.got, lo, hi)
		}
	}
	if rss := value(end, "process_resident_memory_bytes"); runtime.GOOS == "linux" &&
		(float64(minute.RSS) < rss/2 || float64(minute.RSS) > rss*2 || minute.HeapInUse == 0 || minute.HeapInUse > minute.RSS) {
		t.Errorf("the minute's memory: rss %d, heap %d; /metrics says rss %v", minute.RSS, minute.HeapInUse, rss)
	}
	if minute.WritesPerMember != minute.Writes {
		t.Errorf("writes per player %v, want the %v writes a second of the one player", minute.WritesPerMember, minute.Writes)
	}
	if math.IsNaN(minute.TickP50) || minute.TickP50 > minute.TickP99 || !isBound(minute.TickP99) {
		t.Errorf("tick p50 %v, p99 %v: want bounds of the histogram's buckets, p50 <= p99", minute.TickP50, minute.TickP99)
	}

	// The next minute has no joins, no refusals; the gauges are as they are.
	next, err := sum.Next(t0.Add(2 * time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if next.Players != 1 || next.Joins != 0 || next.Leaves != 0 || len(next.Refused) != 0 {
		t.Errorf("the next minute: %+v, want 1 player and nothing else", next)
	}
}

// isBound says whether secs is the bound of a tick bucket, or +Inf.
func isBound(secs float64) bool {
	if math.IsInf(secs, 1) {
		return true
	}
	for _, b := range TickBuckets {
		if b == secs {
			return true
		}
	}
	return false
}

// TestSummaryKeyVals: how the log line writes each figure.
func TestSummaryKeyVals(t *testing.T) {
	for _, c := range []struct {
		s    Summary
		want string
	}{
		{Summary{Players: 12, Spectators: 1, Rooms: 3, Joins: 4, Leaves: 2, TickP50: 0.00025, TickP99: 0.0075, BytesOut: 24_130, StatesOut: 240.4, Writes: 252.2, WritesPerMember: 19.4, Refused: []Count{{"full", 3}, {"timeout", 1}}, RSS: 48_200_000, HeapInUse: 12_123_456},
			"[players 12 spectators 1 rooms 3 joins 4 leaves 2 tick_p50 0.25ms tick_p99 7.5ms bytes_out 24.1kB/s states_out 240/s writes 252/s writes_per_player 19.4/s refused full:3,timeout:1 rss 48.2MB heap 12.1MB]"},
		{Summary{TickP50: math.NaN(), TickP99: math.NaN(), WritesPerMember: math.NaN()},
			"[players 0 spectators 0 rooms 0 joins 0 leaves 0 tick_p50 - tick_p99 - bytes_out 0B/s states_out 0.0/s writes 0.0/s writes_per_player - refused 0 rss - heap -]"},
		{Summary{TickP50: 1, TickP99: math.Inf(1), BytesOut: 999.4, StatesOut: 9.96, Writes: 9.96, WritesPerMember: 0.04},
			"[players 0 spectators 0 rooms 0 joins 0 leaves 0 tick_p50 1000ms tick_p99 +Inf bytes_out 999B/s states_out 10/s writes 10/s writes_per_player 0.0/s refused 0 rss - heap -]"},
		{Summary{BytesOut: 999_500, StatesOut: 0.25},
			"[players 0 spectators 0 rooms 0 joins 0 leaves 0 tick_p50 0ms tick_p99 0ms bytes_out 1.00MB/s states_out 0.2/s writes 0.0/s writes_per_player 0.0/s refused 0 rss - heap -]"},
		{Summary{TickP50: math.NaN(), TickP99: math.NaN(), Admission: &Admission{TickCost: 0.02381, Budget: 0.025, Full: true, Waiting: 312, Headroom: 20, LineIn: 1200, LineRefused: 3, Pace: 41.26, JoinCost: 0.00093}},
			"[players 0 spectators 0 rooms 0 joins 0 leaves 0 tick_p50 - tick_p99 - bytes_out 0B/s states_out 0.0/s writes 0.0/s writes_per_player 0.0/s refused 0 rss - heap - tick_cost 23.81ms budget 25ms full 1 waiting 312 headroom 20 line_in 1200 line_refused 3 pace 41/s join_cost 0.93ms]"},
		{Summary{BytesOut: 1_234_567_890, StatesOut: 0.25},
			"[players 0 spectators 0 rooms 0 joins 0 leaves 0 tick_p50 0ms tick_p99 0ms bytes_out 1.23GB/s states_out 0.2/s writes 0.0/s writes_per_player 0.0/s refused 0 rss - heap -]"},
	} {
		if got := fmt.Sprint(c.s.KeyVals()); got != c.want {
			t.Errorf("%+v:\n got %s\nwant %s", c.s, got, c.want)
		}
	}
}
