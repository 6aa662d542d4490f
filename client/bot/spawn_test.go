package bot

import (
	"testing"
	"time"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/lab/sim"
	"gridlag/server/world"
)

// manhattan is the distance between two cells in steps.
func manhattan(a, b grid.Pos) int { return abs(a.X-b.X) + abs(a.Y-b.Y) }

// TestBrainKeepsAwayFromTheSpawn: a brain keeping away from the spawn
// never steps within SpawnZone of it, and one that starts next to it
// walks out, each step farther, and stays out.
func TestBrainKeepsAwayFromTheSpawn(t *testing.T) {
	m := grid.DefaultMap()
	for seed := int64(1); seed <= 100; seed++ {
		for _, start := range []grid.Pos{{X: 20, Y: 10}, {X: 11, Y: 10}, {X: 10, Y: 12}} {
			_, cells := walk(t, NewBrain(seed, grid.DefaultSpawn).KeepAway(SpawnZone), m, start, 300, nil)
			out := manhattan(start, grid.DefaultSpawn) > SpawnZone
			for i := 1; i < len(cells); i++ {
				d, was := manhattan(cells[i], grid.DefaultSpawn), manhattan(cells[i-1], grid.DefaultSpawn)
				if !out && d <= was {
					t.Fatalf("seed %d from %v: step %d to %v, no farther from the spawn (%d, was %d)", seed, start, i, cells[i], d, was)
				}
				if out && d <= SpawnZone {
					t.Fatalf("seed %d from %v: step %d into the spawn's zone at %v", seed, start, i, cells[i])
				}
				out = out || d > SpawnZone
			}
			if !out {
				t.Errorf("seed %d from %v: never left the spawn's zone", seed, start)
			}
		}
	}
}

// TestBrainBoxedInByTheZoneWalksOn: a dead end inside the zone, whose
// only way out passes nearer the spawn, is left all the same.
func TestBrainBoxedInByTheZoneWalksOn(t *testing.T) {
	m, err := grid.ParseMap("#######\n#.....#\n###.###\n###.###\n#######\n")
	if err != nil {
		t.Fatal(err)
	}
	spawn := grid.Pos{X: 1, Y: 1}
	_, cells := walk(t, NewBrain(3, spawn).KeepAway(SpawnZone), m, grid.Pos{X: 3, Y: 3}, 10, nil)
	if len(cells) < 3 {
		t.Errorf("boxed in by the zone at the end of a corridor, it walked %v", cells)
	}
}

// TestTriggerSpares: a bot does not aim at a player under spawn
// protection, nor at one its scoreboard says is frozen (it aims past
// them, as the server's beam goes), nor at one in its spared zone.
func TestTriggerSpares(t *testing.T) {
	v := lineView(t)
	behind := client.Other{ID: 3, Pos: grid.Pos{X: 5, Y: 1}}
	for _, tt := range []struct {
		name   string
		change func(v *client.View)
		spare  []grid.Pos
		want   grid.PlayerID
	}{
		{"in line", func(*client.View) {}, nil, 2},
		{"protected", func(v *client.View) { v.Others[0].Protected = true }, nil, 0},
		{"protected, one behind", func(v *client.View) { v.Others = append(v.Others, behind); v.Others[0].Protected = true }, nil, 3},
		{"frozen", func(v *client.View) { v.Scoreboard = []client.ScoreLine{{ID: 2, Frozen: true}} }, nil, 0},
		{"in the spared zone", func(*client.View) {}, []grid.Pos{{X: 5, Y: 1}}, 0},
		{"out of the spared zone", func(*client.View) {}, []grid.Pos{{X: 5, Y: 3}}, 2},
	} {
		w := v
		w.Others = append([]client.Other(nil), v.Others...)
		tt.change(&w)
		tr := NewTrigger(1).Spare(2, tt.spare...)
		if got := tr.inLine(w); got != tt.want {
			t.Errorf("%s: aims at %d, want %d", tt.name, got, tt.want)
		}
		if _, _, ok := tr.Pull(0, w); ok != (tt.want != 0) {
			t.Errorf("%s: aiming %v", tt.name, ok)
		}
	}
}

// TestNewcomerIsLeftAlone is the README's "Things to try" against the
// embedded game's bots: a player who joins the default map while three
// bots play, with a 500 ms round trip, and walks a step or two about the
// spawn for ten seconds is never tagged: protected at first, then in the
// zone the bots keep out of and spare.
func TestNewcomerIsLeftAlone(t *testing.T) {
	t.Parallel()
	cfg := world.Config{Rate: world.DefaultRate, LagComp: true, Unlag: world.DefaultUnlag, Protect: world.DefaultProtect}
	for seed := int64(1); seed <= 6; seed++ {
		w := sim.New(cfg)
		var human *sim.Client
		var joined time.Duration
		presses := []grid.Dir{grid.Right, grid.Right, grid.Left, grid.Up, grid.Down, grid.Left, grid.Right, grid.Left}
		simRun(t, w, Options{N: 3, Duration: 14 * time.Second, Seed: seed}, func(since time.Duration, _ []*sim.Client) {
			switch {
			case human == nil && since >= 3*time.Second:
				human = w.Join("newcomer", client.Options{Latency: 500 * time.Millisecond})
				joined = since
			case human != nil && len(presses) > 0 && since >= joined+time.Duration(9-len(presses))*1200*time.Millisecond:
				human.Press(presses[0])
				presses = presses[1:]
			}
		})
		if human == nil || len(presses) > 0 {
			t.Fatalf("seed %d: the newcomer joined %v, %d presses left", seed, human != nil, len(presses))
		}
		if st := human.Stats(); st.Tagged > 0 {
			t.Errorf("seed %d: the newcomer was tagged %d times within %v of joining", seed, st.Tagged, 14*time.Second-joined)
		}
		t.Logf("seed %d: %d zaps, %d tags in the world", seed, w.Server().Stats().Zaps, w.Server().Stats().Tags)
		human.Close()
	}
}
