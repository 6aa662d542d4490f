package sim

import (
	"testing"
	"time"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/protocol"
	"gridlag/server/world"
)

// flights returns the messages of one type on a client's link one way.
func flights(c *Client, way Way, typ protocol.Type) []Flight {
	var out []Flight
	for _, f := range c.InFlight(way, nil) {
		if f.Type == typ {
			out = append(out, f)
		}
	}
	return out
}

// TestInFlightLabelsTheWire: right after a press, Input #1 RIGHT is on the
// way up at progress 0; halfway through the one-way delay it is at 0.5;
// once delivered it is gone, and the State coming down carries ack #1.
func TestInFlightLabelsTheWire(t *testing.T) {
	w := New(world.Config{Rate: 0})
	c := w.Join("ada", client.Options{Latency: 250 * ms})
	start := w.Now()
	c.Press(grid.Right)
	up := flights(c, Up, protocol.TypeInput)
	if len(up) != 1 || up[0].Seq != 1 || up[0].Dir != grid.Right || up[0].Progress != 0 ||
		up[0].Sent != start || up[0].At != start+125*ms || up[0].Lost != 0 || up[0].Held {
		t.Fatalf("just pressed, up %+v; want Input #1 RIGHT at progress 0, due in 125ms", up)
	}
	w.AdvanceTo(start + 62500*time.Microsecond)
	if up := flights(c, Up, protocol.TypeInput); len(up) != 1 || up[0].Progress != 0.5 {
		t.Fatalf("halfway, up %+v; want #1 at 0.5", up)
	}
	w.AdvanceTo(start + 125*ms)
	if up := flights(c, Up, protocol.TypeInput); len(up) != 0 {
		t.Fatalf("delivered, up still shows %+v", up)
	}
	down := flights(c, Down, protocol.TypeState)
	if len(down) != 1 || down[0].Ack != 1 || down[0].Progress != 0 || down[0].At != start+250*ms {
		t.Fatalf("down %+v; want a State with ack #1 just sent, due at 250ms", down)
	}
}

// TestInFlightLabelsSteps: at 20 Hz an idle client's States travel as
// steps, and the strip still shows each one as a State with its ack.
func TestInFlightLabelsSteps(t *testing.T) {
	w := New(world.Config{Rate: 20})
	c := w.Join("ada", client.Options{Latency: 250 * ms})
	c.Press(grid.Right)
	w.Advance(500 * ms) // #1 is acknowledged; the ticks since are idle
	down := flights(c, Down, protocol.TypeState)
	if len(down) < 2 {
		t.Fatalf("down %+v; want the States of 125 ms at 20 Hz", down)
	}
	for _, f := range down {
		if f.Ack != 1 {
			t.Errorf("down %+v: a State in flight with ack #%d, want #1", down, f.Ack)
		}
	}
	steps := 0
	for f := range c.d.Link().Down.InFlight {
		if len(f.Value) > protocol.HeaderLen && protocol.Type(f.Value[protocol.HeaderLen]) == protocol.TypeStateStep {
			steps++
		}
	}
	if steps != len(down) {
		t.Errorf("%d of the %d idle States in flight are steps, want all", steps, len(down))
	}
}
