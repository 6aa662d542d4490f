package world

import (
	"slices"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
	"gridlag/server/world/worldtest"
)

// protectsTo returns the Protects in out addressed to conn.
func protectsTo(out []Envelope, conn ConnID) []protocol.Protect {
	var r []protocol.Protect
	for _, e := range out {
		if p, ok := e.Msg.(*protocol.Protect); ok && e.To == conn {
			r = append(r, *p)
		}
	}
	return r
}

// TestProtectionIsShownToEveryone: with Protect 2 s at 20 Hz, a player's
// protection runs from the tick that shows it; a client of version 4 is
// told of its own and of those it sees, a spectator of version 4 of
// everyone's, each until the tick's time plus 2 s; a client of version 3
// is told nothing of it.
func TestProtectionIsShownToEveryone(t *testing.T) {
	cfg := Config{Rate: 20, Protect: 2 * time.Second, LagComp: true, Unlag: DefaultUnlag, Map: worldtest.OpenMap(t, 40, 20)}
	cfg.Spawn, cfg.Spawns = grid.Pos{X: 10, Y: 10}, []grid.Pos{{X: 12, Y: 10}, {X: 20, Y: 10}}
	c := NewCore(cfg)
	c.Receive(0, 9, &protocol.Spectate{Version: protocol.Version, Name: "teacher"})
	c.Receive(0, 8, &protocol.Spectate{Version: 3, Name: "old projector"})
	c.Outbox()
	joinVersion(t, c, nil, 10*ms, 1, "ann", false, protocol.Version)
	joinVersion(t, c, nil, 20*ms, 2, "eve", false, 3)
	c.Outbox()
	c.Tick(50 * ms)
	out := c.Outbox().Envelopes
	until := uint64(50*ms + 2*time.Second)
	want := []protocol.Protect{{ID: 2, UntilNS: until}, {ID: 1, UntilNS: until}} // eve after her Join, then ann's own
	if got := protectsTo(out, 1); !slices.Equal(got, want) {
		t.Errorf("ann (version 4) told %+v, want %+v", got, want)
	}
	if got := protectsTo(out, 9); len(got) != 2 {
		t.Errorf("the spectator of version 4 told %+v, want both", got)
	}
	for _, old := range []ConnID{2, 8} {
		if got := protectsTo(out, old); len(got) != 0 {
			t.Errorf("connection %d (version 3) told %+v", old, got)
		}
	}
	// A newcomer after that is introduced to the protected players it
	// sees, each after its Join (at once: it is told of its area as it
	// joins), then told of its own at the tick that shows it; a spectator
	// coming later, of every one.
	c.Receive(time.Second, 3, &protocol.Hello{Version: protocol.Version, Name: "bob"})
	c.Tick(1050 * ms)
	got := protectsTo(c.Outbox().Envelopes, 3)
	if len(got) != 3 || got[0] != (protocol.Protect{ID: 1, UntilNS: until}) || got[2] != (protocol.Protect{ID: 3, UntilNS: uint64(1050*ms + 2*time.Second)}) {
		t.Errorf("bob told %+v, want ann's and eve's protection, then his own", got)
	}
	c.Receive(1100*ms, 10, &protocol.Spectate{Version: protocol.Version, Name: "late"})
	if got := protectsTo(c.Outbox().Envelopes, 10); len(got) != 3 {
		t.Errorf("a spectator coming at 1.1 s told %+v, want the 3 players' protection", got)
	}
	// Once theirs is over, a newcomer is not told of it.
	c.Tick(2100 * ms)
	c.Receive(2200*ms, 4, &protocol.Hello{Version: protocol.Version, Name: "dan"})
	c.Tick(2250 * ms)
	if got := protectsTo(c.Outbox().Envelopes, 4); len(got) != 2 || got[0].ID != 3 || got[1].ID != 4 {
		t.Errorf("dan told %+v, want bob's protection and his own", got)
	}
	if f := c.Overview(2300*ms, nil); !f[3].Protected || f[0].Protected || f[3].ProtectedUntil != 2250*ms+2*time.Second {
		t.Errorf("overview at 2.3 s %+v, want dan alone protected", f)
	}
}

// TestRespawnIsProtectedInView: a player that respawns is shown protected
// to whoever sees its respawn cell, and told so itself.
func TestRespawnIsProtectedInView(t *testing.T) {
	cfg := Config{LagComp: true, Unlag: time.Second, Protect: time.Second}
	c := livenessCore(t, cfg, 1500*ms, 3600*ms, nil)
	if c.Stats().Respawns != 1 {
		t.Fatalf("%d respawns by 3.6 s", c.Stats().Respawns)
	}
	c = livenessCore(t, cfg, 1500*ms, 3500*ms, nil)
	c.Ping(3500 * ms) // bob thaws and respawns, in everyone's area
	out := c.Outbox().Envelopes
	want := protocol.Protect{ID: 2, UntilNS: uint64(3500*ms + time.Second)}
	for _, to := range []ConnID{liveAnn, liveBob, liveDan, liveEve} {
		if got := protectsTo(out, to); len(got) != 1 || got[0] != want {
			t.Errorf("connection %d told %+v, want %+v", to, got, want)
		}
	}
}
