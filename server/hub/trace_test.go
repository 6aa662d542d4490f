package hub

import (
	"testing"
	"time"

	"gridlag/grid"
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
	r := newRig(t, Options{Config: world.Config{Rate: 20}, Traces: []*link.Trace{tunnel(t)}})
	r.h.PingEvery(0, 0)
	ann := r.dial(host(1))
	ann.join("ann", "lecture")
	old := r.dial(host(2))
	old.send(&protocol.Hello{Version: 5, Name: "old", Room: "lecture"})
	old.next("old's Welcome")
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
