package grid

import "testing"

// corridor is a 12x3 map: one open row between walls, a wall at x=6.
func corridor(t *testing.T) *Map {
	t.Helper()
	m, err := ParseMap("############\n#.....#....#\n############\n")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestTraceStopsAtFirstPlayerWallOrRange(t *testing.T) {
	m := corridor(t)
	from := Pos{1, 1}
	tests := []struct {
		name    string
		d       Dir
		targets []PlayerPos
		want    Beam
	}{
		{"first player tagged", Right, []PlayerPos{{ID: 9, Pos: Pos{4, 1}}, {ID: 2, Pos: Pos{3, 1}}, {ID: 1, Pos: from}},
			Beam{From: from, Dir: Right, Len: 2, Stop: StopPlayer, Target: 2}},
		{"wall before the player", Right, []PlayerPos{{ID: 2, Pos: Pos{7, 1}}},
			Beam{From: from, Dir: Right, Len: 4, Stop: StopWall}},
		{"edge wall", Left, nil, Beam{From: from, Dir: Left, Len: 0, Stop: StopWall}},
		{"not a direction", None, nil, Beam{From: from, Dir: None, Stop: StopWall}},
	}
	for _, tt := range tests {
		if got := Trace(m, from, tt.d, tt.targets); got != tt.want {
			t.Errorf("%s: Trace = %+v, want %+v", tt.name, got, tt.want)
		}
	}
	open, err := ParseMap("............\n")
	if err != nil {
		t.Fatal(err)
	}
	b := Trace(open, Pos{0, 0}, Right, []PlayerPos{{ID: 2, Pos: Pos{9, 0}}})
	if b.Stop != StopRange || b.Len != BeamRange {
		t.Errorf("a player 9 cells away: %+v, want out of range after %d cells", b, BeamRange)
	}
	if cells := b.Cells(nil); len(cells) != BeamRange || cells[0] != (Pos{1, 0}) || cells[7] != (Pos{8, 0}) {
		t.Errorf("Cells = %v", cells)
	}
	if b.End() != (Pos{8, 0}) {
		t.Errorf("End = %v, want (8,0)", b.End())
	}
}

func TestFacingIsTheLastDirectionEvenBlocked(t *testing.T) {
	w := NewWorld(corridor(t), Rules{MoveTime: 100, Burst: 1})
	if err := w.Add(1, Pos{1, 1}); err != nil {
		t.Fatal(err)
	}
	if got := w.Facing(1); got != Right {
		t.Errorf("a new player faces %v, want RIGHT", got)
	}
	if o := w.Move(1, Up); o != BlockedWall || w.Facing(1) != Up {
		t.Errorf("blocked UP: %v, facing %v; want blocked, facing UP", o, w.Facing(1))
	}
	w.Apply(1, Down, 0)
	if o := w.Apply(1, Left, 1); o != TooFast || w.Facing(1) != Left {
		t.Errorf("too fast LEFT: %v, facing %v; want too fast, facing LEFT", o, w.Facing(1))
	}
	if err := w.Place(1, Pos{9, 1}); err != nil {
		t.Fatal(err)
	}
	if p, _ := w.Pos(1); p != (Pos{9, 1}) {
		t.Errorf("after Place: %v", p)
	}
	if err := w.Place(1, Pos{0, 0}); err != ErrOccupied {
		t.Errorf("Place on a wall: %v", err)
	}
	if err := w.Place(7, Pos{2, 1}); err != ErrNoPlayer {
		t.Errorf("Place of nobody: %v", err)
	}
}

func TestCooldownAndWinner(t *testing.T) {
	var c Cooldown
	if !c.Fire(5) || c.Fire(5+ZapCooldown-1) || !c.Fire(5+ZapCooldown) {
		t.Error("a zap is allowed once per ZapCooldown")
	}
	if _, ok := Winner([]Score{{ID: 1}, {ID: 2}}); ok {
		t.Error("nobody scored, yet a winner")
	}
	if w, _ := Winner([]Score{{ID: 3, Points: 2}, {ID: 1, Points: 1}, {ID: 2, Points: 2}}); w.ID != 2 {
		t.Errorf("winner %v, want player 2 (most points, lowest ID among equals)", w)
	}
}
