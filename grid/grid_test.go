package grid

import (
	"errors"
	"math/rand"
	"strings"
	"testing"
)

func TestDefaultMapPromises(t *testing.T) {
	m := DefaultMap()
	for x := 5; x <= 25; x++ {
		if m.Wall(Pos{x, 10}) {
			t.Errorf("row 10: (%d,10) is a wall, want floor", x)
		}
	}
	for y := 5; y <= 15; y++ {
		for x := 5; x <= 15; x++ {
			if m.Wall(Pos{x, y}) {
				t.Errorf("11x11 square around (10,10): (%d,%d) is a wall", x, y)
			}
		}
	}
	w := NewWorld(m, Rules{MoveTime: 100, Burst: 3})
	p, ok := w.Spawn(DefaultSpawn)
	if !ok || p != (Pos{10, 10}) {
		t.Fatalf("first spawn = %v, want (10,10)", p)
	}
}

func TestCoordinates(t *testing.T) {
	at := Pos{10, 10}
	cases := map[Dir]Pos{Right: {11, 10}, Left: {9, 10}, Up: {10, 9}, Down: {10, 11}}
	for d, want := range cases {
		if got := at.Add(d); got != want {
			t.Errorf("%v from %v = %v, want %v", d, at, got, want)
		}
	}
	for _, d := range []Dir{Up, Down, Left, Right} {
		if at.Add(d).Add(d.Opposite()) != at {
			t.Errorf("%v then its opposite %v does not come back", d, d.Opposite())
		}
	}
	if s := (Pos{11, 10}).String(); s != "(11,10)" {
		t.Errorf("String = %q", s)
	}
}

func TestMoveBlocked(t *testing.T) {
	m, err := ParseMap("#####\n#...#\n#.#.#\n#####\n")
	if err != nil {
		t.Fatal(err)
	}
	w := NewWorld(m, Rules{MoveTime: 100, Burst: 1})
	if err := w.Add(1, Pos{1, 1}); err != nil {
		t.Fatal(err)
	}
	if err := w.Add(2, Pos{3, 1}); err != nil {
		t.Fatal(err)
	}
	if o := w.Move(1, Up); o != BlockedWall {
		t.Errorf("up into wall: %v", o)
	}
	if o := w.Move(1, Right); o != Moved {
		t.Errorf("right onto floor: %v", o)
	}
	if o := w.Move(1, Right); o != BlockedPlayer {
		t.Errorf("right into player 2: %v", o)
	}
	if p, _ := w.Pos(1); p != (Pos{2, 1}) {
		t.Errorf("player 1 at %v, want (2,1)", p)
	}
	open, _ := ParseMap("..\n..\n")
	w2 := NewWorld(open, Rules{MoveTime: 100, Burst: 1})
	w2.Add(1, Pos{0, 0})
	if o := w2.Move(1, Left); o != BlockedEdge {
		t.Errorf("left off the map: %v", o)
	}
	if err := w2.Add(2, Pos{0, 0}); err != ErrOccupied {
		t.Errorf("add on a taken cell: %v", err)
	}
}

func TestSpeedLimit(t *testing.T) {
	w := NewWorld(DefaultMap(), Rules{MoveTime: 100, Burst: 3})
	w.Add(1, Pos{10, 10})
	// Three moves at once fit the burst, the fourth does not.
	for i := 0; i < 3; i++ {
		if o := w.Apply(1, Right, 0); o != Moved {
			t.Fatalf("move %d at t=0: %v", i+1, o)
		}
	}
	if o := w.Apply(1, Right, 0); o != TooFast {
		t.Fatalf("4th move at t=0: %v, want too fast", o)
	}
	if p, _ := w.Pos(1); p != (Pos{13, 10}) {
		t.Fatalf("at %v, want (13,10)", p)
	}
	// After one move time one more move is allowed.
	if o := w.Apply(1, Right, 100); o != Moved {
		t.Fatalf("move at t=100: %v", o)
	}
	// A steady honest player at exactly the limit is never refused.
	var l Limiter
	for i := int64(0); i < 1000; i++ {
		if !l.Allow(i*100, 100, 1) {
			t.Fatalf("steady move %d refused", i)
		}
	}
	if l.Allow(99950, 100, 1) {
		t.Fatal("a move 50 after the last one passed a burst-1 limit")
	}
	// Full once its burst is back: as good as new.
	if fresh := (Limiter{}); !fresh.Full(0) || l.Full(99999) || !l.Full(100000) {
		t.Fatalf("Full: new %v, one move time after the last move %v, want true; before it %v, want false", fresh.Full(0), l.Full(100000), l.Full(99999))
	}
}

func TestParseMapErrors(t *testing.T) {
	for _, bad := range []string{"", "##\n#\n", "#x#\n"} {
		if _, err := ParseMap(bad); err == nil {
			t.Errorf("ParseMap(%q) succeeded", bad)
		}
	}
	var not *NotMapError
	if _, err := ParseMap("root:x:0:0::/root:/bin/sh\n"); !errors.As(err, &not) || not.Column != 1 || strings.Contains(err.Error(), "root") {
		t.Errorf("a text that is not a map: %v", err)
	}
	if _, err := ParseMap("##\n#x\n"); errors.As(err, &not) || err == nil || !strings.Contains(err.Error(), "(1,1) is 'x'") {
		t.Errorf("a map with a mistake in its second row: %v", err)
	}
	m := DefaultMap()
	m2, err := NewMapFromCells(m.Width(), m.Height(), m.Cells())
	if err != nil || m2.String() != m.String() {
		t.Fatalf("cells round trip: %v", err)
	}
}

// TestDeterminism replays the same random inputs into two worlds built the
// same way and compares hashes of the whole world after every step.
func TestDeterminism(t *testing.T) {
	run := func(seed int64) []uint64 {
		rng := rand.New(rand.NewSource(seed))
		w := NewWorld(DefaultMap(), Rules{MoveTime: 100, Burst: 3})
		for id := PlayerID(1); id <= 20; id++ {
			p, _ := w.Spawn(DefaultSpawn)
			w.Add(id, p)
		}
		var hashes []uint64
		now := int64(0)
		for i := 0; i < 5000; i++ {
			now += int64(rng.Intn(40))
			id := PlayerID(1 + rng.Intn(20))
			w.Apply(id, Dir(1+rng.Intn(4)), now)
			if i%500 == 0 {
				w.Remove(id)
				p, _ := w.Spawn(Pos{20, 10})
				w.Add(id, p)
			}
			hashes = append(hashes, w.Hash())
		}
		return hashes
	}
	a, b := run(42), run(42)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("step %d: hashes differ: %x vs %x", i, a[i], b[i])
		}
	}
	if c := run(43); c[len(c)-1] == a[len(a)-1] {
		t.Fatal("different inputs gave the same final hash")
	}
	w := NewWorld(DefaultMap(), Rules{MoveTime: 100, Burst: 3})
	w.Add(1, Pos{10, 10})
	if w.Clone().Hash() != w.Hash() {
		t.Fatal("clone hashes differently")
	}
}

// TestPlayersStaysInStep: after any mix of adds, moves and removes, the
// sorted list Players returns agrees with Pos and At for every player.
func TestPlayersStaysInStep(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	w := NewWorld(DefaultMap(), Rules{MoveTime: 1, Burst: 1})
	for i := 0; i < 20000; i++ {
		id := PlayerID(1 + rng.Intn(40))
		switch rng.Intn(10) {
		case 0:
			w.Remove(id)
		case 1:
			if p, ok := w.Spawn(Pos{X: 1 + rng.Intn(38), Y: 1 + rng.Intn(20)}); ok {
				w.Add(id, p)
			}
		default:
			w.Move(id, Dir(1+rng.Intn(4)))
		}
	}
	list := w.Players(nil)
	if len(list) != w.Len() || w.Len() == 0 {
		t.Fatalf("%d players listed, Len %d", len(list), w.Len())
	}
	for i, pp := range list {
		if i > 0 && list[i-1].ID >= pp.ID {
			t.Fatalf("not sorted by ID at %d: %v", i, list)
		}
		if p, ok := w.Pos(pp.ID); !ok || p != pp.Pos {
			t.Fatalf("player %d listed at %v, Pos says %v", pp.ID, pp.Pos, p)
		}
		if id, ok := w.At(pp.Pos); !ok || id != pp.ID {
			t.Fatalf("cell %v: At says %d, want %d", pp.Pos, id, pp.ID)
		}
	}
}
