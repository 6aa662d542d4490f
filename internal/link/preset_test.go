package link

import (
	"strings"
	"testing"
	"time"

	"gridlag/internal/doctest"
)

// TestPresetsByName: the three named conditions are found by name with the
// notes' figures, and a wrong name is refused with the names there are.
func TestPresetsByName(t *testing.T) {
	for _, want := range []Preset{
		{Name: "good", Delay: 40 * ms, Spread: 6 * ms, Loss: 0.002},
		{Name: "average", Delay: 170 * ms, Spread: 45 * ms, Loss: 0.02},
		{Name: "poor", Delay: 300 * ms, Spread: 84 * ms, Loss: 0.04},
	} {
		if got, err := PresetNamed(want.Name); err != nil || got != want {
			t.Fatalf("PresetNamed(%q) = %+v, %v; want %+v", want.Name, got, err, want)
		}
	}
	_, err := PresetNamed("lossy")
	if err == nil {
		t.Fatal("an unknown preset was accepted")
	}
	for _, s := range []string{`"lossy"`, "good", "average", "poor"} {
		if !strings.Contains(err.Error(), s) {
			t.Fatalf("error %q does not mention %s", err, s)
		}
	}
}

// TestPresetSetsTheLink: applying a preset gives each one-way message
// Delay ± Spread (Delay on average) and the preset's loss, with the
// retransmission timeout that follows.
func TestPresetSetsTheLink(t *testing.T) {
	p, _ := PresetNamed("poor")
	l := New[int, int](0, 0, 2)
	l.Apply(p)
	if l.RTT() != 432*ms || l.Jitter() != 168*ms || l.Loss() != 0.04 {
		t.Fatalf("poor gives rtt %v jitter %v loss %v, want 432ms, 168ms, 0.04", l.RTT(), l.Jitter(), l.Loss())
	}
	if l.Up.RTO() != 1104*ms || l.Down.RTO() != 1104*ms {
		t.Fatalf("poor RTO up %v down %v, want 432ms + 4 × 168ms", l.Up.RTO(), l.Down.RTO())
	}
	l.SetLoss(0)
	const n = 2000
	var sum time.Duration
	for i := range n {
		now := time.Duration(i) * time.Second
		d := l.Down.Send(now, i) - now
		if d < 216*ms || d > 384*ms {
			t.Fatalf("one-way delay %v outside 300 ± 84 ms", d)
		}
		sum += d
	}
	if mean := sum / n; mean < 295*ms || mean > 305*ms {
		t.Fatalf("mean one-way delay %v, want about 300ms", mean)
	}
	good, _ := PresetNamed("good")
	l.Apply(good)
	if l.Up.RTO() != MinRTO {
		t.Fatalf("good RTO %v, want the 200ms floor (68ms + 4 × 12ms is less)", l.Up.RTO())
	}
}

// TestPresetSaidOnce: a preset is said one way everywhere: in the link's
// terms (the round trip and the jitter a slider shows, which Apply sets)
// and lightyear's one-way figures they come from; the documentation
// (the lab's flags) says each preset as String does.
func TestPresetSaidOnce(t *testing.T) {
	poor, _ := PresetNamed("poor")
	if got, want := poor.String(), "poor: 432ms round trip ±168ms, 4% loss (300±84ms one way)"; got != want {
		t.Errorf("poor says %q, want %q", got, want)
	}
	for _, p := range Presets() {
		if !doctest.Says(t, "`"+p.String()+"`") {
			t.Errorf("the documentation does not say the preset as %q", p.String())
		}
		// The link's terms give back lightyear's: each way half the round
		// trip plus 0 to the jitter, Delay ± Spread.
		if lo, hi := p.RTT()/2, p.RTT()/2+p.Jitter(); lo != p.Delay-p.Spread || hi != p.Delay+p.Spread {
			t.Errorf("%s: one way %v to %v, not %v±%v", p.Name, lo, hi, p.Delay, p.Spread)
		}
	}
}
