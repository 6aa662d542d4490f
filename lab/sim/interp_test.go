package sim

import (
	"testing"
	"time"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/server/world"
)

// history records the server's cell of one player at every update tick.
type history struct {
	times []time.Duration
	cells []grid.Pos
}

// at applies the client's drawing rule to the recorded history: the two
// states around rt, each axis interpolated and rounded, halves to the later.
func (h history) at(rt time.Duration) grid.Pos {
	i := len(h.times) - 1
	for i >= 0 && h.times[i] > rt {
		i--
	}
	if i < 0 {
		return h.cells[0]
	}
	if i == len(h.times)-1 {
		return h.cells[i]
	}
	a, b := h.cells[i], h.cells[i+1]
	if a == b {
		return a
	}
	if 2*(rt-h.times[i]) >= h.times[i+1]-h.times[i] {
		return b
	}
	return a
}

func other(v client.View, id grid.PlayerID) (grid.Pos, bool) {
	for _, o := range v.Others {
		if o.ID == id {
			return o.Pos, true
		}
	}
	return grid.Pos{}, false
}

// TestOthersFollowTheServerDelayBehind: a walker moves right every 100 ms;
// an observer 100 ms (round trip) away, with jitter, draws it. At every
// millisecond the drawn cell is the server's history at the render time,
// and the render time is the server's clock minus the one-way latency
// (plus at most the jitter) minus the interpolation delay.
func TestOthersFollowTheServerDelayBehind(t *testing.T) {
	for _, jitter := range []time.Duration{0, 30 * ms} {
		w := New(world.Config{Rate: 20})
		observer := w.Join("obs", client.Options{Latency: 100 * ms, Jitter: jitter, Seed: 5})
		walker := w.Join("walker", client.Options{})
		wid := walker.View().Me
		var h history
		record := func() {
			if p, ok := w.Position(walker); ok {
				h.times = append(h.times, w.Now())
				h.cells = append(h.cells, p)
			}
		}
		// Align to a tick and record the history at every tick.
		w.AdvanceTo((w.Now()/(50*ms) + 1) * 50 * ms)
		record()
		start := w.Now()
		checked := 0
		for step := time.Duration(1); step <= 3000; step++ {
			now := start + step*ms
			if step%100 == 1 && step < 2000 {
				walker.Press(grid.Right)
			}
			w.AdvanceTo(now)
			if now%(50*ms) == 0 {
				record()
			}
			v := observer.View()
			if v.RenderTime <= h.times[0] {
				continue
			}
			drawn, ok := other(v, wid)
			if !ok {
				t.Fatalf("jitter %v, t=%v: walker not drawn", jitter, now)
			}
			if want := h.at(v.RenderTime); drawn != want {
				t.Fatalf("jitter %v, t=%v: walker drawn at %v, server history at render time %v says %v", jitter, now, drawn, v.RenderTime, want)
			}
			behind := now - v.RenderTime - v.InterpDelay
			if behind < 50*ms || behind > 50*ms+jitter {
				t.Fatalf("jitter %v: render time is %v behind the clock plus the delay, want the one-way 50ms (+ up to %v)", jitter, behind, jitter)
			}
			checked++
		}
		if checked < 2500 {
			t.Fatalf("only %d moments checked", checked)
		}
		if p, _ := other(observer.View(), wid); p.X < 25 {
			t.Fatalf("walker drawn at %v at the end, it walked to x>=25", p)
		}
	}
}

// TestInterpolationDelayAdapts: late states grow the delay, on-time states
// shrink it back.
func TestInterpolationDelayAdapts(t *testing.T) {
	w := New(world.Config{Rate: 20})
	obs := w.Join("obs", client.Options{Latency: 100 * ms})
	w.Join("walker", client.Options{})
	w.Advance(2 * time.Second)
	base := obs.View().InterpDelay
	if base != 50*ms+client.InterpStep {
		t.Fatalf("default delay %v, want one update interval (50ms) plus one frame", base)
	}
	obs.SetJitter(200 * ms)
	w.Advance(3 * time.Second)
	grown := obs.View().InterpDelay
	if grown <= base+3*client.InterpStep {
		t.Fatalf("delay %v after 3 s of 200 ms jitter, want it grown well above %v", grown, base)
	}
	obs.SetJitter(0)
	w.Advance(30 * time.Second)
	shrunk := obs.View().InterpDelay
	if shrunk >= grown || shrunk > base+client.InterpStep {
		t.Fatalf("delay %v after 30 s on time, want it back near %v (was %v)", shrunk, base, grown)
	}
}

// TestInterpolationOffShowsLatest: with interpolation off, others are drawn
// at the latest state's cell as soon as it arrives; with it on, they are
// drawn behind. At 3 Hz, with 50 ms each way, the state of the tick at t
// arrives at t+50ms.
func TestInterpolationOffShowsLatest(t *testing.T) {
	// The walker starts at (5,14), with row 14 open to its right up to x=17.
	w := New(world.Config{Rate: 3, Spawns: []grid.Pos{{X: 10, Y: 12}, {X: 5, Y: 14}}})
	off := w.Join("off", client.Options{Latency: 100 * ms, NoInterpolate: true})
	on := w.Join("on", client.Options{Latency: 100 * ms})
	walker := w.Join("walker", client.Options{})
	id := walker.View().Me
	w.Advance(time.Second) // everyone has heard of everyone
	interval := time.Second / 3
	var h history // the walker's cell at each tick
	record := func() {
		p, _ := w.Position(walker)
		h.times = append(h.times, w.Now()/interval*interval)
		h.cells = append(h.cells, p)
	}
	record()
	start := w.Now()
	behind := false
	for step := time.Duration(1); step <= 3000; step++ {
		now := start + step*ms
		if step%100 == 0 && step <= 1200 {
			walker.Press(grid.Right)
		}
		tickBefore := w.Now() / interval
		w.AdvanceTo(now)
		if now/interval > tickBefore {
			record()
		}
		// The latest state to have arrived: the last tick 50 ms ago or more.
		i := len(h.times) - 1
		for i > 0 && h.times[i]+50*ms > now {
			i--
		}
		if got, _ := other(off.View(), id); got != h.cells[i] {
			t.Fatalf("t=%v: drawn at %v with interpolation off, the latest state (tick %v) says %v", now-start, got, h.times[i], h.cells[i])
		}
		if got, _ := other(on.View(), id); got.X < h.cells[i].X {
			behind = true
		}
	}
	if moved := h.cells[len(h.cells)-1].X - h.cells[0].X; moved != 12 {
		t.Fatalf("the walker moved %d cells, want 12", moved)
	}
	if !behind {
		t.Fatal("with interpolation on the walker was never drawn behind the latest state")
	}
}

// TestLoneplayerUnderJitterIsNeverCorrected: reconciliation means a lone
// player is never corrected, whatever the latency and jitter.
func TestLonePlayerUnderJitterIsNeverCorrected(t *testing.T) {
	for _, tc := range []struct {
		rate            int
		latency, jitter time.Duration
	}{{20, 250 * ms, 80 * ms}, {3, 500 * ms, 150 * ms}, {0, 100 * ms, 50 * ms}, {60, 1000 * ms, 250 * ms}} {
		w := New(world.Config{Rate: tc.rate})
		c := w.Join("solo", client.Options{Latency: tc.latency, Jitter: tc.jitter, Seed: 9})
		dirs := []grid.Dir{grid.Right, grid.Right, grid.Down, grid.Left, grid.Left, grid.Up}
		for i := 0; i < 300; i++ {
			c.Press(dirs[i%len(dirs)])
			w.Advance(37 * ms) // faster than the speed limit: the client holds presses
		}
		w.Advance(3 * time.Second)
		v := c.View()
		st := c.Stats()
		if v.Corrections != 0 {
			t.Errorf("rate %d latency %v jitter %v: %d corrections, last %+v", tc.rate, tc.latency, tc.jitter, v.Corrections, v.LastCorrection)
		}
		if len(v.Pending) != 0 || st.InputsAcked != st.InputsSent || st.InputsSent < 100 {
			t.Errorf("sent %d acked %d pending %d", st.InputsSent, st.InputsAcked, len(v.Pending))
		}
		if p, _ := w.Position(c); p != v.Predicted {
			t.Errorf("client sees %v, server has %v", v.Predicted, p)
		}
	}
}

// TestSliderDropWhileWalkingIsNeverCorrected: dragging the latency from
// 1000 ms to 0 while walking at the speed limit bunches the inputs that
// were on their way; the server's burst allowance absorbs it.
func TestSliderDropWhileWalkingIsNeverCorrected(t *testing.T) {
	for _, jitter := range []time.Duration{0, 100 * ms} {
		w := New(world.Config{Rate: 20})
		c := w.Join("solo", client.Options{Latency: 1000 * ms, Jitter: jitter, Seed: 2})
		dirs := []grid.Dir{grid.Right, grid.Right, grid.Right, grid.Left, grid.Left, grid.Left}
		for i := 0; i < 60; i++ {
			if i == 30 {
				c.SetLatency(0)
			}
			c.Press(dirs[i%len(dirs)])
			w.Advance(100 * ms)
		}
		w.Advance(3 * time.Second)
		if v := c.View(); v.Corrections != 0 || len(v.Pending) != 0 {
			t.Errorf("jitter %v: %d corrections (last %+v), %d pending", jitter, v.Corrections, v.LastCorrection, len(v.Pending))
		}
		if st := w.Server().Stats(); st.TooFast != 0 {
			t.Errorf("jitter %v: the server refused %d honest inputs as too fast", jitter, st.TooFast)
		}
	}
}
