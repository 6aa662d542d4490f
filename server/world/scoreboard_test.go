package world

import (
	"fmt"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
	"gridlag/server/world/worldtest"
)

// TestBigWorldScoreboardIsTheBestAndYou: with more than ScoreboardTop+1
// players, each one's Scores (version 3) lists the ScoreboardTop best and
// itself, not the whole world; with fewer, everyone.
func TestBigWorldScoreboardIsTheBestAndYou(t *testing.T) {
	c := NewCore(Config{Map: worldtest.OpenMap(t, 60, 30), Spawn: grid.Pos{X: 30, Y: 15}, Rate: 20})
	n := ScoreboardTop + 8
	for i := 1; i <= n; i++ {
		joinVersion(t, c, nil, 0, ConnID(i), fmt.Sprint("p", i), false, 3)
	}
	c.slots[n].points = 3 // the last to join leads
	c.Ping(time.Second)
	out := c.Outbox().Envelopes
	for i := 1; i <= n; i++ {
		sc, ok := find[*protocol.Scores](out, ConnID(i))
		if !ok {
			t.Fatalf("player %d got no scoreboard", i)
		}
		want := ScoreboardTop
		if i > ScoreboardTop-1 && i != n {
			want++ // itself, below the best
		}
		listed, leader := false, false
		for _, e := range sc.Players {
			listed = listed || e.ID == grid.PlayerID(i)
			leader = leader || e.ID == grid.PlayerID(n) && e.Points == 3
		}
		if len(sc.Players) != want || !listed || !leader {
			t.Errorf("player %d's scoreboard lists %d (itself: %v, the leader: %v), want %d", i, len(sc.Players), listed, leader, want)
		}
	}
}
