package sim

import (
	"strings"
	"testing"
	"time"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/server/world"
)

// points returns the points the view's scoreboard gives player name, and
// whether it shows that player frozen.
func points(t *testing.T, v client.View, name string) (int, bool) {
	t.Helper()
	for _, l := range v.Scoreboard {
		if l.Name == name {
			return l.Points, l.Frozen
		}
	}
	t.Fatalf("%s is not on the scoreboard %+v", name, v.Scoreboard)
	return 0, false
}

// TestZapIsAnInputThatPredictsNothingButTheBeam: a zap takes the next
// number and stays pending until acknowledged, replays as nothing, and
// draws its beam at once; the point, the tag and the freeze show only when
// the server's word arrives. The tagged player's moves are not predicted
// while the server says it is frozen, and it respawns after FreezeTime.
func TestZapIsAnInputThatPredictsNothingButTheBeam(t *testing.T) {
	for _, rate := range []int{0, 20} {
		w := New(world.Config{Rate: rate, Spawns: []grid.Pos{{X: 13, Y: 10}}, LagComp: true, Unlag: world.DefaultUnlag})
		ann := w.Join("ann", client.Options{Latency: 200 * ms})
		bob := w.Join("bob", client.Options{Latency: 60 * ms})
		w.Advance(time.Second)
		ann.Press(grid.Right)
		ann.Zap()
		v := ann.View()
		if len(v.Pending) != 2 || !v.Pending[1].Zap || v.Pending[1].Seq != 2 || v.Predicted != (grid.Pos{X: 11, Y: 10}) || v.Facing != grid.Right {
			t.Fatalf("rate %d: after RIGHT and a zap: pending %+v at %v facing %v", rate, v.Pending, v.Predicted, v.Facing)
		}
		if len(v.Beam) != 2 || v.Beam[1] != (grid.Pos{X: 13, Y: 10}) || v.BeamAt != w.Now() {
			t.Errorf("rate %d: beam %v at %v, want (12,10),(13,10) now", rate, v.Beam, v.BeamAt)
		}
		if p, _ := points(t, v, "ann"); p != 0 || v.LastZap != nil {
			t.Errorf("rate %d: the point shows before the server said so: %d, %+v", rate, p, v.LastZap)
		}
		w.Advance(client.BeamFlash)
		if v := ann.View(); v.Beam != nil {
			t.Errorf("rate %d: the beam still shows after %v", rate, client.BeamFlash)
		}
		w.Advance(400 * ms)
		v = ann.View()
		if len(v.Pending) != 0 || v.Predicted != (grid.Pos{X: 11, Y: 10}) || v.Corrections != 0 {
			t.Errorf("rate %d: after the acks: pending %+v at %v, %d corrections", rate, v.Pending, v.Predicted, v.Corrections)
		}
		if p, _ := points(t, v, "ann"); p != 1 || v.LastZap == nil || !strings.HasPrefix(v.LastZap.Line(), "hit bob (rewound ") {
			t.Errorf("rate %d: ann's point %d, result %+v", rate, p, v.LastZap)
		}
		bv := bob.View()
		if !bv.Frozen || bv.LastTagged == nil || bv.LastTagged.By != "ann" || bv.FrozenUntil <= w.Now() {
			t.Fatalf("rate %d: bob frozen %v until %v, tagged %+v", rate, bv.Frozen, bv.FrozenUntil, bv.LastTagged)
		}
		bob.Press(grid.Down)
		if v := bob.View(); v.Predicted != (grid.Pos{X: 13, Y: 10}) || len(v.Pending) != 1 {
			t.Errorf("rate %d: a frozen player's move was predicted: %v, pending %+v", rate, v.Predicted, v.Pending)
		}
		w.Advance(3 * time.Second)
		bob.Zap() // any message lets an immediate-mode server respawn bob
		w.Advance(time.Second)
		// Respawned away from where ann tagged him, and drawn where the
		// server has him, with no correction.
		if v := bob.View(); v.Frozen || v.Predicted == (grid.Pos{X: 13, Y: 10}) || v.Predicted != v.Server || len(v.Pending) != 0 || v.Corrections != 0 {
			t.Errorf("rate %d: bob after the freeze: frozen %v at %v, pending %+v, %d corrections", rate, v.Frozen, v.Predicted, v.Pending, v.Corrections)
		}
	}
}

// TestRoundEndsInTheViews: every view shows the round, the time left, and
// at its end the winner and the scores back at 0.
func TestRoundEndsInTheViews(t *testing.T) {
	w := New(world.Config{Rate: 20, Spawns: []grid.Pos{{X: 12, Y: 10}}, LagComp: true, Unlag: world.DefaultUnlag, Round: 2 * time.Second})
	ann := w.Join("ann", client.Options{Latency: 50 * ms})
	bob := w.Join("bob", client.Options{Latency: 50 * ms})
	w.Join("bot-1", client.Options{Latency: 50 * ms, Bot: true}) // spawns away from the humans
	w.Advance(200 * ms)
	ann.Zap()
	w.Advance(500 * ms)
	v := bob.View()
	if v.Round != 1 || v.RoundLeft <= 0 || v.RoundLeft > 2*time.Second || v.LastWinner != nil {
		t.Errorf("during round 1: round %d, %v left, winner %+v", v.Round, v.RoundLeft, v.LastWinner)
	}
	if p, _ := points(t, v, "ann"); p != 1 {
		t.Errorf("ann's points in bob's view: %d", p)
	}
	if len(v.Scoreboard) != 3 {
		t.Errorf("scoreboard %+v, want the three players", v.Scoreboard)
	}
	for _, l := range v.Scoreboard {
		if l.Bot != (l.Name == "bot-1") || l.Me != (l.Name == "bob") {
			t.Errorf("scoreboard line %+v: only bot-1 is a bot, and bob is me", l)
		}
	}
	w.Advance(2 * time.Second)
	for _, c := range []*Client{ann, bob} {
		v := c.View()
		if v.Round != 2 || v.LastWinner == nil || *v.LastWinner != (client.Winner{Name: "ann", Points: 1}) {
			t.Errorf("%s after the round: round %d, winner %+v", c.Name(), v.Round, v.LastWinner)
		}
		if p, _ := points(t, v, "ann"); p != 0 {
			t.Errorf("%s: ann still has %d points in the new round", c.Name(), p)
		}
	}
}
