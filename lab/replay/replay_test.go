package replay

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/lab/record"
	"gridlag/lab/scenario"
)

const ms = time.Millisecond

// recordScenario writes cfg as a recording and reads it back.
func recordScenario(t *testing.T, cfg scenario.Config) *record.Recording {
	t.Helper()
	h, events := ScenarioHeader(cfg, "test")
	var buf bytes.Buffer
	w, err := record.NewWriter(&buf, h, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range events {
		if err := w.Write(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(0); err != nil {
		t.Fatal(err)
	}
	rec, err := record.Parse(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

func jsonOf(t *testing.T, lines []scenario.Line) string {
	t.Helper()
	var b strings.Builder
	if err := scenario.WriteJSON(&b, lines); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestScenarioReplaysByteForByte: a scenario's recording, played back,
// prints the timeline the scenario printed, byte for byte: the article's
// case, and one with loss, a seed and a rival.
func TestScenarioReplaysByteForByte(t *testing.T) {
	lossy := scenario.Default()
	lossy.Player.Loss, lossy.Seed = 0.2, 3
	lossy.Player.Presses, _ = scenario.ParsePresses("right@0ms,right@100ms,down@300ms,zap@400ms")
	lossy.Second = &scenario.Player{Name: "rival", Start: grid.Pos{X: 12, Y: 10}, Latency: 50 * ms, Loss: 0.2}
	lossy.Second.Presses, _ = scenario.ParsePresses("left@0ms,up@150ms")
	for _, cfg := range []scenario.Config{scenario.Default(), lossy} {
		want, err := scenario.Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Play(recordScenario(t, cfg), Changes{})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := jsonOf(t, res.Lines), jsonOf(t, want); got != want {
			t.Fatalf("replayed:\n%s\nthe scenario printed:\n%s", got, want)
		}
	}
}

// TestReconcileOffWhatIf: the article's recording replayed with
// reconciliation off jumps back to 11 at t=250, and that line is marked
// as differing from the original, which stayed at 12.
func TestReconcileOffWhatIf(t *testing.T) {
	rec := recordScenario(t, scenario.Default())
	off := false
	orig, _ := Play(rec, Changes{})
	changed, err := Play(rec, Changes{Reconcile: &off})
	if err != nil {
		t.Fatal(err)
	}
	diffs := Compare(&orig.Result, &changed.Result, Changes{Reconcile: &off}.String())
	var at250 *scenario.Line
	for i, l := range changed.Lines {
		if l.TMS == 250 && l.Player == "you" && l.Input == nil { // an input's life is no moment of its own
			at250 = &changed.Lines[i]
		}
	}
	if at250 == nil || at250.Client != [2]int{11, 10} || !at250.Differs || at250.Original == nil || at250.Original.Client != [2]int{12, 10} {
		t.Fatalf("at 250 ms: %+v", at250)
	}
	if len(diffs) != 1 || diffs[0].String() != "t=250 ms: original (12,10), now (11,10): reconciliation off" {
		t.Fatalf("differences %v", diffs)
	}
	for _, l := range changed.Lines {
		if l.TMS != 250 && l.Differs {
			t.Fatalf("marked as differing: %+v", l)
		}
	}
}
