package world

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
	"gridlag/server/world/worldtest"
)

// rankingTo returns the Ranking in out addressed to conn, nil if none.
func rankingTo(out []Envelope, conn ConnID) *protocol.Ranking {
	r, _ := find[*protocol.Ranking](out, conn)
	return r
}

// TestRankingIsTheRooms: on a map wider than an area of interest, a
// player of version 4 gets the room's scoreboard, not its area's: every
// player by name however far away, most points first, the players online
// and its rank; the next one names none of those again; a version-3
// client gets its Scores as before.
func TestRankingIsTheRooms(t *testing.T) {
	cfg := Config{Rate: 20, Map: worldtest.OpenMap(t, 600, 30), Round: 10 * time.Second}
	cfg.Spawn, cfg.Spawns = grid.Pos{X: 10, Y: 10}, []grid.Pos{{X: 400, Y: 10}, {X: 580, Y: 20}}
	c := NewCore(cfg)
	joinVersion(t, c, nil, 0, 1, "ann", false, protocol.Version)
	joinVersion(t, c, nil, 0, 2, "日本語", false, protocol.Version)
	joinVersion(t, c, nil, 0, 3, "bot-1", true, 3)
	c.Tick(50 * ms)
	c.slots[2].points = 2
	c.Ping(time.Second) // the joins' scoreboard
	out := c.Outbox().Envelopes
	for _, s := range statesTo(out, 1) {
		if len(s.Players) > 1 {
			t.Fatalf("ann sees %+v: the test needs the others out of her view", s.Players)
		}
	}
	r := rankingTo(out, 1)
	if r == nil {
		t.Fatalf("ann got no Ranking: %s", describe(out))
	}
	want := []protocol.RankEntry{
		{ID: 2, Points: 2, Named: true, Color: 2, Name: "日本語"},
		{ID: 1, Named: true, Color: 1, Name: "ann"},
		{ID: 3, Bot: true, Named: true, Color: 3, Name: "bot-1"},
	}
	if r.Online != 3 || r.Rank != 2 || r.Round != 1 || r.LeftMS != 9000 || !slices.Equal(r.Players, want) {
		t.Errorf("ann's Ranking %+v, want 3 online, rank 2, round 1 with 9 s left, entries %+v", r, want)
	}
	if r := rankingTo(out, 2); r == nil || r.Rank != 1 {
		t.Errorf("the leader's Ranking %+v, want rank 1", r)
	}
	if rankingTo(out, 3) != nil {
		t.Error("the version-3 client got a Ranking")
	}
	if sc, ok := find[*protocol.Scores](out, 3); !ok || len(sc.Players) != 3 {
		t.Errorf("the version-3 client's Scores %+v, want the 3 players", sc)
	}

	// ann tags someone: the next Ranking names nobody again.
	c.slots[1].points = 3
	c.begin()
	c.tellScores(2 * time.Second)
	r = rankingTo(c.Outbox().Envelopes, 1)
	for _, e := range r.Players {
		if e.Named || e.Name != "" {
			t.Errorf("second Ranking names %+v again", e)
		}
	}
	if r.Rank != 1 || r.Players[0].ID != 1 {
		t.Errorf("second Ranking %+v, want ann first", r)
	}
}

// TestRankingNamesTheWinner: the round's winner is named in the first
// Ranking after the round, even to a player that joins after the winner
// left, and not again.
func TestRankingNamesTheWinner(t *testing.T) {
	cfg := Config{Rate: 20, Map: worldtest.OpenMap(t, 40, 20), Round: 5 * time.Second}
	c := NewCore(cfg)
	join(t, c, 0, 1, "ann", false)
	join(t, c, 0, 2, "bob", false)
	c.Tick(50 * ms)
	c.slots[2].points = 4
	c.Tick(5 * time.Second)
	out := c.Outbox().Envelopes
	for _, to := range []ConnID{1, 2} {
		if r := rankingTo(out, to); r == nil || r.Winner != 2 || r.WinnerPoints != 4 || r.WinnerName != "bob" || r.Round != 2 {
			t.Errorf("Ranking to %d at the end of the round: %+v, want bob the winner by name", to, r)
		}
	}
	c.Receive(5100*ms, 2, &protocol.Bye{Reason: "done"})
	c.Ping(6 * time.Second)
	if r := rankingTo(c.Outbox().Envelopes, 1); r == nil || r.Winner != 2 || r.WinnerName != "" || r.Online != 1 {
		t.Errorf("ann's Ranking after bob left: %+v, want bob still the winner, not named again", r)
	}
	join(t, c, 6100*ms, 3, "cat", false)
	c.Ping(7 * time.Second)
	if r := rankingTo(c.Outbox().Envelopes, 3); r == nil || r.Winner != 2 || r.WinnerName != "bob" {
		t.Errorf("the newcomer's Ranking %+v, want bob named", r)
	}
}

// TestRankingIsTheBestAndYou: with more than ScoreboardTop+1 players, a
// Ranking lists the ScoreboardTop best, most points first, and the
// recipient last when it is not among them, with its rank (ties share
// one); a newcomer to the top is named, those named before are not.
func TestRankingIsTheBestAndYou(t *testing.T) {
	c := NewCore(Config{Map: worldtest.OpenMap(t, 60, 30), Spawn: grid.Pos{X: 30, Y: 15}, Rate: 20})
	n := ScoreboardTop + 8
	for i := 1; i <= n; i++ {
		join(t, c, 0, ConnID(i), fmt.Sprint("p", i), false)
	}
	c.slots[n].points = 3  // the last to join leads
	c.slots[20].points = 1 // and one more among the top
	c.Ping(time.Second)
	out := c.Outbox().Envelopes
	for i := 1; i <= n; i++ {
		r := rankingTo(out, ConnID(i))
		if r == nil {
			t.Fatalf("player %d got no Ranking", i)
		}
		top := []grid.PlayerID{grid.PlayerID(n), 20, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}
		rank := 3
		switch {
		case i == n:
			rank = 1
		case i == 20:
			rank = 2
		case i > 14:
			top = append(top, grid.PlayerID(i))
		}
		if len(r.Players) != len(top) || r.Rank != uint16(rank) || r.Online != uint16(n) {
			t.Fatalf("player %d's Ranking lists %d, rank %d of %d; want %d, rank %d of %d", i, len(r.Players), r.Rank, r.Online, len(top), rank, n)
		}
		for k, e := range r.Players {
			if e.ID != top[k] || !e.Named {
				t.Errorf("player %d's entry %d is %+v, want player %d named", i, k, e, top[k])
			}
		}
	}
	c.slots[17].points = 2 // into the top, in place of player 14
	c.begin()
	c.tellScores(2 * time.Second)
	r := rankingTo(c.Outbox().Envelopes, 1)
	for _, e := range r.Players {
		if e.Named != (e.ID == 17) {
			t.Errorf("entry %+v: only player 17, new to the list, should be named", e)
		}
	}
}
