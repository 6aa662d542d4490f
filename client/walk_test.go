package client

import (
	"testing"
	"time"

	"gridlag/grid"
)

// slowCore returns a core past its Welcome in a game at 3 updates a second
// (Gambetta's demo rate), one move per 100 ms with a burst of 6: between
// two states another player moves up to 3 or 4 cells.
func slowCore(t *testing.T) *Core {
	t.Helper()
	w := welcome()
	w.UpdateRate, w.Burst = 3, 6
	c := NewCore(0, Options{})
	if err := c.Receive(0, w); err != nil {
		t.Fatal(err)
	}
	return c
}

// drawOthers feeds c one State every 333 ms, player 2 at cells[k] in the
// k-th (the player at (10,10)), each arriving 40 ms after its server time,
// and returns where c draws player 2 at every millisecond until a second
// after the last state, with the render time of each moment.
func drawOthers(t *testing.T, c *Core, cells []grid.Pos) (drawn []grid.Pos, render []time.Duration) {
	t.Helper()
	const interval, latency = 333 * ms, 40 * ms
	next := 0
	end := time.Duration(len(cells)-1)*interval + latency + time.Second
	for now := time.Duration(0); now <= end; now += ms {
		for next < len(cells) && time.Duration(next)*interval+latency <= now {
			st := state(0, time.Duration(next)*interval, at(1, 10, 10), grid.PlayerPos{ID: 2, Pos: cells[next]})
			if err := c.Receive(now, st); err != nil {
				t.Fatal(err)
			}
			next++
		}
		if next == 0 {
			continue
		}
		v := c.View(now)
		p, ok := otherAt(v, 2)
		if !ok {
			t.Fatalf("t=%v: player 2 is not drawn", now)
		}
		drawn, render = append(drawn, p), append(render, v.RenderTime)
	}
	return drawn, render
}

func xy(x, y int) grid.Pos { return grid.Pos{X: x, Y: y} }

func neighbours(a, b grid.Pos) bool {
	for _, d := range []grid.Dir{grid.Up, grid.Down, grid.Left, grid.Right} {
		if a.Add(d) == b {
			return true
		}
	}
	return false
}

func otherAt(v View, id grid.PlayerID) (grid.Pos, bool) {
	for _, o := range v.Others {
		if o.ID == id {
			return o.Pos, true
		}
	}
	return grid.Pos{}, false
}

// TestOthersTurnCornersOnTheFloor: at 3 Hz another player walks round the
// end of a wall (the wall at x=18 ends at y=8 on the default map). Each
// axis interpolated and rounded would draw them on (18,8), in the wall.
// Drawn every millisecond, they are only ever on floor, step from cell to
// neighbouring cell, never step back, and end where the server says.
func TestOthersTurnCornersOnTheFloor(t *testing.T) {
	m := grid.DefaultMap()
	// Three moves between states: R R D, then D R R (round the
	// corner), then R D D; and the same walk backwards.
	route := []grid.Pos{xy(15, 7), xy(17, 8), xy(19, 9), xy(20, 11)}
	back := []grid.Pos{xy(20, 11), xy(19, 9), xy(17, 8), xy(15, 7)}
	for _, cells := range [][]grid.Pos{route, back} {
		drawn, _ := drawOthers(t, slowCore(t), cells)
		steps := 0
		for i, p := range drawn {
			if m.Wall(p) {
				t.Fatalf("route %v: player 2 drawn on the wall %v", cells, p)
			}
			if i > 0 && p != drawn[i-1] {
				if !neighbours(p, drawn[i-1]) {
					t.Fatalf("route %v: player 2 jumps from %v to %v", cells, drawn[i-1], p)
				}
				steps++
			}
		}
		if last := drawn[len(drawn)-1]; last != cells[len(cells)-1] {
			t.Fatalf("route %v: player 2 ends drawn at %v, the server says %v", cells, last, cells[len(cells)-1])
		}
		if steps != 9 {
			t.Fatalf("route %v: player 2 drawn taking %d steps, want the 9 of the shortest walk", cells, steps)
		}
	}
}

// TestJumpsAreNotWalked: a move no walk explains within the speed limit
// (a respawn across the map, or 20 cells of open floor in a third of a
// second) is drawn at the old cell until the render time reaches the new
// state's time, then at the new cell, never in between.
func TestJumpsAreNotWalked(t *testing.T) {
	for _, jump := range [][2]grid.Pos{{xy(5, 5), xy(30, 15)}, {xy(5, 10), xy(25, 10)}} {
		from, to := jump[0], jump[1]
		drawn, render := drawOthers(t, slowCore(t), []grid.Pos{from, from, to})
		arrived := 2 * 333 * ms
		for i, p := range drawn {
			want := from
			if render[i] >= arrived {
				want = to
			}
			if p != want {
				t.Fatalf("jump %v to %v: drawn at %v at render time %v, want %v", from, to, p, render[i], want)
			}
		}
		if drawn[len(drawn)-1] != to {
			t.Fatalf("jump %v to %v: never drawn at the new cell", from, to)
		}
	}
}
