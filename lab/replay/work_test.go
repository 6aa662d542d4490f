package replay

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/lab"
	"gridlag/lab/record"
	"gridlag/lab/scenario"
)

// TestTooMuchWorkIsRefused: a recording whose run would look at more
// than MaxWork states and actions is refused before it is played: a
// scenario of a day at 60 Hz, a scenario of more presses than that, a
// lab whose server was set to a million updates a second for a day.
func TestTooMuchWorkIsRefused(t *testing.T) {
	day := scenario.Default()
	day.Rate, day.Until = 60, 24*time.Hour
	many := scenario.Default()
	many.Player.Presses = make([]scenario.Press, MaxWork+1)
	for i := range many.Player.Presses {
		many.Player.Presses[i] = scenario.Press{At: time.Duration(i) * time.Microsecond, Dir: grid.Right}
	}
	var buf bytes.Buffer
	w, err := record.NewWriter(&buf, LabHeader(lab.Default(), "test"), 0)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(record.Event{Kind: record.Rate, Who: record.Nobody, Arg: 1_000_000})
	w.Write(record.Event{At: 24 * time.Hour, Kind: record.Sync, Who: record.Nobody})
	w.Close(24 * time.Hour)
	fast, err := record.Parse(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		rec  *record.Recording
		says string
	}{
		{recordScenario(t, day), "a replay plays at most 1000000 states and actions: its run would take 5184002 states and presses"},
		{recordScenario(t, many), "a replay plays at most 1000000 states and actions: its run would take 1000001 presses"},
		{fast, "a replay plays at most 1000000 states and actions: its run would take 172800000000 states and actions"},
	} {
		_, err := Play(c.rec, Changes{})
		if !errors.Is(err, ErrTooMuchWork) || len(err.Error()) < len(c.says) || err.Error()[:len(c.says)] != c.says {
			t.Errorf("%s: %v, want %q", c.rec.Header.Kind, err, c.says)
		}
		if _, err := NewModel(c.rec, "a.rec", Changes{}, time.Now, lab.Full); !errors.Is(err, ErrTooMuchWork) {
			t.Errorf("%s on the screen: %v", c.rec.Header.Kind, err)
		}
	}
}

// TestLongRecordingSeeksStepsAndMarks: a long recording (a scenario of
// 1,000 presses over three minutes on a lossy link at 20 Hz, replayed with
// reconciliation off) plays on the screen's model as a short one does: a
// seek back lands on the same views as playing there from the start, a
// step goes to the next moment, and the marks (corrections, losses) are
// reached in order; the recording holds its file's bytes, not an event
// each.
func TestLongRecordingSeeksStepsAndMarks(t *testing.T) {
	cfg := scenario.Default()
	cfg.Rate, cfg.Seed, cfg.Player.Loss = 20, 7, 0.05
	dirs := []grid.Dir{grid.Right, grid.Down, grid.Left, grid.Up}
	cfg.Player.Presses = nil
	for i := range 1000 {
		cfg.Player.Presses = append(cfg.Player.Presses, scenario.Press{At: time.Duration(i) * 200 * ms, Dir: dirs[i/3%4]})
	}
	rec := recordScenario(t, cfg)
	if rec.Count != 1000 || rec.Size > 1000*8+4096 {
		t.Fatalf("%d events in %d bytes", rec.Count, rec.Size)
	}
	off := false
	c := Changes{Reconcile: &off}
	m, err := NewModel(rec, "a.rec", c, time.Now, lab.Full)
	if err != nil {
		t.Fatal(err)
	}
	if m.End() < 3*time.Minute {
		t.Fatalf("the run ends at %v", m.End())
	}
	mid := 2*time.Minute + 123*ms
	m.Seek(m.End())
	m.Seek(mid) // back: played again from the start
	back := m.Panes()
	fresh, err := NewModel(rec, "a.rec", c, time.Now, lab.Full)
	if err != nil {
		t.Fatal(err)
	}
	fresh.Seek(mid)
	if m.Now() != mid || !reflect.DeepEqual(back, fresh.Panes()) {
		t.Fatalf("at %v after a seek back, the views differ from a straight play", mid)
	}
	at := m.Now()
	m.Step()
	if m.Now() <= at || m.Now()-at > time.Second {
		t.Fatalf("a step from %v went to %v", at, m.Now())
	}
	for _, kind := range []string{"correction", "loss"} {
		m.Seek(0)
		n, last := 0, time.Duration(0)
		for m.SeekNext(kind) {
			if m.Now() <= last {
				t.Fatalf("%s marks out of order: %v after %v", kind, m.Now(), last)
			}
			last = m.Now()
			n++
		}
		if n < 3 || last < 150*time.Second {
			t.Fatalf("%d %s marks, the last at %v", n, kind, last)
		}
	}
}
