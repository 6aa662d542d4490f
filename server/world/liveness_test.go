package world

import (
	"cmp"
	"fmt"
	"slices"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
	"gridlag/server/world/worldtest"
)

// The liveness timeline, on an open 30x20 map, on the virtual clock:
//
//	0      ann (1) joins at (12,13), bob (2) at (12,10), dan (3) at (7,3),
//	       eve (4) at (14,10)
//	500ms  ann steps up to (12,12), facing bob; dan up to (7,2), facing
//	       (7,1); eve left to (13,10), facing bob
//	tag    ann zaps: bob is tagged at (12,10), frozen for 2 s (1 s, or
//	       2.5 s with a protection of 2 s, whose join's protection ends
//	       at 2 s)
//	+2s    bob thaws and respawns at (7,1), the first respawn cell of this
//	       map: in dan's line, out of eve's
//
// In immediate mode the server is pinged every 100 ms (so bob respawns
// at 3 s sharp); at an update rate it ticks.
const (
	liveAnn, liveBob, liveDan, liveEve ConnID = 1, 2, 3, 4
)

var (
	bobTagged  = grid.Pos{X: 12, Y: 10}
	bobRespawn = grid.Pos{X: 7, Y: 1}
)

// livenessCore plays the timeline up to (not including) until, with tag
// the time of ann's zap, and returns the Core.
func livenessCore(t *testing.T, cfg Config, tag, until time.Duration, versions map[ConnID]uint16) *Core {
	t.Helper()
	cfg.Map = worldtest.OpenMap(t, 30, 20)
	cfg.Spawn, cfg.Spawns = grid.Pos{X: 12, Y: 13}, []grid.Pos{{X: 12, Y: 10}, {X: 7, Y: 3}, {X: 14, Y: 10}}
	c := NewCore(cfg)
	version := func(id ConnID) uint16 {
		if v, ok := versions[id]; ok {
			return v
		}
		return protocol.Version
	}
	for i, name := range []string{"ann", "bob", "dan", "eve"} {
		joinVersion(t, c, nil, 0, ConnID(i+1), name, false, version(ConnID(i+1)))
	}
	step := 100 * ms
	if cfg.Rate > 0 {
		step = time.Second / time.Duration(cfg.Rate)
	}
	type call struct {
		at time.Duration
		do func(now time.Duration)
	}
	calls := []call{
		{500 * ms, func(now time.Duration) {
			c.Receive(now, liveAnn, &protocol.Input{Seq: 1, Dir: grid.Up})
			c.Receive(now, liveDan, &protocol.Input{Seq: 1, Dir: grid.Up})
			c.Receive(now, liveEve, &protocol.Input{Seq: 1, Dir: grid.Left})
		}},
		{tag, func(now time.Duration) { c.Receive(now, liveAnn, &protocol.Zap{Seq: 2, RenderNS: uint64(now)}) }},
	}
	for now := time.Duration(0); now < until; now += step {
		calls = append(calls, call{now, func(now time.Duration) { beat(c, cfg, now) }})
	}
	slices.SortStableFunc(calls, func(a, b call) int { return cmp.Compare(a.at, b.at) })
	for _, e := range calls {
		if e.at < until {
			e.do(e.at)
		}
	}
	c.Outbox()
	return c
}

// beat is the clock's call at now: a Tick at an update rate, a Ping in
// immediate mode.
func beat(c *Core, cfg Config, now time.Duration) {
	if cfg.Rate > 0 {
		c.Tick(now)
	} else {
		c.Ping(now)
	}
}

// TestLivenessAgainstRewind judges zaps against every combination of a
// target alive, frozen, thawed and respawned elsewhere, not yet shown at
// its respawn cell, protected, and joined after the moment rewound to,
// with the moment the shooter saw before, during and after each, within
// and beyond the rewind window: a player is tagged only where it stood
// at a moment it could be tagged then, in the life it is in now.
func TestLivenessAgainstRewind(t *testing.T) {
	lag := Config{LagComp: true, Unlag: time.Second}
	protect := lag
	protect.Protect = 2 * time.Second
	tests := []struct {
		name      string
		cfg       Config
		tag       time.Duration // ann's zap at bob
		shooter   ConnID
		now, seen time.Duration
		want      protocol.ZapOutcome
		at        grid.Pos // where the server judged bob, for an outcome naming him
	}{
		{"alive, seen alive", lag, time.Second, liveEve, 900 * ms, 700 * ms, protocol.ZapHit, bobTagged},
		{"frozen now, seen before the tag", lag, time.Second, liveEve, 1500 * ms, 900 * ms, protocol.ZapTagged, bobTagged},
		{"frozen now, seen frozen", lag, time.Second, liveEve, 2 * time.Second, 1500 * ms, protocol.ZapTagged, bobTagged},
		{"respawned, seen frozen where tagged", lag, time.Second, liveEve, 3300 * ms, 2900 * ms, protocol.ZapTagged, bobTagged},
		{"respawned, seen in the life before, beyond the window", lag, time.Second, liveEve, 3300 * ms, 950 * ms, protocol.ZapTagged, bobTagged},
		{"respawned, seen frozen, window clamped after the respawn", Config{LagComp: true, Unlag: 200 * ms}, time.Second, liveEve, 3500 * ms, 2900 * ms, protocol.ZapTagged, bobTagged},
		{"respawned, seen frozen, no lag compensation", Config{}, time.Second, liveEve, 3300 * ms, 2900 * ms, protocol.ZapTagged, bobTagged},
		{"respawned, seen respawned, out of line", lag, time.Second, liveEve, 3500 * ms, 3200 * ms, protocol.ZapRange, grid.Pos{}},
		{"respawned into line, seen respawned", lag, time.Second, liveDan, 3500 * ms, 3200 * ms, protocol.ZapHit, bobRespawn},
		{"respawned into line, seen frozen elsewhere", lag, time.Second, liveDan, 3500 * ms, 2900 * ms, protocol.ZapWall, grid.Pos{}},
		{"respawned into line, not shown there yet (rate 20)", Config{LagComp: true, Unlag: time.Second, Rate: 20}, 1010 * ms, liveDan, 3020 * ms, 3020 * ms, protocol.ZapWall, grid.Pos{}},
		{"respawned into line, shown (rate 20)", Config{LagComp: true, Unlag: time.Second, Rate: 20}, 1010 * ms, liveDan, 3120 * ms, 3060 * ms, protocol.ZapHit, bobRespawn},
		{"protected: respawned, seen protected", protect, 2500 * ms, liveDan, 5 * time.Second, 4800 * ms, protocol.ZapProtected, bobRespawn},
		{"protected: seen protected, unprotected now", protect, 2500 * ms, liveDan, 6600 * ms, 6400 * ms, protocol.ZapProtected, bobRespawn},
		{"protected: seen after the protection", protect, 2500 * ms, liveDan, 6800 * ms, 6600 * ms, protocol.ZapHit, bobRespawn},
		{"protected: no lag compensation judges now", Config{Protect: 2 * time.Second}, 2500 * ms, liveDan, 6600 * ms, 6400 * ms, protocol.ZapHit, bobRespawn},
		{"protected: just joined", protect, 10 * time.Second, liveEve, 1500 * ms, 1400 * ms, protocol.ZapProtected, bobTagged},
		{"protected: joined, seen after the protection", protect, 10 * time.Second, liveEve, 2300 * ms, 2100 * ms, protocol.ZapHit, bobTagged},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := livenessCore(t, tt.cfg, tt.tag, tt.now, nil)
			if tt.now > tt.tag && c.Stats().Tags != 1 {
				t.Fatalf("ann's zap at %v tagged %d", tt.tag, c.Stats().Tags)
			}
			c.Receive(tt.now, tt.shooter, &protocol.Zap{Seq: 2, RenderNS: uint64(tt.seen)})
			out := c.Outbox().Envelopes
			res, ok := find[*protocol.ZapResult](out, tt.shooter)
			if !ok {
				t.Fatalf("no ZapResult: %s", describe(out))
			}
			z, _ := c.LastZap()
			if res.Outcome != tt.want || z.Outcome != tt.want {
				t.Fatalf("zap at %v seeing %v: %v (judged %+v), want %v", tt.now, tt.seen, res.Outcome, z, tt.want)
			}
			if tt.at != (grid.Pos{}) && (res.Target != 2 || z.Seen != tt.at) {
				t.Errorf("judged bob at %v (target %d), want %v", z.Seen, res.Target, tt.at)
			}
			_, tagged := find[*protocol.Tagged](out, liveBob)
			if tagged != (tt.want == protocol.ZapHit) {
				t.Errorf("bob told he was tagged: %v, want %v", tagged, tt.want == protocol.ZapHit)
			}
		})
	}
}

// TestLivenessRespawnCell pins the timeline's premise: bob respawns at
// (7,1), in dan's line.
func TestLivenessRespawnCell(t *testing.T) {
	c := livenessCore(t, Config{LagComp: true, Unlag: time.Second}, time.Second, 3100*ms, nil)
	if p, _ := c.world.Pos(2); p != bobRespawn {
		t.Fatalf("bob respawned at %v, want %v", p, bobRespawn)
	}
	if p, _ := c.world.Pos(3); p != (grid.Pos{X: 7, Y: 2}) || c.world.Facing(3) != grid.Up {
		t.Fatalf("dan at %v facing %v, want (7,2) facing up", p, c.world.Facing(3))
	}
}

// TestZapOutcomesOfVersion4AreNotSentToVersion3: a version-3 shooter is
// told what its beam met in place of ZapTagged and ZapProtected, which it
// cannot decode.
func TestZapOutcomesOfVersion4AreNotSentToVersion3(t *testing.T) {
	protect := Config{LagComp: true, Unlag: time.Second, Protect: 2 * time.Second}
	for _, tt := range []struct {
		cfg            Config
		tag, now, seen time.Duration
		shooter        ConnID
		judged         protocol.ZapOutcome
		told           protocol.ZapOutcome
	}{
		{Config{LagComp: true, Unlag: time.Second}, time.Second, 3300 * ms, 2900 * ms, liveEve, protocol.ZapTagged, protocol.ZapRange},
		{protect, 2500 * ms, 5 * time.Second, 4800 * ms, liveDan, protocol.ZapProtected, protocol.ZapWall},
	} {
		t.Run(fmt.Sprint(tt.judged), func(t *testing.T) {
			c := livenessCore(t, tt.cfg, tt.tag, tt.now, map[ConnID]uint16{tt.shooter: 3})
			c.Receive(tt.now, tt.shooter, &protocol.Zap{Seq: 2, RenderNS: uint64(tt.seen)})
			res, _ := find[*protocol.ZapResult](c.Outbox().Envelopes, tt.shooter)
			z, _ := c.LastZap()
			if z.Outcome != tt.judged || res == nil || res.Outcome != tt.told || res.Target != 0 {
				t.Errorf("judged %v, told %+v; want %v told as %v, no target", z.Outcome, res, tt.judged, tt.told)
			}
		})
	}
}

// TestRewindBeforeJoin: a zap judged against a moment before its target
// joined finds it at its join cell, as a client draws it from halfway
// between the States around its appearance (the articles' Part IV case
// needs it); spawn protection covers that moment.
func TestRewindBeforeJoin(t *testing.T) {
	for _, tt := range []struct {
		protect time.Duration
		want    protocol.ZapOutcome
	}{{0, protocol.ZapHit}, {time.Second, protocol.ZapProtected}} {
		cfg := Config{LagComp: true, Unlag: time.Second, Protect: tt.protect, Map: worldtest.OpenMap(t, 30, 20)}
		cfg.Spawn, cfg.Spawns = grid.Pos{X: 10, Y: 10}, []grid.Pos{{X: 12, Y: 10}}
		c := NewCore(cfg)
		join(t, c, 0, 1, "ann", false)
		join(t, c, 800*ms, 2, "bob", false)
		out := zapAt(t, c, time.Second, 600*ms, 1)
		if res, _ := find[*protocol.ZapResult](out, 1); res == nil || res.Outcome != tt.want {
			t.Errorf("protection %v: zap seeing the world before bob joined: %+v, want %v", tt.protect, res, tt.want)
		}
	}
}
