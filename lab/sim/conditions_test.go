package sim

import (
	"testing"
	"time"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/internal/link"
	"gridlag/protocol"
	"gridlag/server/world"
)

// TestClientLinkConditions: a preset sets the round trip, jitter and loss
// the view shows; a stall holds an input sent during it until it ends, and
// the strip sees it held.
func TestClientLinkConditions(t *testing.T) {
	w := New(world.Config{Rate: 0})
	c := w.Join("ada", client.Options{Latency: 100 * ms})
	poor, _ := link.PresetNamed("poor")
	c.ApplyPreset(poor)
	if v := c.View(); v.Latency != poor.RTT() || v.Jitter != poor.Jitter() || c.Loss() != poor.Loss {
		t.Fatalf("after the poor preset: rtt %v jitter %v loss %v", v.Latency, v.Jitter, c.Loss())
	}
	c.ApplyPreset(link.Preset{Delay: 50 * ms})
	c.SetLoss(0.25)
	if c.Loss() != 0.25 {
		t.Fatalf("loss %v, want 0.25", c.Loss())
	}
	c.SetLoss(0)
	start := w.Now()
	c.Stall(time.Second)
	c.Press(grid.Right)
	up := flights(c, Up, protocol.TypeInput)
	if len(up) != 1 || up[0].At != start+time.Second || !up[0].Held {
		t.Fatalf("during the stall, up %+v; want #1 held until the stall ends", up)
	}
	w.AdvanceTo(start + time.Second - 1)
	if p, _ := w.Position(c); p != (grid.Pos{X: 10, Y: 10}) {
		t.Fatalf("the server moved the player to %v during the stall", p)
	}
	w.AdvanceTo(start + time.Second)
	if p, _ := w.Position(c); p != (grid.Pos{X: 11, Y: 10}) {
		t.Fatalf("the server has %v once the stall ended, want (11,10)", p)
	}
}
