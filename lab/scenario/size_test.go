package scenario

import (
	"testing"
	"time"

	"gridlag/grid"
)

// TestStatesCountTheTicksToShow: at Rate N each player's client gets N
// states a second until the later of Until and the last press; at rate 0
// the states answer presses and there are no ticks to count.
func TestStatesCountTheTicksToShow(t *testing.T) {
	far := Default()
	far.Rate = 1000
	far.Player.Presses = append(far.Player.Presses, Press{At: 100 * time.Hour, Dir: grid.Left})
	if got := far.Span(); got != 100*time.Hour {
		t.Errorf("span %v, want the last press, 100h", got)
	}
	if got, want := far.States(), int64(360_000_000); got != want {
		t.Errorf("a press at 100h at 1000 Hz: %d states, want %d", got, want)
	}

	two := Default()
	two.Rate, two.Until = 20, time.Minute
	two.Second = &Player{Start: grid.Pos{X: 12, Y: 10}, Presses: []Press{{At: time.Second, Dir: grid.Left}}}
	if got, want := two.States(), int64(2*20*60); got != want {
		t.Errorf("two players for a minute at 20 Hz: %d states, want %d", got, want)
	}

	far.Rate = 0
	if got := far.States(); got != 0 {
		t.Errorf("rate 0: %d states, want 0 (no ticks)", got)
	}
}
