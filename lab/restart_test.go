package lab

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/lab/scenario"
)

// TestPausedStartAndRestart: a lab started paused (-paused) stays at
// t=0, its script unplayed, whatever the wall clock does; run, it plays
// the script; Restart brings it back to t=0, paused again, and the same
// script plays the same way, with the toggles, the link and the server's
// switches as they were changed meanwhile.
func TestPausedStartAndRestart(t *testing.T) {
	cfg := Default()
	cfg.Rate, cfg.Paused = 0, true
	cfg.Players[0].Presses, _ = scenario.ParsePresses("right@0ms,right@100ms")
	l, w := newLab(t, cfg)
	w.pass(time.Hour)
	l.Sync()
	if l.Now() != 0 || !l.Paused() || len(l.Players()[0].View().Pending) != 0 {
		t.Fatalf("started paused, an hour later: t=%v, paused %v, pending %v", l.Now(), l.Paused(), seqs(l.Players()[0]))
	}
	run := func() (first []string) {
		l.Resume()
		w.pass(400 * ms)
		l.Sync()
		v := l.Players()[0].View()
		return []string{v.Predicted.String(), v.Server.String(), fmtSeqs(seqs(l.Players()[0]))}
	}
	once := run()
	if want := []string{"(12,10)", "(12,10)", "[]"}; !reflect.DeepEqual(once, want) {
		t.Fatalf("the script ran to %v, want %v", once, want)
	}
	p1 := l.Players()[0]
	p1.SetReconcile(false)
	p1.SetLatency(500 * ms)
	l.SetLagComp(false)
	l.SetRate(5)
	l.SetPings(false)
	l.Restart()
	if l.Now() != 0 || !l.Paused() || len(p1.View().Pending) != 0 || l.Caption() != "" {
		t.Fatalf("restarted: t=%v paused %v pending %v caption %q", l.Now(), l.Paused(), seqs(p1), l.Caption())
	}
	v := l.Players()[0].View()
	if v.Reconcile || !v.Predict || v.Latency != 500*ms || l.LagComp() || l.Rate() != 5 || l.Pings() || v.Predicted != (grid.Pos{X: 10, Y: 10}) {
		t.Fatalf("restarted with reconcile %v, latency %v, lagcomp %v, rate %d, pings %v, at %v", v.Reconcile, v.Latency, l.LagComp(), l.Rate(), l.Pings(), v.Predicted)
	}
	l.Resume()
	w.pass(100 * ms)
	l.Sync()
	if got := seqs(p1); !reflect.DeepEqual(got, []uint32{1, 2}) {
		t.Fatalf("100 ms after the restart the script sent %v, want #1 and #2 again", got)
	}
}

// TestRestartKeepsAPreset: a player on a link preset keeps it over a
// restart, and cycling past the last preset gives it its own link back,
// as it was before the first.
func TestRestartKeepsAPreset(t *testing.T) {
	l, _ := newLab(t, Default())
	p := l.Players()[1]
	p.NextPreset()
	if err := l.Restart(); err != nil {
		t.Fatal(err)
	}
	if p.Preset() != "good" || p.View().Latency != 68*ms {
		t.Fatalf("restarted on %q with %v", p.Preset(), p.View().Latency)
	}
	p.NextPreset()
	p.NextPreset()
	p.NextPreset()
	if p.Preset() != "" || p.View().Latency != 150*ms {
		t.Fatalf("past the last preset: %q with %v, want its own 150ms", p.Preset(), p.View().Latency)
	}
}

func fmtSeqs(s []uint32) string { return fmt.Sprint(s) }

// TestRestartKeepsTheInstruments: what the screen's instruments set on a
// player's client, smoothing of corrections and asking the server for
// its stages of the inputs (the waterfall open), stays set in the fresh
// client a restart brings: the waterfall of the script played again has
// the server's stages, its corrections still slide.
func TestRestartKeepsTheInstruments(t *testing.T) {
	cfg := Default()
	cfg.Rate, cfg.Paused = 0, true
	cfg.Players[0].Presses, _ = scenario.ParsePresses("right@0ms")
	l, w := newLab(t, cfg)
	p1 := l.Players()[0]
	p1.SetSmooth(true)
	p1.SetTrace(true)
	l.Restart()
	var ins client.Instruments
	p1.Instruments(&ins)
	if !p1.View().Smooth || !ins.Tracing {
		t.Fatalf("restarted: smoothing %v, tracing %v, want both kept on", p1.View().Smooth, ins.Tracing)
	}
	l.Resume()
	w.pass(400 * ms)
	l.Sync()
	p1.Instruments(&ins)
	if len(ins.Lives) == 0 || !ins.Lives[len(ins.Lives)-1].Traced {
		t.Fatalf("after the restart #1's life has no server stages: %+v", ins.Lives)
	}
}
