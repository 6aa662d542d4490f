package replay

import (
	"bytes"
	"reflect"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/lab"
	"gridlag/lab/record"
	"gridlag/lab/scenario"
	"gridlag/lab/sim"
)

// wall is a wall clock a test moves by hand.
type wall struct{ t time.Time }

func (w *wall) now() time.Time       { return w.t }
func (w *wall) pass(d time.Duration) { w.t = w.t.Add(d) }

// TestLabReplaysBitForBit: a lab driven live (frames of its clock, keys
// of both players, a toggle, latency, a preset, a lag spike, the server's
// rate and lag compensation, pause, steps, slow motion) and recorded
// replays the same timeline, line for line, and the same messages on
// the wire, with the same views at the end.
func TestLabReplaysBitForBit(t *testing.T) {
	cfg := lab.Default()
	cfg.Players[0].Presses, _ = scenario.ParsePresses("right@0ms,right@100ms")
	cfg.Players[1].Loss = 0.1
	w := &wall{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	l, err := lab.New(cfg, w.now)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	rw, err := record.NewWriter(&buf, LabHeader(cfg, "test"), 0)
	if err != nil {
		t.Fatal(err)
	}
	ps := l.Players()
	live := scenario.NewTimeline(l.World(), []*sim.Client{ps[0].Client, ps[1].Client})
	m := RecordLab(l, rw)
	p1, p2 := m.Player(0), m.Player(1)
	frame := func(d time.Duration) {
		w.pass(d)
		m.Sync()
	}
	frame(16 * ms)
	p2.Press(grid.Up)
	frame(33 * ms)
	p1.SetReconcile(false)
	frame(170 * ms)
	p1.Press(grid.Down)
	p2.SetLatency(300 * ms)
	frame(16 * ms)
	m.SetRate(5)
	m.Pause()
	m.Step()
	m.Step()
	p1.Press(grid.Left) // right after a step, before anything else due then
	m.Step()
	m.SlowDown()
	m.Resume()
	frame(400 * ms)
	p2.NextPreset()
	p1.Spike()
	m.SetLagComp(false)
	p1.Zap()
	frame(2 * time.Second)
	p2.Zap()
	frame(time.Second)
	live.Stop()
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	want := struct {
		lines []scenario.Line
		wires []scenario.Wire
		views [2]grid.Pos
	}{live.Lines, live.Wires, [2]grid.Pos{ps[0].View().Predicted, ps[1].View().Predicted}}

	rec, err := record.Parse(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	r, err := start(rec, Changes{})
	if err != nil {
		t.Fatal(err)
	}
	res := r.finish(rec.End)
	if !reflect.DeepEqual(res.Lines, want.lines) {
		t.Fatalf("replayed %d lines:\n%s\nlive %d lines:\n%s", len(res.Lines), jsonOf(t, res.Lines), len(want.lines), jsonOf(t, want.lines))
	}
	if !reflect.DeepEqual(res.Wires, want.wires) {
		t.Fatalf("replayed %d messages, live %d", len(res.Wires), len(want.wires))
	}
	lr := r.run.(*labRun)
	if got := [2]grid.Pos{lr.l.Players()[0].View().Predicted, lr.l.Players()[1].View().Predicted}; got != want.views || lr.l.Now() != l.Now() {
		t.Fatalf("replay ends at %v with %v, the lab at %v with %v", lr.l.Now(), got, l.Now(), want.views)
	}
	if len(want.lines) < 15 {
		t.Fatalf("only %d lines: the run shows little", len(want.lines))
	}
}

// TestLabRestartEndsTheRecording: a restart (Bksp, the lab's rehearsal)
// starts the lab again from t=0; the recording holds the run before it,
// ends there whole, and replays it, while the lab plays on.
func TestLabRestartEndsTheRecording(t *testing.T) {
	cfg := lab.Default()
	cfg.Players[0].Presses, _ = scenario.ParsePresses("right@0ms,right@100ms")
	w := &wall{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	l, err := lab.New(cfg, w.now)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	rw, err := record.NewWriter(&buf, LabHeader(cfg, "test"), 0)
	if err != nil {
		t.Fatal(err)
	}
	m := RecordLab(l, rw)
	w.pass(600 * ms)
	m.Sync()
	m.Player(1).Press(grid.Up)
	w.pass(400 * ms)
	m.Sync()
	before := l.Now()
	m.Restart()
	if at, ok := m.Restarted(); !ok || at != before {
		t.Fatalf("Restarted() = %v, %v; want %v, true", at, ok, before)
	}
	if l.Now() != 0 {
		t.Fatalf("the lab is at %v after the restart, not 0", l.Now())
	}
	m.Player(1).Press(grid.Down) // after the restart: not recorded
	w.pass(time.Second)
	m.Sync()
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	rec, err := record.Parse(buf.Bytes())
	if err != nil {
		t.Fatalf("the recording ended by a restart does not read: %v", err)
	}
	if rec.End != before {
		t.Fatalf("the recording ends at %v, the restart came at %v", rec.End, before)
	}
	for e := range rec.Events() {
		if e.Kind == record.Press && e.Arg == int64(grid.Down) {
			t.Fatal("a press after the restart is in the recording")
		}
	}
	r, err := start(rec, Changes{})
	if err != nil {
		t.Fatal(err)
	}
	r.finish(rec.End)
	if got := r.run.(*labRun).l.Players()[1].View().Predicted; got.Y != cfg.Players[1].Start.Y-1 {
		t.Fatalf("replayed, Player 2 ends at %v: its press up before the restart is lost", got)
	}
}
