package server

import (
	"fmt"
	"strings"
	"testing"

	"gridlag/grid"
	"gridlag/protocol"
)

// sealedMap is 30x14 with a wall down column 12: the part left of it
// (132 floor cells, with (10,10), where players spawn on the default map)
// is sealed off from the larger part right of it (192 cells).
func sealedMap(t *testing.T) *grid.Map {
	t.Helper()
	rows := []string{strings.Repeat("#", 30)}
	for range 12 {
		rows = append(rows, "#"+strings.Repeat(".", 11)+"#"+strings.Repeat(".", 16)+"#")
	}
	rows = append(rows, strings.Repeat("#", 30))
	m, err := grid.ParseMap(strings.Join(rows, "\n"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestSpawnsOnlyOnTheMainFloor: on a map a wall splits in two, humans
// (the spawn moves from (10,10) to the nearest cell of the larger part),
// bots and respawning players all come in on the larger part, never in
// the sealed one, where they could reach nobody.
func TestSpawnsOnlyOnTheMainFloor(t *testing.T) {
	m := sealedMap(t)
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

// TestServerLogsTheUnreachableFloorOnce: a server on such a map says
// once how much of its floor nobody can reach, however many rooms open.
func TestServerLogsTheUnreachableFloorOnce(t *testing.T) {
	ts := startServer(t, Options{Config: Config{Rate: 20, Map: sealedMap(t)}})
	ts.waitLog(t, "unreachable=132 floor=324")
	c := dial(t, ts)
	c.send(&protocol.Hello{Version: protocol.Version, Name: "ada", Room: "kitchen"})
	c.until("the Welcome", func(m protocol.Message) bool { _, ok := m.(*protocol.Welcome); return ok })
	if n := strings.Count(ts.logs.String(), "no player can reach"); n != 1 {
		t.Errorf("the unreachable floor was logged %d times, want once:\n%s", n, ts.logs)
	}
	quiet := startServer(t, Options{Config: Config{Rate: 20}})
	dial(t, quiet).join("ada")
	if strings.Contains(quiet.logs.String(), "no player can reach") {
		t.Errorf("the default map has unreachable floor:\n%s", quiet.logs)
	}
}
