package sim

import (
	"slices"
	"testing"
	"time"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/server/world"
)

// TestRoomsAreSimulated: the simulator runs the hub the TCP server runs,
// rooms and all, on the virtual clock: two rooms open as players name
// them, each player moves in its own room and sees only its roommates,
// and a player whose connection breaks resumes into its room, with its
// ID, its cell and its input numbering.
func TestRoomsAreSimulated(t *testing.T) {
	w := New(world.Config{Rate: 20, Resume: 10 * time.Second})
	ann := w.Join("ann", client.Options{Room: "red", Latency: 100 * ms})
	bob := w.Join("bob", client.Options{Room: "red", Latency: 60 * ms})
	cy := w.Join("cy", client.Options{Room: "blue", Latency: 80 * ms})
	var names []string
	for _, r := range w.Hub().Rooms() {
		names = append(names, r.Name)
	}
	if !slices.Equal(names, []string{"", "blue", "red"}) {
		t.Fatalf("rooms open %q, want the default room, blue and red", names)
	}
	me := ann.View().Me
	if cy.View().Me != me {
		t.Fatalf("cy is player %d in blue, ann %d in red: want each room its own IDs", cy.View().Me, me)
	}

	ann.Press(grid.Right)
	cy.Press(grid.Down)
	w.Advance(time.Second)
	if p, _ := w.Position(ann); p != (grid.Pos{X: 11, Y: 10}) {
		t.Errorf("the server has ann at %v, want (11,10)", p)
	}
	if p, _ := w.Position(cy); p != (grid.Pos{X: 10, Y: 11}) {
		t.Errorf("the server has cy at %v, want (10,11): blue's spawn is red's, its world its own", p)
	}
	others := func(c *Client) (names []string) {
		for _, o := range c.View().Others {
			names = append(names, o.Name)
		}
		return names
	}
	if got := others(bob); !slices.Equal(got, []string{"ann"}) {
		t.Errorf("bob in red sees %v, want ann alone", got)
	}
	if got := others(cy); len(got) != 0 {
		t.Errorf("cy in blue sees %v, want nobody", got)
	}

	w.Cut(ann, "connection lost")
	red, _ := w.Room("red")
	if v := ann.View(); !v.Reconnecting || red.Stats().Away != 1 {
		t.Fatalf("after the cut: ann reconnecting %v, red keeps %d away; want ann waiting, kept for resume", v.Reconnecting, red.Stats().Away)
	}
	w.Advance(500 * ms)
	w.Reconnect(ann)
	w.Advance(time.Second)
	v := ann.View()
	if !v.Connected || v.Reconnecting || v.Me != me || v.Server != (grid.Pos{X: 11, Y: 10}) {
		t.Fatalf("after the resume ann is %+v, want her back as player %d at (11,10)", v, me)
	}
	blue, _ := w.Room("blue")
	if red.Stats().Resumes != 1 || red.Stats().Players != 2 || blue.Stats().Resumes != 0 {
		t.Errorf("red %+v, blue %+v: want the resume in red, ann and bob there", red.Stats(), blue.Stats())
	}
	ann.Press(grid.Right)
	w.Advance(time.Second)
	if p, _ := w.Position(ann); p != (grid.Pos{X: 12, Y: 10}) || ann.View().LastAck != 2 {
		t.Errorf("ann's next move: at %v, ack %d; want (12,10), #2 acknowledged", p, ann.View().LastAck)
	}
	if got := others(bob); !slices.Equal(got, []string{"ann"}) {
		t.Errorf("bob in red sees %v after ann's resume, want ann", got)
	}
}
