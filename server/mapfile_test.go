package server

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
	"gridlag/server/admit/admittest"
	"gridlag/server/world"
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
	cfg := world.Config{Map: m}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	if got := cfg.WithDefaults().Spawn; got != (grid.Pos{X: 3, Y: 2}) {
		t.Errorf("spawn %v on the room, want (3,2), the floor nearest to %v", got, grid.DefaultSpawn)
	}
	if got := (world.Config{Map: m, Spawn: grid.Pos{X: 1, Y: 2}}).WithDefaults().Spawn; got != (grid.Pos{X: 1, Y: 2}) {
		t.Errorf("a spawn given was changed to %v", got)
	}

	if m, err := LoadMap(""); m != nil || err != nil {
		t.Errorf("no path gave %v, %v; want the default map (nil)", m, err)
	}
	if got := (world.Config{}).WithDefaults().Spawn; got != grid.DefaultSpawn {
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

// TestAnyMapWithFloorIsPlayed: a map with a single floor cell, wherever it
// is, is loaded and a player spawns on that cell.
func TestAnyMapWithFloorIsPlayed(t *testing.T) {
	far := strings.Repeat(strings.Repeat("#", 30)+"\n", 29) + strings.Repeat("#", 29) + ".\n"
	for name, c := range map[string]struct {
		text string
		want grid.Pos
	}{
		"one.map": {".\n", grid.Pos{}},
		"far.map": {far, grid.Pos{X: 29, Y: 29}},
	} {
		path := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(path, []byte(c.text), 0o600); err != nil {
			t.Fatal(err)
		}
		m, err := LoadMap(path)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		cfg := world.Config{Map: m}
		if err := cfg.Validate(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		core := world.NewCore(cfg)
		core.Receive(0, 1, &protocol.Hello{Version: protocol.Version, Name: "ada"})
		if got := core.Positions(nil); len(got) != 1 || got[0].Pos != c.want {
			t.Errorf("%s: the players are at %v, want one at %v, the only floor cell", name, got, c.want)
		}
	}
}

// TestMapFilesThatCannotHang: what is not a regular file (a FIFO nobody
// writes to, a device that never ends) and files larger than any map are
// refused at once with a clear error; the largest map loads, and the
// Welcome frame's own limit is a separate error.
func TestMapFilesThatCannotHang(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.map")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(dir, "huge.map")
	if err := os.WriteFile(huge, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, MaxMapFileSize+1); err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		fifo:        "not a regular file (a named pipe)",
		"/dev/zero": "not a regular file (a device)",
		dir:         "not a regular file (a directory)",
		huge:        fmt.Sprintf("larger than %d bytes", MaxMapFileSize),
	}
	for path, want := range cases {
		done := make(chan error, 1)
		go func() {
			_, err := LoadMap(path)
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), path) {
				t.Errorf("%s: %v, want an error naming it and saying %q", path, err, want)
			}
		case <-time.After(admittest.Hung):
			t.Fatalf("%s: LoadMap still reading after %v", path, admittest.Hung)
		}
	}

	side := grid.MaxMapSide
	largest := filepath.Join(dir, "largest.map")
	text := strings.Repeat("."+strings.Repeat("#", side-1)+"\r\n", side)
	if err := os.WriteFile(largest, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	m, err := LoadMap(largest)
	if err != nil {
		t.Fatalf("a %dx%d map: %v", side, side, err)
	}
	if err := (world.Config{Map: m}).Validate(); err != nil {
		t.Errorf("a %dx%d map: %v, want it accepted (its cells follow the Welcome in chunks)", side, side, err)
	}
}

// TestNotAMapFile: a file that is not a map (a password file) is refused
// as not a map file, saying where, quoting none of it; a map with a
// mistake further down names the cell, its character escaped.
func TestNotAMapFile(t *testing.T) {
	dir := t.TempDir()
	shadow := filepath.Join(dir, "shadow")
	if err := os.WriteFile(shadow, []byte("root:$6$hunter2:19700:0:99999:7:::\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := LoadMap(shadow)
	if want := shadow + " is not a map file: its first line holds a character other than '#' (a wall) and '.' (floor), at column 1"; err == nil || err.Error() != want {
		t.Errorf("%v, want %q", err, want)
	}
	typo := filepath.Join(dir, "typo.map")
	if err := os.WriteFile(typo, []byte("#####\n#...#\n#.\x1b.#\n#####\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadMap(typo); err == nil || !strings.Contains(err.Error(), `map cell (2,2) is '\x1b', want '#' or '.'`) || strings.Contains(err.Error(), "\x1b") {
		t.Errorf("a map with a mistake: %v", err)
	}
}
