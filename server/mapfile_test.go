package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gridlag/grid"
)

// TestLoadMapAndItsSpawn: a map file of one's own is played with the human
// spawn on its floor cell nearest to grid.DefaultSpawn; no path is the
// default map at grid.DefaultSpawn; files that cannot be played on are
// refused, naming the file.
func TestLoadMapAndItsSpawn(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	// A 5x4 room: its only floor row is y=2, x=1..3; (3,2) is nearest (10,10).
	room := write("room.map", "#####\n#####\n#...#\n#####\n")
	m, err := LoadMap(room)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Map: m}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	if got := cfg.WithDefaults().Spawn; got != (grid.Pos{X: 3, Y: 2}) {
		t.Errorf("spawn %v on the room, want (3,2), the floor nearest to %v", got, grid.DefaultSpawn)
	}
	if got := (Config{Map: m, Spawn: grid.Pos{X: 1, Y: 2}}).WithDefaults().Spawn; got != (grid.Pos{X: 1, Y: 2}) {
		t.Errorf("a spawn given was changed to %v", got)
	}

	if m, err := LoadMap(""); m != nil || err != nil {
		t.Errorf("no path gave %v, %v; want the default map (nil)", m, err)
	}
	if got := (Config{}).WithDefaults().Spawn; got != grid.DefaultSpawn {
		t.Errorf("spawn %v on the default map, want %v", got, grid.DefaultSpawn)
	}

	for name, text := range map[string]string{"walls.map": "###\n###\n", "bad.map": "#.x\n"} {
		if _, err := LoadMap(write(name, text)); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s (%q) gave %v, want an error naming the file", name, text, err)
		}
	}
	if _, err := LoadMap(filepath.Join(dir, "missing.map")); err == nil {
		t.Error("a missing file was loaded")
	}
}
