package tui

import (
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
)

// Every click on a toggle flips it, however soon after the last: two
// clicks 100 ms apart (a double click to tview) flip it twice.
func TestEveryClickToggles(t *testing.T) {
	r := newLoopRig(t, client.Options{})
	x, y, _ := r.loop.app.(*UI).Slider().Track()
	row := y - panelSliderRow + panelInterpRow
	click := func() {
		r.loop.event(tcell.NewEventMouse(x+1, row, tcell.Button1, tcell.ModNone))
		r.loop.event(tcell.NewEventMouse(x+1, row, tcell.ButtonNone, tcell.ModNone))
	}
	click()
	if r.me.View().Interpolate {
		t.Fatal("the first click did not turn interpolation off")
	}
	r.advance(100 * time.Millisecond)
	click()
	if !r.me.View().Interpolate {
		t.Fatal("a second click 100 ms after the first did not turn interpolation back on")
	}
	r.advance(400 * time.Millisecond)
	click()
	if r.me.View().Interpolate {
		t.Fatal("a third click did not turn interpolation off")
	}
}
