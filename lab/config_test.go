package lab

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/lab/scenario"
)

// TestDefaultLab: the defaults: Player 1 at (10,10) with a 250 ms
// round trip, Player 2 at (14,10) with 150 ms, 3 updates a second, every
// toggle on; the server's board lists both, Player 1 first, with their
// round trips once measured, and the tick counts up at the rate.
func TestDefaultLab(t *testing.T) {
	l, w := newLab(t, Default())
	p1, p2 := l.Players()[0], l.Players()[1]
	v1, v2 := p1.View(), p2.View()
	if v1.Predicted != (grid.Pos{X: 10, Y: 10}) || v1.Latency != 250*ms || v2.Predicted != (grid.Pos{X: 14, Y: 10}) || v2.Latency != 150*ms {
		t.Fatalf("Player 1 at %v with %v, Player 2 at %v with %v", v1.Predicted, v1.Latency, v2.Predicted, v2.Latency)
	}
	if !v1.Predict || !v1.Reconcile || !v1.Interpolate || l.Rate() != 3 || l.Speed() != Full || l.Paused() || l.Map() == nil {
		t.Fatalf("toggles %v %v %v, rate %d, speed %v, paused %v", v1.Predict, v1.Reconcile, v1.Interpolate, l.Rate(), l.Speed(), l.Paused())
	}
	tick := l.Tick()
	w.pass(2 * time.Second)
	l.Sync()
	if n := l.Tick() - tick; n != 6 {
		t.Fatalf("%d ticks in two seconds at 3 Hz", n)
	}
	sp := l.Overview().Players
	if len(sp) == 2 && sp[0].Name == "Player 2" { // listed by ID: Player 2 joined first
		sp[0], sp[1] = sp[1], sp[0]
	}
	if len(sp) != 2 || sp[0].Name != "Player 1" || sp[1].Name != "Player 2" || sp[0].Color == sp[1].Color {
		t.Fatalf("the server's board lists %+v", sp)
	}
	if !sp[0].HasRTT || sp[0].RTT != 250*ms || sp[1].RTT != 150*ms || sp[0].Pos != (grid.Pos{X: 10, Y: 10}) {
		t.Fatalf("the server's board lists %+v; want round trips 250ms and 150ms", sp)
	}
	l.SetRate(0)
	p2.Press(grid.Left)
	w.pass(150 * ms)
	l.Sync()
	if v := p2.View(); v.LastAck != 1 {
		t.Fatalf("at rate 0 Player 2's press is acknowledged after %v? ack #%d", 150*ms, v.LastAck)
	}
}

// TestScriptsPlayOnTheClock: scripted presses fire at their virtual times
// as the clock runs: at 1/10 speed, #2 (at 100 ms) goes after one wall
// second, not before.
func TestScriptsPlayOnTheClock(t *testing.T) {
	cfg := Default()
	cfg.Speed = Tenth
	cfg.Players[0].Presses, _ = scenario.ParsePresses("right@0ms,right@100ms")
	cfg.Players[1].Presses, _ = scenario.ParsePresses("down@50ms")
	l, w := newLab(t, cfg)
	p1, p2 := l.Players()[0], l.Players()[1]
	l.Sync()
	if got := seqs(p1); !reflect.DeepEqual(got, []uint32{1}) || len(p2.View().Pending) != 0 {
		t.Fatalf("at the start Player 1 has sent %v, Player 2 %d", got, len(p2.View().Pending))
	}
	w.pass(999 * ms)
	l.Sync()
	if got := seqs(p1); !reflect.DeepEqual(got, []uint32{1}) || len(p2.View().Pending) != 1 {
		t.Fatalf("at %v Player 1 has sent %v, Player 2 %d", l.Now(), got, len(p2.View().Pending))
	}
	w.pass(ms)
	l.Sync()
	if got := seqs(p1); !reflect.DeepEqual(got, []uint32{1, 2}) || p1.View().Predicted != (grid.Pos{X: 12, Y: 10}) {
		t.Fatalf("at 100ms Player 1 has sent %v and sees %v", got, p1.View().Predicted)
	}
}

// TestPlayerConfig: a preset sets a player's latency, jitter and loss; a
// loss and the toggles come from the flags; bad configurations are
// refused with the reason.
func TestPlayerConfig(t *testing.T) {
	cfg := Default()
	cfg.Players[0].Loss = 0.1
	cfg.Players[0].Predict, cfg.Players[0].Reconcile, cfg.Players[0].Interpolate = false, false, false
	cfg.Players[1].Preset = "poor"
	l, _ := newLab(t, cfg)
	p1, p2 := l.Players()[0], l.Players()[1]
	if v := p1.View(); p1.Loss() != 0.1 || v.Predict || v.Reconcile || v.Interpolate {
		t.Fatalf("Player 1: loss %v, toggles %v %v %v", p1.Loss(), v.Predict, v.Reconcile, v.Interpolate)
	}
	if v := p2.View(); v.Latency != 432*ms || v.Jitter != 168*ms || p2.Loss() != 0.04 {
		t.Fatalf("Player 2 on the poor preset: %v ± %v, loss %v", v.Latency, v.Jitter, p2.Loss())
	}
	for _, c := range []struct {
		change func(*Config)
		want   string
	}{
		{func(c *Config) { c.Players[1].Start = c.Players[0].Start }, "same cell"},
		{func(c *Config) { c.Players[0].Start = grid.Pos{} }, "Player 1's start (0,0) is a wall"},
		{func(c *Config) { c.Players[1].Preset = "lossy" }, `Player 2: link: no preset named "lossy"`},
		{func(c *Config) { c.Players[0].Loss = 2 }, "Player 1: latency"},
		{func(c *Config) { c.Rate = -1 }, "update rate"},
	} {
		cfg := Default()
		c.change(&cfg)
		_, err := New(cfg, time.Now)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got error %v, want one saying %q", err, c.want)
		}
	}
}
