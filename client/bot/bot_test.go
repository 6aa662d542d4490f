package bot

import (
	"testing"
	"time"

	"gridlag/client"
	"gridlag/grid"
)

// TestBotSettles: a stopped bot presses nothing more; it is done once a
// step has passed since its last press and nothing is pending, and gives
// up, unsettled, when its acknowledgements do not come within the bound.
func TestBotSettles(t *testing.T) {
	const step, bound = 100 * time.Millisecond, time.Second
	v := client.View{Connected: true, HasState: true, Map: grid.DefaultMap(),
		Predicted: grid.Pos{X: 20, Y: 10}, Server: grid.Pos{X: 20, Y: 10}}
	for _, acked := range []bool{true, false} {
		b := NewBot(NewBrain(1), 0, step, bound)
		if d, wake, _ := b.Next(0, v); d != grid.None || wake != step {
			t.Fatalf("at 0: pressed %v, wakes at %v; want nothing before the first step", d, wake)
		}
		d, _, _ := b.Next(step, v)
		if d == grid.None {
			t.Fatal("no press at the first step on an open map")
		}
		b.Stop(step + 10*time.Millisecond)
		pending := v
		pending.Pending = []client.PendingInput{{Seq: 1, Dir: d}}
		if d, _, done := b.Next(step+50*time.Millisecond, pending); d != grid.None || done {
			t.Fatalf("stopped with an input pending: pressed %v, done %v", d, done)
		}
		if acked {
			if _, _, done := b.Next(step+50*time.Millisecond, v); done {
				t.Fatal("done before a step passed since the last press")
			}
			if _, _, done := b.Next(2*step, v); !done || b.Unsettled() {
				t.Fatalf("a step after the last press with nothing pending: done %v, unsettled %v", done, b.Unsettled())
			}
			continue
		}
		if _, _, done := b.Next(step+bound, pending); done {
			t.Fatal("gave up before the bound")
		}
		if _, _, done := b.Next(step+10*time.Millisecond+bound, pending); !done || !b.Unsettled() {
			t.Fatalf("at the bound with an input pending: done %v, unsettled %v", done, b.Unsettled())
		}
	}
}
