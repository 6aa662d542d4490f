package world

import (
	"fmt"
	"testing"

	"gridlag/grid"
	"gridlag/server/world/worldtest"
)

// TestSpawnsOnlyOnTheMainFloor: on a map a wall splits in two, humans
// (the spawn moves from (10,10) to the nearest cell of the larger part),
// bots and respawning players all come in on the larger part, never in
// the sealed one, where they could reach nobody.
func TestSpawnsOnlyOnTheMainFloor(t *testing.T) {
	m := worldtest.SealedMap(t)
	cfg := Config{Map: m}.WithDefaults()
	if cfg.Spawn != (grid.Pos{X: 13, Y: 10}) {
		t.Errorf("the human spawn is %v, want (13,10): the main floor's cell nearest to (10,10)", cfg.Spawn)
	}
	c := NewCore(Config{Map: m})
	reach := m.Reach()
	for i := range 3 {
		w := join(t, c, 0, ConnID(i+1), fmt.Sprint("ann", i), false)
		if p := c.world.Players(nil)[w.Player-1].Pos; !reach.Main(p) {
			t.Errorf("human %d joined at %v, in the sealed part", i+1, p)
		}
	}
	for i := range 40 {
		w := join(t, c, 0, ConnID(i+10), fmt.Sprint("bot-", i+1), true)
		if p := c.world.Players(nil)[w.Player-1].Pos; !reach.Main(p) {
			t.Errorf("bot %d joined at %v, in the sealed part", i+1, p)
		}
	}
	for range 100 {
		if p, ok := c.respawnCell(); !ok || !reach.Main(p) {
			t.Fatalf("a respawn at %v (%v), in the sealed part", p, ok)
		}
	}
}

// TestMapShareKeepsItsReach: a map's main floor is found once, when its
// share is built, for every Core that plays on it.
func TestMapShareKeepsItsReach(t *testing.T) {
	ms := NewMapShare(worldtest.SealedMap(t))
	r := ms.Reach()
	if r.Floor() != 324 || r.Unreachable() != 132 {
		t.Fatalf("floor %d, unreachable %d; want 324, 132", r.Floor(), r.Unreachable())
	}
	if ms.Reach() != r {
		t.Error("Reach is computed again")
	}
	if c := NewSharedCore(Config{}, ms); c.share.reach != r {
		t.Error("a Core of the share computed its own Reach")
	}
}
