package tui_test

import (
	"testing"
	"time"

	"gridlag/client"
	"gridlag/lab/sim"
	"gridlag/server/world"
	"gridlag/tui"
)

// TestRenamedIsToldAtOnce: a student who joins as stud2 where a stud2
// plays is told at once, on its own top line, that it plays as
// stud2-2 and the mark the others' screens show it by; the notice goes
// after a while, the name stays.
func TestRenamedIsToldAtOnce(t *testing.T) {
	w := sim.New(world.Config{Rate: 20})
	w.Join("stud2", client.Options{})
	me := w.Join("stud2", client.Options{})
	scr := newScreen(t, 120, 40)
	r := &rig{simTerm: simTerm{t, scr}, world: w, me: me, ui: tui.New(scr, me, tui.Options{Title: "gridlag"})}
	r.advance(100 * time.Millisecond)
	r.mustShow("stud2 is taken here: you play as stud2-2, marked A on the others' screens", "playing as stud2-2")
	r.advance(11 * time.Second)
	r.mustNotShow("is taken here")
	r.mustShow("playing as stud2-2")
}
