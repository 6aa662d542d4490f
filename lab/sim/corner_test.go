package sim

import (
	"testing"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/server/world"
)

// TestOthersWalkRoundCornersAtASlowRate: at 3 updates a second a walker
// goes round the end of the wall at x=18 (it ends at y=8 on the default
// map), down from (17,7) and up to (19,7), at the speed limit. An observer
// 100 ms away, looking every millisecond, draws them only on floor, one
// neighbouring cell after another, and finally where the server has them.
func TestOthersWalkRoundCornersAtASlowRate(t *testing.T) {
	m := grid.DefaultMap()
	w := New(world.Config{Rate: 3})
	observer := w.Join("obs", client.Options{Latency: 100 * ms})
	walker := w.Join("walker", client.Options{})
	wid := walker.View().Me

	var presses []grid.Dir
	at := walker.View().Predicted
	for ; at.Y > 7; at.Y-- {
		presses = append(presses, grid.Up)
	}
	for ; at.X < 17; at.X++ {
		presses = append(presses, grid.Right)
	}
	presses = append(presses, grid.Down, grid.Down, grid.Right, grid.Right, grid.Up, grid.Up)

	var last grid.Pos
	drawn := 0
	look := func() {
		p, ok := other(observer.View(), wid)
		if !ok {
			return
		}
		if m.Wall(p) {
			t.Fatalf("t=%v: walker drawn on the wall %v", w.Now(), p)
		}
		if dx, dy := p.X-last.X, p.Y-last.Y; drawn > 0 && dx*dx+dy*dy > 1 {
			t.Fatalf("t=%v: walker drawn jumping from %v to %v", w.Now(), last, p)
		}
		last = p
		drawn++
	}
	for _, d := range presses {
		walker.Press(d)
		for range 100 {
			w.Advance(ms)
			look()
		}
	}
	for range 2000 {
		w.Advance(ms)
		look()
	}
	if want := walker.View().Server; last != want || want != (grid.Pos{X: 19, Y: 7}) {
		t.Fatalf("walker drawn at %v at the end; the server has them at %v, want (19,7)", last, want)
	}
	if drawn < 2000 {
		t.Fatalf("walker drawn only %d times", drawn)
	}
}
