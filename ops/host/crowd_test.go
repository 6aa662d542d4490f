package host

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"net"
	"strings"
	"testing"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"gridlag/client"
	"gridlag/client/tcp"
	"gridlag/ops/metrics"
	"gridlag/server"
	"gridlag/server/admit/admittest"
)

// TestTeacherCrowdsTheRoom: a teacher asks for bots in its room; the
// server runs them in its own process, and they join the room as
// players; a step past the room's cap gives what it holds and names the
// cap; the teacher is told the server's counters every second, and those
// are the very figures of the /metrics text of the registry's snapshots
// they were read from (within 5 %: the fixed point's rounding); no bots
// leaves none.
func TestTeacherCrowdsTheRoom(t *testing.T) {
	c := Config{}
	c.Server.Hub.TeachBots = 1000
	c.Server.Hub.RoomPlayers = 25
	c.Server.Hub.Config.Rate = 20
	h, err := Start(c)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	teach := func(ctx context.Context, _ string) (net.Conn, error) { return h.Server().DialTeacher(ctx, server.Own) }
	ctx, cancel := context.WithTimeout(context.Background(), admittest.Hung)
	defer cancel()
	w, err := tcp.ConnectSpectator(ctx, h.LocalAddr(), tcp.Options{Options: client.Options{Name: "hopper", Room: "3b", Teach: true}, Dial: teach})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	crowd := func() client.Crowd {
		if c := w.View().Crowd; c != nil {
			return *c
		}
		return client.Crowd{}
	}
	admittest.Eventually(t, func() bool { return crowd().Most == 25 }, func() string { return fmt.Sprintf("the teacher's crowd: %+v, want 25 at most", crowd()) })

	w.Crowd(10, false)
	admittest.Eventually(t, func() bool { c := crowd(); return c.Given == 10 && c.Bots == 10 },
		func() string { return fmt.Sprintf("the teacher's crowd: %+v, want 10 bots in", crowd().Crowded) })
	w.Crowd(100, true)
	admittest.Eventually(t, func() bool { c := crowd(); return c.Given == 25 && c.Bots == 25 && c.AreasOff },
		func() string {
			return fmt.Sprintf("the teacher's crowd: %+v, want 25 bots in, areas off", crowd().Crowded)
		})
	if note := crowd().Note; !strings.Contains(note, "100 bots asked, 25 given") || !strings.Contains(note, "-room-players") {
		t.Errorf("the note: %q, want the cap named", note)
	}

	// The counters the teacher was told are what the /metrics text of
	// the snapshots they came from says.
	var last CountersReading
	admittest.Eventually(t, func() bool {
		var ok bool
		last, ok = h.LastCounters()
		c := crowd().Counters
		if !ok || c == nil {
			return false
		}
		told := *c
		told.BudgetNS = last.Counters.BudgetNS // the hub's word, per room
		return told == last.Counters && last.Counters.Players == 25 && last.Counters.Ticks >= 10
	}, func() string {
		return fmt.Sprintf("the teacher's counters %+v, the host's last %+v", crowd().Counters, last.Counters)
	})
	a, b := series(t, last.Start), series(t, last.End)
	secs := last.End.At.Sub(last.Start.At).Seconds()
	got := last.Counters
	got.BudgetNS = crowd().Counters.BudgetNS
	for _, f := range []struct {
		what      string
		got, want float64
	}{
		{"players", float64(got.Players), b["gridlag_players"]},
		{"ticks", float64(got.Ticks), b["gridlag_tick_duration_seconds_count"] - a["gridlag_tick_duration_seconds_count"]},
		{"tick mean (ns)", float64(got.TickMeanNS), 1e9 * (b["gridlag_tick_duration_seconds_sum"] - a["gridlag_tick_duration_seconds_sum"]) / (b["gridlag_tick_duration_seconds_count"] - a["gridlag_tick_duration_seconds_count"])},
		{"writes/s", float64(got.Writes), (b["gridlag_socket_writes_total"] - a["gridlag_socket_writes_total"]) / secs},
		{"bytes/player/s", float64(got.BytesPerPlayer), (b["gridlag_bytes_out_total"] - a["gridlag_bytes_out_total"]) / secs / b["gridlag_players"]},
		{"messages/State (1/1000)", float64(got.MessagesPerStateMilli), 1e3 * (b["gridlag_frames_out_total"] - a["gridlag_frames_out_total"]) / (b["gridlag_states_sent_total"] - a["gridlag_states_sent_total"])},
		{"CPU (1/10000 core)", float64(got.CPUPermyriad), 1e4 * (b["process_cpu_seconds_total"] - a["process_cpu_seconds_total"]) / secs},
		{"RSS", float64(got.RSS), b["process_resident_memory_bytes"]},
	} {
		t.Logf("%s: the teacher's %.6g, /metrics %.6g", f.what, f.got, f.want)
		if math.Abs(f.got-f.want) > 0.05*math.Abs(f.want)+1 { // +1: the fixed point's last digit
			t.Errorf("%s: the teacher was told %.6g, /metrics says %.6g", f.what, f.got, f.want)
		}
	}
	if got.BudgetNS != 50e6 {
		t.Errorf("the tick budget: %d ns, want 50 ms at 20 updates a second", got.BudgetNS)
	}

	w.Crowd(0, false)
	admittest.Eventually(t, func() bool { c := crowd(); return c.Given == 0 && c.Bots == 0 && !c.AreasOff },
		func() string { return fmt.Sprintf("the teacher's crowd: %+v, want no bots", crowd().Crowded) })
}

// series parses a snapshot's /metrics text: each series of one sample by
// its name, a histogram's as name_count and name_sum.
func series(t *testing.T, snap metrics.Snapshot) map[string]float64 {
	t.Helper()
	var text bytes.Buffer
	if err := snap.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(&text)
	if err != nil {
		t.Fatal(err)
	}
	s := map[string]float64{}
	for name, f := range families {
		if len(f.GetMetric()) != 1 {
			continue
		}
		m := f.GetMetric()[0]
		switch {
		case m.Counter != nil:
			s[name] = m.GetCounter().GetValue()
		case m.Gauge != nil:
			s[name] = m.GetGauge().GetValue()
		case m.Histogram != nil:
			s[name+"_count"] = float64(m.GetHistogram().GetSampleCount())
			s[name+"_sum"] = m.GetHistogram().GetSampleSum()
		}
	}
	return s
}
