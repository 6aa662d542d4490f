package sim

import (
	"bytes"
	"testing"
	"time"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/protocol"
	"gridlag/server/world"
)

// TestBigMapTravelsAsBits: on a map too big for the Welcome the simulated
// link carries the map as the TCP adapter does, as MapBits (the form of
// this protocol version), and a client joins, draws the server's map and
// walks on it.
func TestBigMapTravelsAsBits(t *testing.T) {
	m, err := grid.Generate(400, 300, 5)
	if err != nil {
		t.Fatal(err)
	}
	var spawn grid.Pos
	for y := range m.Height() {
		for x := range m.Width() {
			if p := (grid.Pos{X: x, Y: y}); !m.Wall(p) && spawn == (grid.Pos{}) {
				spawn = p
			}
		}
	}
	w := New(world.Config{Map: m, Spawn: spawn, Rate: 20})
	arrived := map[protocol.Type]int{}
	w.Trace(func(e Event) {
		if e.Kind == OtherArrived {
			arrived[e.Message]++
		}
	})
	c := w.Join("ann", client.Options{})
	v := c.View()
	if arrived[protocol.TypeMapBits] == 0 || arrived[protocol.TypeMapChunk] != 0 {
		t.Errorf("the map arrived as %v, want MapBits alone", arrived)
	}
	if v.Map == nil || !bytes.Equal(v.Map.Cells(), m.Cells()) {
		t.Fatal("the client's map differs from the server's")
	}
	for _, d := range []grid.Dir{grid.Right, grid.Down, grid.Left, grid.Up} {
		if next := v.Server.Add(d); !m.Wall(next) {
			c.Press(d)
			w.Advance(time.Second)
			if got := c.View().Server; got != next {
				t.Errorf("pressed %v from %v: the server has the player at %v, want %v", d, v.Server, got, next)
			}
			return
		}
	}
	t.Fatal("no floor next to the spawn")
}
