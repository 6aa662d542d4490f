package hub

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/internal/cli"
	"gridlag/internal/link"
	"gridlag/protocol"
	"gridlag/server/world"
)

// tunnel is a trace for the class's tests: 50 ms each way, then 1 s
// with nothing through, from 2 s.
func tunnel(t *testing.T) *link.Trace {
	t.Helper()
	tr, err := link.ParseTrace([]byte("gridlag-trace 1\nname tunnel\ntitle A tunnel\nlength 10s\n" +
		"at 0s both delay 50ms jitter 0ms loss 0% \"road\"\n" +
		"at 2s both stall 1s \"tunnel\"\n" +
		"at 3s both delay 20ms \"open sky\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestClassTrace: a teacher of version 6 is told the traces the server
// offers, after the room's Conditions; it names one, and from then on
// every student's network follows it, both ways: an input sent in the
// tunnel reaches the world when the tunnel ends, one sent before it
// 50 ms after it was sent, one after it 20 ms after. Every client of
// version 6 is told the Conditions again at each step, with the trace,
// its step in force and the round trip it sets; a student of version 5
// is told them as version 5 has them (no trace, no step), its network
// following the trace all the same. A trace the server does not offer
// is refused (the network is set without it), and setting figures again
// leaves the trace.
func TestClassTrace(t *testing.T) {
	r, ann, old := lecture(t, Options{Config: world.Config{Rate: 20}, Traces: []*link.Trace{tunnel(t)}}, 5)
	teacher := r.teacherIn("lecture")
	r.advance(100 * ms)
	var offered *protocol.Traces
	for _, m := range teacher.got {
		if o, ok := m.(*protocol.Traces); ok {
			offered = o
		}
	}
	if offered == nil || len(offered.Traces) != 1 || offered.Traces[0] != (protocol.TraceInfo{Name: "tunnel", Title: "A tunnel"}) {
		t.Fatalf("the teacher was offered %+v, want the tunnel", offered)
	}

	teacher.send(&protocol.Conditions{Rate: 20, Trace: "tunnel"})
	set := r.now
	r.advance(50 * ms) // the Conditions come down the network they set
	if got := conditionsOf(ann); got[len(got)-1].Trace != "tunnel" || got[len(got)-1].Step != "road" || got[len(got)-1].LatencyMS != 100 {
		t.Fatalf("ann was told %+v, want the trace, its step road and its 100 ms round trip", got[len(got)-1])
	}
	for _, c := range conditionsOf(old) {
		if c.Trace != "" || c.Step != "" {
			t.Fatalf("the version 5 student was told %+v: a trace it cannot read", c)
		}
	}
	if got := conditionsOf(old); got[len(got)-1].LatencyMS != 100 {
		t.Fatalf("the version 5 student was told %+v, want the trace's 100 ms", got[len(got)-1])
	}
	id := func(p *peer) grid.PlayerID { return p.got[0].(*protocol.Welcome).Player }
	cell := func(p *peer) grid.Pos {
		for _, o := range r.h.rooms["lecture"].core.Overview(r.now, nil) {
			if o.ID == id(p) {
				return o.Pos
			}
		}
		return grid.Pos{}
	}
	reach := func(p *peer, seq uint32, dir grid.Dir) time.Duration {
		start, sent := cell(p), r.now
		p.send(&protocol.Input{Seq: seq, Dir: dir})
		for cell(p) == start {
			r.advance(ms)
			if r.now-sent > 5*time.Second {
				t.Fatalf("input %d never reached the world", seq)
			}
		}
		return r.now - sent
	}
	for _, p := range []*peer{ann, old} {
		if took := reach(p, 1, grid.Right); took != 50*ms {
			t.Errorf("player %d's input on the road took %v, want 50ms", id(p), took)
		}
	}
	r.advance(set + 2500*ms - r.now) // in the tunnel
	before := map[*peer]grid.Pos{ann: cell(ann), old: cell(old)}
	ann.send(&protocol.Input{Seq: 2, Dir: grid.Down})
	old.send(&protocol.Input{Seq: 2, Dir: grid.Down})
	for _, p := range []*peer{ann, old} {
		for cell(p) == before[p] {
			r.advance(ms)
		}
		if r.now != set+3*time.Second {
			t.Errorf("player %d's input sent in the tunnel reached the world at %v, want at its end, 3s", id(p), r.now-set)
		}
	}
	r.advance(100 * ms)
	for _, p := range []*peer{ann, old} {
		if took := reach(p, 3, grid.Left); took != 20*ms {
			t.Errorf("player %d's input under the open sky took %v, want 20ms", id(p), took)
		}
	}
	var steps []string
	for _, c := range conditionsOf(ann) {
		if len(steps) == 0 || steps[len(steps)-1] != c.Step {
			steps = append(steps, c.Step)
		}
	}
	if want := []string{"", "road", "tunnel", "open sky"}; len(steps) != len(want) || steps[1] != "road" || steps[2] != "tunnel" || steps[3] != "open sky" {
		t.Fatalf("ann was told the steps %q, want %q", steps, want)
	}
	if got := conditionsOf(ann); got[len(got)-1].LatencyMS != 40 {
		t.Errorf("under the open sky ann was told a round trip of %d ms, want 40", got[len(got)-1].LatencyMS)
	}

	// Figures again: the trace goes, the network is the figures'.
	teacher.send(&protocol.Conditions{Rate: 20, LatencyMS: 200})
	r.advance(100 * ms)
	if got := conditionsOf(ann); got[len(got)-1].Trace != "" || got[len(got)-1].LatencyMS != 200 {
		t.Fatalf("after figures, ann was told %+v, want 200 ms and no trace", got[len(got)-1])
	}
	if took := reach(ann, 4, grid.Right); took < 100*ms {
		t.Errorf("after figures ann's input took %v, want the figures' 100 ms or more", took)
	}
	// A trace the server does not offer.
	teacher.send(&protocol.Conditions{Rate: 20, LatencyMS: 60, Trace: "starlink"})
	r.advance(100 * ms)
	if got := conditionsOf(ann); got[len(got)-1].Trace != "" || got[len(got)-1].LatencyMS != 60 {
		t.Fatalf("a trace not offered: ann was told %+v, want 60 ms and no trace", got[len(got)-1])
	}
}

// TestTraceFlag: a server offers its teachers the bundled traces, then
// each -trace file, one named like a bundled trace taking its place;
// without -trace, the bundled ones alone; a bad file is refused naming
// the flag; and more than a teacher can be told (protocol.MaxTraces) is
// refused.
func TestTraceFlag(t *testing.T) {
	files := map[string]string{
		"tunnel.trace":   tunnel(t).Text,
		"starlink.trace": strings.Replace(tunnel(t).Text, "name tunnel\ntitle A tunnel", "name starlink\ntitle My own dish", 1),
		"bad.trace":      "gridlag-trace 1\nname bad\n",
	}
	open := func(path string) (io.ReadCloser, error) {
		text, ok := files[path]
		if !ok {
			return nil, fmt.Errorf("open %s: no such file", path)
		}
		return io.NopCloser(strings.NewReader(text)), nil
	}
	parse := func(args ...string) (*Options, error) {
		var o Options
		fs := cli.New("gridlag serve")
		o.RegisterFlags(fs)
		o.RegisterTraceFlag(fs, open)
		_, err := fs.Parse(args)
		return &o, err
	}
	names := func(o *Options) (out []string) {
		for _, tr := range o.Traces {
			out = append(out, tr.Name+": "+tr.Title)
		}
		return out
	}
	o, err := parse()
	if err != nil {
		t.Fatal(err)
	}
	if got := names(o); len(got) != 4 || !strings.HasPrefix(got[3], "wifi-scan: ") {
		t.Fatalf("without -trace the server offers %q, want the 4 bundled traces", got)
	}
	if o, err = parse("-trace", "tunnel.trace", "-trace", "starlink.trace"); err != nil {
		t.Fatal(err)
	}
	got := names(o)
	want := []string{"geo-satellite", "lte-handover", "wifi-scan", "tunnel: A tunnel", "starlink: My own dish"}
	if len(got) != len(want) {
		t.Fatalf("offered %q, want %q", got, want)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Fatalf("offered %q, want %q", got, want)
		}
	}
	if _, err := parse("-trace", "bad.trace"); err == nil || !strings.Contains(err.Error(), "-trace bad.trace: bad.trace: ") {
		t.Fatalf("a bad trace file: %v", err)
	}
	var many []string
	for range protocol.MaxTraces - 3 {
		many = append(many, "-trace", "tunnel.trace")
	}
	if _, err := parse(many...); err != nil {
		t.Fatalf("%d times the same file: %v (it is offered once)", len(many)/2, err)
	}
	for i := range protocol.MaxTraces - 3 {
		name := fmt.Sprintf("t%d", i)
		files[name] = strings.Replace(tunnel(t).Text, "name tunnel", "name "+name, 1)
		many[2*i+1] = name
	}
	if _, err := parse(many...); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%d traces; a teacher is offered at most %d", protocol.MaxTraces+1, protocol.MaxTraces)) {
		t.Fatalf("4 bundled and %d files: %v", protocol.MaxTraces-3, err)
	}
}
