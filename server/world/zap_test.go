package world

import (
	"slices"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
	"gridlag/server/world/worldtest"
)

// partFour sets up the articles' Part IV case on an open map in immediate
// mode (unless cfg says otherwise; then a tick at 1 ms shows them): ann
// (conn 1) at (10,10) faces bob (conn 2) at (12,10); at 1 s bob steps
// down out of ann's line.
func partFour(t *testing.T, cfg Config) *Core {
	t.Helper()
	cfg.Map = worldtest.OpenMap(t, 30, 20)
	cfg.Spawn, cfg.Spawns = grid.Pos{X: 10, Y: 10}, []grid.Pos{{X: 12, Y: 10}}
	c := NewCore(cfg)
	join(t, c, 0, 1, "ann", false)
	join(t, c, 0, 2, "bob", false)
	if cfg.Rate > 0 {
		c.Tick(ms) // the broadcast that shows them: their lives begin
	}
	c.Receive(time.Second, 2, &protocol.Input{Seq: 1, Dir: grid.Down})
	c.Outbox()
	return c
}

// zapAt sends ann's zap number seq at now, showing the world at server
// time seen, and returns what the server sent.
func zapAt(t *testing.T, c *Core, now, seen time.Duration, seq uint32) []Envelope {
	t.Helper()
	c.Receive(now, 1, &protocol.Zap{Seq: seq, RenderNS: uint64(seen)})
	return c.Outbox().Envelopes
}

func find[M protocol.Message](out []Envelope, to ConnID) (m M, ok bool) {
	for _, e := range out {
		if v, is := e.Msg.(M); is && e.To == to {
			return v, true
		}
	}
	return m, false
}

// TestPartFourLagCompensation: ann, 200 ms behind, zaps at 1.2 s where she
// still sees bob (the world of 0.9 s). With lag compensation bob is tagged
// where ann saw him; without it ann misses, told that bob had left the
// line; with Unlag 200 ms the rewind stops at 1.0 s, after bob left.
func TestPartFourLagCompensation(t *testing.T) {
	tests := []struct {
		name    string
		cfg     Config
		outcome protocol.ZapOutcome
		rewind  uint16
		judged  grid.Pos // where bob was in the world the zap was judged against
	}{
		{"lag compensation", Config{LagComp: true, Unlag: DefaultUnlag}, protocol.ZapHit, 300, grid.Pos{X: 12, Y: 10}},
		{"no lag compensation", Config{LagComp: false, Unlag: DefaultUnlag}, protocol.ZapLeft, 0, grid.Pos{X: 12, Y: 11}},
		{"clamped by unlag", Config{LagComp: true, Unlag: 200 * ms}, protocol.ZapLeft, 200, grid.Pos{X: 12, Y: 11}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := partFour(t, tt.cfg)
			out := zapAt(t, c, 1200*ms, 900*ms, 1)
			res, ok := find[*protocol.ZapResult](out, 1)
			if !ok {
				t.Fatalf("no ZapResult to ann: %v", describe(out))
			}
			if res.Outcome != tt.outcome || res.Target != 2 || res.RewindMS != tt.rewind || res.Seq != 1 {
				t.Errorf("result %+v, want %v on bob rewound %d ms", res, tt.outcome, tt.rewind)
			}
			if st := statesTo(out, 1); len(st) != 1 || st[0].Ack != 1 {
				t.Errorf("states to ann %+v, want the zap acknowledged", st)
			}
			if z, _ := c.LastZap(); z.Seen != (grid.Pos{X: 12, Y: 10}) || z.Judged != tt.judged {
				t.Errorf("LastZap: ann saw bob at %v, the server judged him at %v; want (12,10) and %v", z.Seen, z.Judged, tt.judged)
			}
			tag, tagged := find[*protocol.Tagged](out, 2)
			scores, scored := find[*protocol.Ranking](out, 1)
			if tt.outcome != protocol.ZapHit {
				if tagged || scored || c.Stats().Tags != 0 {
					t.Errorf("a miss tagged or scored: %v", describe(out))
				}
				return
			}
			if !tagged || *tag != (protocol.Tagged{By: 1, Seen: grid.Pos{X: 12, Y: 10}, AgoMS: 300, FrozenMS: 2000}) {
				t.Errorf("bob told %+v, want tagged by ann who saw him at (12,10) 300 ms ago", tag)
			}
			if !scored || entries(scores)[1].Points != 1 || !entries(scores)[2].Frozen || scores.Rank != 1 {
				t.Errorf("scores %+v, want ann 1 point, bob frozen", scores)
			}
			if z, _ := c.LastZap(); !z.Hit() || z.Rewind != 300*ms || z.Target != 2 {
				t.Errorf("LastZap %+v", z)
			}
		})
	}
}

// TestZapInCooldownIsAcknowledgedAndDoesNothing: a second zap within a
// second is acknowledged, told "cooldown", and tags nobody.
func TestZapInCooldownIsAcknowledgedAndDoesNothing(t *testing.T) {
	c := partFour(t, Config{LagComp: true, Unlag: DefaultUnlag})
	zapAt(t, c, 1200*ms, 1100*ms, 1) // a miss: bob left at 1 s
	c.Receive(1300*ms, 2, &protocol.Input{Seq: 2, Dir: grid.Up})
	c.Outbox()
	out := zapAt(t, c, 1500*ms, 1400*ms, 2)
	res, _ := find[*protocol.ZapResult](out, 1)
	if res == nil || res.Outcome != protocol.ZapCooldown {
		t.Fatalf("second zap: %v, result %+v; want cooldown", describe(out), res)
	}
	if st := statesTo(out, 1); len(st) != 1 || st[0].Ack != 2 {
		t.Errorf("states %+v, want the zap acknowledged", st)
	}
	if _, tagged := find[*protocol.Tagged](out, 2); tagged || c.Stats().Tags != 0 {
		t.Errorf("a zap in cooldown tagged bob")
	}
	out = zapAt(t, c, 2200*ms, 2100*ms, 3)
	if res, _ := find[*protocol.ZapResult](out, 1); res == nil || res.Outcome != protocol.ZapHit {
		t.Errorf("after the cooldown: %+v, want a hit", res)
	}
}

// TestFrozenPlayerRespawns: a tagged player's moves are acknowledged and
// move nothing; after FreezeTime it respawns at a free cell away from
// where it was tagged and from the human spawns, and moves again.
func TestFrozenPlayerRespawns(t *testing.T) {
	c := partFour(t, Config{LagComp: true, Unlag: DefaultUnlag})
	zapAt(t, c, 1200*ms, 900*ms, 1)
	c.Receive(1500*ms, 2, &protocol.Input{Seq: 2, Dir: grid.Down})
	out := c.Outbox().Envelopes
	// The State says what changed: bob did not move.
	if st := statesTo(out, 2); len(st) != 1 || st[0].Ack != 2 || len(st[0].Players) != 0 || c.world.Players(nil)[1].Pos != (grid.Pos{X: 12, Y: 11}) {
		t.Errorf("frozen move: %+v, want acknowledged, bob still at (12,11)", st)
	}
	c.Ping(3200 * ms)
	out = c.Outbox().Envelopes
	st := statesTo(out, 2)
	if len(st) != 1 {
		t.Fatalf("after 2 s: %v, want bob's State with his respawn", describe(out))
	}
	// Away from where he was tagged (the shooter is still in line there)
	// and from the human spawns, on a free floor cell.
	at := posOf(t, st[0], 2)
	if at == (grid.Pos{X: 12, Y: 11}) || slices.Contains(c.spawns, at) || c.cfg.Map.Wall(at) {
		t.Fatalf("bob respawned at %v: want a floor cell away from (12,11) and from the spawns %v", at, c.spawns)
	}
	if sc, ok := find[*protocol.Ranking](out, 2); !ok || entries(sc)[2].Frozen {
		t.Errorf("scores after the respawn %+v, want bob thawed", sc)
	}
	d := grid.Down
	for _, try := range []grid.Dir{grid.Down, grid.Up, grid.Left, grid.Right} {
		if c.world.Free(at.Add(try)) {
			d = try
			break
		}
	}
	c.Receive(3300*ms, 2, &protocol.Input{Seq: 3, Dir: d})
	if st := statesTo(c.Outbox().Envelopes, 2); len(st) != 1 || posOf(t, st[0], 2) != at.Add(d) {
		t.Errorf("after the respawn bob cannot move %v from %v: %+v", d, at, st)
	}
}

// TestRoundEndsAndRestarts: at the end of a round everyone hears the
// winner, the scores start again from 0 and the round number goes up.
func TestRoundEndsAndRestarts(t *testing.T) {
	c := partFour(t, Config{LagComp: true, Unlag: DefaultUnlag, Rate: 20, Round: 5 * time.Second})
	zapAt(t, c, 1200*ms, 900*ms, 1)
	c.Tick(4950 * ms) // bob thaws: the scoreboard says so, still round 1
	if sc, ok := find[*protocol.Ranking](c.Outbox().Envelopes, 2); !ok || sc.Round != 1 || sc.Winner != 0 || entries(sc)[1].Points != 1 {
		t.Errorf("scores before the end of the round: %+v", sc)
	}
	c.Tick(5 * time.Second)
	out := c.Outbox().Envelopes
	for _, to := range []ConnID{1, 2} {
		sc, ok := find[*protocol.Ranking](out, to)
		if !ok {
			t.Fatalf("no scores to %d at the end of the round: %v", to, describe(out))
		}
		if sc.Round != 2 || sc.Winner != 1 || sc.WinnerPoints != 1 || sc.WinnerName != "ann" || sc.LeftMS != 5000 || entries(sc)[1].Points != 0 {
			t.Errorf("to %d: %+v, want round 2, ann won with 1 point, scores reset, 5 s left", to, sc)
		}
	}
	if r, ends, w := c.Round(); r != 2 || ends != 10*time.Second || w.ID != 1 {
		t.Errorf("Round() = %d, %v, %+v", r, ends, w)
	}
}

// TestHistoryKeepsASecond: a zap seeing the world up to a second back is
// judged against it; the trail forgets what is older.
func TestHistoryKeepsASecond(t *testing.T) {
	tr := newTrail(0, grid.Pos{X: 1, Y: 1})
	for i := 1; i <= 100; i++ {
		tr.push(time.Duration(i)*100*ms, grid.Pos{X: i, Y: 1}, HistoryKeep)
	}
	if got := tr.at(9 * time.Second); got != (grid.Pos{X: 90, Y: 1}) {
		t.Errorf("at 9 s: %v, want (90,1)", got)
	}
	if got := tr.at(0); got != (grid.Pos{X: 90, Y: 1}) {
		t.Errorf("long ago: %v, want the oldest kept, (90,1)", got)
	}
	if tr.n > 12 {
		t.Errorf("%d entries kept for a second of 10 moves", tr.n)
	}
}

// TestFrozenPlayersThawInTurn: players tagged at different times each
// respawn when their own freeze ends, not before.
func TestFrozenPlayersThawInTurn(t *testing.T) {
	c := partFour(t, Config{})
	ann, bob := c.conns[1], c.conns[2]
	c.tag(2*time.Second, bob, ann, ZapRecord{})
	c.tag(3*time.Second, ann, bob, ZapRecord{})
	c.Outbox()
	freeze := time.Duration(grid.FreezeTime)
	for _, step := range []struct {
		now      time.Duration
		respawns uint64
	}{
		{2*time.Second + freeze - 1, 0},
		{2*time.Second + freeze, 1}, // ann's freeze ends
		{3*time.Second + freeze - 1, 1},
		{3*time.Second + freeze, 2}, // bob's
	} {
		c.Ping(step.now)
		c.Outbox()
		if got := c.Stats().Respawns; got != step.respawns {
			t.Fatalf("at %v: %d respawns, want %d", step.now, got, step.respawns)
		}
	}
}

// entries returns a Ranking's entries by player ID.
func entries(r *protocol.Ranking) map[grid.PlayerID]protocol.RankEntry {
	m := map[grid.PlayerID]protocol.RankEntry{}
	for _, e := range r.Players {
		m[e.ID] = e
	}
	return m
}
