package tui

import (
	"testing"
	"time"

	"gridlag/client"
)

// An idle game screen with a round running ticks when its clock shows
// the next second or the winner's banner comes down, not every frame;
// anything that moves makes it tick every frame.
func TestNextChange(t *testing.T) {
	round := client.View{Now: 10 * time.Second, Round: 2, RoundLeft: 90*time.Second + 300*time.Millisecond}
	cases := []struct {
		name   string
		view   client.View
		banner banner
		want   time.Duration
	}{
		{"nothing moves, no round", client.View{}, banner{}, 0},
		{"a round's clock", round, banner{}, 300 * time.Millisecond},
		{"a round's clock on a whole second", client.View{Round: 2, RoundLeft: 90 * time.Second}, banner{}, time.Second},
		{"a banner coming down first", round, banner{"round 1: ada wins with 3", 10*time.Second + 100*time.Millisecond}, 100 * time.Millisecond},
		{"a banner already down", round, banner{"round 1: ada wins with 3", 10 * time.Second}, 300 * time.Millisecond},
		{"a zap pending", client.View{Pending: []client.PendingInput{{Seq: 1, Zap: true}}}, banner{}, FrameInterval},
		{"frozen", client.View{Frozen: true, FrozenUntil: time.Second}, banner{}, FrameInterval},
	}
	for _, c := range cases {
		u := &UI{view: c.view, winner: c.banner}
		if got := u.nextChange(); got != c.want {
			t.Errorf("%s: next change in %v, want %v", c.name, got, c.want)
		}
	}
}

// With an instrument's overlay open, what moves under it does not make
// the screen tick every frame: the net graph ticks four times a second
// for its seconds, the waterfall and the budget only when something
// arrives.
func TestNextChangeUnderAnOverlay(t *testing.T) {
	moving := client.View{Interpolate: true, Others: []client.Other{{ID: 2}}, Pending: []client.PendingInput{{Seq: 1}}}
	for open, want := range map[instrument]time.Duration{
		noInstrument: FrameInterval, netGraphView: time.Second / 4, waterfallView: 0, budgetView: 0,
	} {
		u := &UI{view: moving}
		u.tools.open = open
		if got := u.nextChange(); got != want {
			t.Errorf("overlay %d: next change in %v, want %v", open, got, want)
		}
	}
}
