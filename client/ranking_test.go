package client

import (
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
)

// TestRankingNamesPlayersOutOfView: the scoreboard is the Ranking's, in
// its order, with the names it gives (or gave before) of players never
// seen, their ranks (ties share one), the room's players, the player's
// own rank and the winner by name.
func TestRankingNamesPlayersOutOfView(t *testing.T) {
	c := playing(t, Options{Name: "ada"})
	c.Receive(10*ms, &protocol.Ranking{
		Round: 2, LeftMS: 60000, Online: 40, Rank: 31, Winner: 7, WinnerPoints: 9, WinnerName: "日本語\x1b[2J",
		Players: []protocol.RankEntry{
			{ID: 7, Points: 5, Named: true, Color: 3, Name: "日本語"},
			{ID: 9, Bot: true, Points: 5, Named: true, Color: 4, Name: "bot-9"},
			{ID: 4, Frozen: true, Points: 2, Named: true, Color: 5, Name: "🎉 party"},
			{ID: 1, Named: true, Color: 1, Name: "ada"},
		},
	})
	v := c.View(20 * ms)
	want := []ScoreLine{
		{ID: 7, Name: "日本語", Color: 3, Points: 5, Rank: 1},
		{ID: 9, Name: "bot-9", Color: 4, Bot: true, Points: 5, Rank: 1},
		{ID: 4, Name: "🎉 party", Color: 5, Frozen: true, Points: 2, Rank: 3},
		{ID: 1, Name: "ada", Color: 1, Me: true, Rank: 31},
	}
	if len(v.Scoreboard) != len(want) {
		t.Fatalf("scoreboard %+v, want %+v", v.Scoreboard, want)
	}
	for i := range want {
		if v.Scoreboard[i] != want[i] {
			t.Errorf("line %d: %+v, want %+v", i, v.Scoreboard[i], want[i])
		}
	}
	if v.Online != 40 || v.Rank != 31 || v.Round != 2 || v.RoundLeft != 59990*ms {
		t.Errorf("online %d, rank %d, round %d, %v left", v.Online, v.Rank, v.Round, v.RoundLeft)
	}
	if v.LastWinner == nil || v.LastWinner.Name != protocol.SanitizeName("日本語\x1b[2J") || v.LastWinner.Points != 9 {
		t.Errorf("winner %+v, want 日本語, sanitised", v.LastWinner)
	}
	// The next names nobody again: the names stand, the order is the new one.
	c.Receive(30*ms, &protocol.Ranking{
		Round: 2, LeftMS: 50000, Online: 40, Rank: 30, Winner: 7, WinnerPoints: 9,
		Players: []protocol.RankEntry{{ID: 4, Points: 6}, {ID: 7, Points: 5}, {ID: 9, Bot: true, Points: 5}, {ID: 1, Points: 1}},
	})
	v = c.View(30 * ms)
	if v.Scoreboard[0].Name != "🎉 party" || v.Scoreboard[0].Frozen || v.Scoreboard[1].Name != "日本語" || v.Scoreboard[3].Rank != 30 {
		t.Errorf("second scoreboard %+v", v.Scoreboard)
	}
	if v.LastWinner == nil || v.LastWinner.Name != protocol.SanitizeName("日本語\x1b[2J") {
		t.Errorf("winner after a Ranking that does not name it: %+v", v.LastWinner)
	}
	// A zap result names a target by the scoreboard's word when it was
	// never in view.
	c.Receive(40*ms, &protocol.ZapResult{Seq: 1, Outcome: protocol.ZapProtected, Target: 4, Dir: grid.Right})
	if z := c.View(40 * ms).LastZap; z == nil || z.Line() != "miss: 🎉 party was protected" {
		t.Errorf("zap result %+v", z)
	}
}

// TestOwnFreezeFromRanking: the player's own line says when it is frozen
// and when it thaws, as Scores did.
func TestOwnFreezeFromRanking(t *testing.T) {
	c := playing(t, Options{})
	c.Receive(10*ms, &protocol.Tagged{By: 2, FrozenMS: 2000})
	c.Receive(10*ms, &protocol.Ranking{Online: 2, Rank: 2, Players: []protocol.RankEntry{{ID: 2, Points: 1, Named: true, Name: "bob"}, {ID: 1, Frozen: true, Named: true, Name: "ada"}}})
	if v := c.View(20 * ms); !v.Frozen {
		t.Fatal("not frozen after the Tagged and the Ranking")
	}
	c.Receive(2010*ms, &protocol.Ranking{Online: 2, Rank: 2, Players: []protocol.RankEntry{{ID: 2, Points: 1}, {ID: 1}}})
	c.Receive(2010*ms, state(0, 2000*ms, at(1, 30, 5)))
	if v := c.View(2020 * ms); v.Frozen || v.Corrections != 0 || v.Server != (grid.Pos{X: 30, Y: 5}) {
		t.Errorf("after the thaw: frozen %v, %d corrections, at %v; want a respawn at (30,5), no correction", v.Frozen, v.Corrections, v.Server)
	}
}

// TestProtectionIsDrawn: another player is drawn protected while the
// world it is drawn in is before the end of its protection; the player's
// own protection counts down on its clock.
func TestProtectionIsDrawn(t *testing.T) {
	c := playing(t, Options{})
	c.Receive(0, &protocol.Join{Player: protocol.PlayerInfo{ID: 2, Color: 2, Name: "bob"}})
	c.Receive(0, &protocol.Protect{ID: 1, UntilNS: uint64(2 * time.Second)})
	c.Receive(0, &protocol.Protect{ID: 2, UntilNS: uint64(2 * time.Second)})
	bob := func(now time.Duration) (drawn, protected bool, v View) {
		v = c.View(now)
		for _, o := range v.Others {
			if o.ID == 2 {
				return true, o.Protected, v
			}
		}
		return false, false, v
	}
	shown, was := 0, false
	for now := 50 * ms; now <= 3*time.Second; now += 50 * ms {
		c.Receive(now, state(0, now, at(1, 10, 10), at(2, 12, 10)))
		drawn, protected, v := bob(now)
		if v.Protected != (now < 2*time.Second) {
			t.Fatalf("at %v: own protection %v (until %v)", now, v.Protected, v.ProtectedUntil)
		}
		for _, l := range v.Scoreboard {
			if l.Me && l.Protected != v.Protected {
				t.Fatalf("at %v: own scoreboard line protected %v, the view %v", now, l.Protected, v.Protected)
			}
		}
		if !drawn {
			continue
		}
		shown++
		if protected != (v.RenderTime < 2*time.Second) {
			t.Fatalf("at %v (render time %v): bob protected %v", now, v.RenderTime, protected)
		}
		was = was || protected
	}
	if _, protected, _ := bob(3 * time.Second); protected || !was || shown < 40 {
		t.Errorf("bob drawn %d times, protected once: %v, at the end: %v", shown, was, protected)
	}
}
