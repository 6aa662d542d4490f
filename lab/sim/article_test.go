package sim

import (
	"testing"
	"time"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/server/world"
)

const ms = time.Millisecond

type sample struct {
	t       time.Duration
	x       int // what the player sees
	pending []uint32
}

// playArticle replays Gambetta's example: 250 ms round trip, immediate
// server answers, RIGHT at t=0 and t=100 from (10,10), and samples what the
// player sees at each moment.
func playArticle(t *testing.T, opts client.Options) []sample {
	t.Helper()
	w := New(world.Config{Rate: 0})
	opts.Latency = 250 * ms
	c := w.Join("ada", opts)
	if v := c.View(); v.Predicted != (grid.Pos{X: 10, Y: 10}) {
		t.Fatalf("spawned at %v, want (10,10)", v.Predicted)
	}
	start := w.Now()
	at := func(d time.Duration) sample {
		w.AdvanceTo(start + d)
		v := c.View()
		var p []uint32
		for _, in := range v.Pending {
			p = append(p, in.Seq)
		}
		return sample{d, v.Predicted.X, p}
	}
	var got []sample
	c.Press(grid.Right)
	got = append(got, at(0))
	for _, d := range []time.Duration{50 * ms, 99 * ms} {
		got = append(got, at(d))
	}
	w.AdvanceTo(start + 100*ms)
	c.Press(grid.Right)
	for _, d := range []time.Duration{100 * ms, 249 * ms, 250 * ms, 300 * ms, 349 * ms, 350 * ms, 500 * ms} {
		got = append(got, at(d))
	}
	return got
}

func check(t *testing.T, got []sample, want map[time.Duration]int, pending map[time.Duration][]uint32) {
	t.Helper()
	for _, s := range got {
		if x, ok := want[s.t]; ok && s.x != x {
			t.Errorf("t=%v: player sees x=%d, want %d", s.t, s.x, x)
		}
		if p, ok := pending[s.t]; ok && !equal(p, s.pending) {
			t.Errorf("t=%v: pending %v, want %v", s.t, s.pending, p)
		}
	}
}

func equal(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestArticleWithReconciliation(t *testing.T) {
	got := playArticle(t, client.Options{})
	check(t, got,
		map[time.Duration]int{0: 11, 50 * ms: 11, 99 * ms: 11, 100 * ms: 12, 249 * ms: 12, 250 * ms: 12, 300 * ms: 12, 349 * ms: 12, 350 * ms: 12, 500 * ms: 12},
		map[time.Duration][]uint32{0: {1}, 100 * ms: {1, 2}, 249 * ms: {1, 2}, 250 * ms: {2}, 349 * ms: {2}, 350 * ms: nil})
}

func TestArticleWithoutReconciliation(t *testing.T) {
	got := playArticle(t, client.Options{NoReconcile: true})
	check(t, got,
		map[time.Duration]int{0: 11, 99 * ms: 11, 100 * ms: 12, 249 * ms: 12, 250 * ms: 11, 300 * ms: 11, 349 * ms: 11, 350 * ms: 12, 500 * ms: 12},
		map[time.Duration][]uint32{250 * ms: {2}, 350 * ms: nil})
}

func TestArticleWithoutPrediction(t *testing.T) {
	got := playArticle(t, client.Options{NoPredict: true})
	check(t, got,
		map[time.Duration]int{0: 10, 100 * ms: 10, 249 * ms: 10, 250 * ms: 11, 349 * ms: 11, 350 * ms: 12},
		map[time.Duration][]uint32{0: {1}, 100 * ms: {1, 2}, 250 * ms: {2}, 350 * ms: nil})
}
