package world

import (
	"strings"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
	"gridlag/server/world/worldtest"
)

// spectate sends a Spectate from conn and returns what it got.
func spectate(t *testing.T, c *Core, now time.Duration, conn ConnID, name string) []Envelope {
	t.Helper()
	c.Receive(now, conn, &protocol.Spectate{Version: protocol.Version, Name: name})
	return c.Outbox().Envelopes
}

// overviewsTo returns the Overviews in out addressed to conn.
func overviewsTo(out []Envelope, conn ConnID) []*protocol.Overview {
	var r []*protocol.Overview
	for _, e := range out {
		if o, ok := e.Msg.(*protocol.Overview); ok && e.To == conn {
			r = append(r, o)
		}
	}
	return r
}

// seenOf returns player id's entry in an Overview.
func seenOf(t *testing.T, o *protocol.Overview, id grid.PlayerID) protocol.OverviewPlayer {
	t.Helper()
	for _, p := range o.Players {
		if p.ID == id {
			return p
		}
	}
	t.Fatalf("player %d not in overview %+v", id, o)
	return protocol.OverviewPlayer{}
}

func TestSpectatorWatchesPlayersMoveAndBeAcked(t *testing.T) {
	c := NewCore(Config{Rate: 20})
	join(t, c, 0, 1, "ann", false)
	join(t, c, 0, 2, "bot-1", true)
	out := spectate(t, c, 10*ms, 9, "teacher")

	// The map and the game's numbers, the roster, the world at once, and
	// the room's scoreboard (version 6).
	if len(out) != 5 || out[0].To != 9 || out[0].Close {
		t.Fatalf("spectator got %v, want Spectating, two Joins, an Overview and a Ranking", describe(out))
	}
	if r, ok := out[4].Msg.(*protocol.Ranking); !ok || r.Rank != 0 || r.Online != 2 || len(r.Players) != 2 || !r.Players[0].Named {
		t.Fatalf("spectator's last message %+v, want the room's Ranking of two, named, its Rank 0", out[4].Msg)
	}
	sp, ok := out[0].Msg.(*protocol.Spectating)
	if !ok || sp.UpdateRate != 20 || sp.MoveTimeMS != 100 || int(sp.MapWidth) != c.Config().Map.Width() {
		t.Fatalf("first message %+v, want Spectating with rate 20, move time 100 and the map", out[0].Msg)
	}
	if _, err := sp.Map(); err != nil {
		t.Errorf("the Spectating's map: %v", err)
	}
	for i, name := range []string{"ann", "bot-1"} {
		if j, ok := out[1+i].Msg.(*protocol.Join); !ok || j.Player.Name != name || out[1+i].To != 9 {
			t.Errorf("message %d: %+v, want the Join of %s", 1+i, out[1+i].Msg, name)
		}
	}
	o := overviewsTo(out, 9)
	if len(o) != 1 || o[0].Total != 2 || len(o[0].Players) != 2 || o[0].TimeNS != uint64(10*ms) {
		t.Fatalf("first overview %+v, want both players at 10ms", o)
	}
	ann := seenOf(t, o[0], 1)
	if ann.Pos != (grid.Pos{X: 10, Y: 10}) || ann.Ack != 0 || ann.Bot || ann.RTTMS != protocol.NoRTT {
		t.Errorf("ann seen as %+v, want (10,10), ack 0, no round trip yet", ann)
	}
	if !seenOf(t, o[0], 2).Bot {
		t.Error("the bot is not shown as a bot")
	}

	// ann walks; each tick the spectator sees her cell and her ack follow.
	now := time.Second
	for seq := uint32(1); seq <= 3; seq++ {
		c.Receive(now, 1, &protocol.Input{Seq: seq, Dir: grid.Right})
		now += 50 * ms
		c.Tick(now)
		out := c.Outbox().Envelopes
		o := overviewsTo(out, 9)
		if len(o) != 1 {
			t.Fatalf("tick after input %d: %v, want one Overview to the spectator", seq, describe(out))
		}
		ann := seenOf(t, o[0], 1)
		if want := (grid.Pos{X: 10 + int(seq), Y: 10}); ann.Pos != want || ann.Ack != seq {
			t.Errorf("after input %d the spectator sees ann at %v ack %d, want %v ack %d", seq, ann.Pos, ann.Ack, want, seq)
		}
		if st := statesTo(out, 9); len(st) != 0 {
			t.Errorf("the spectator got States: %v", describe(out))
		}
		if o[0].Tick != uint32(seq) || o[0].TimeNS != uint64(now) {
			t.Errorf("overview of tick %d at %d, want tick %d at %d", o[0].Tick, o[0].TimeNS, seq, now)
		}
	}

	// The bot leaves: the spectator hears it.
	c.Disconnect(now, 2, "gone")
	out = c.Outbox().Envelopes
	var heard bool
	for _, e := range out {
		if l, ok := e.Msg.(*protocol.Leave); ok && e.To == 9 && l.ID == 2 {
			heard = true
		}
	}
	if !heard {
		t.Errorf("the spectator did not hear the bot leave: %v", describe(out))
	}
	// The spectator says Bye: it stops getting overviews, the players notice nothing.
	c.Receive(now, 9, &protocol.Bye{Reason: "class over"})
	b := c.Outbox()
	if len(b.Envelopes) != 1 || b.Envelopes[0].To != 9 || !b.Envelopes[0].Close {
		t.Errorf("Bye from the spectator gave %v, want one Bye back", describe(b.Envelopes))
	}
	if len(b.Events) != 1 || b.Events[0].Kind != EventUnwatch || !strings.Contains(b.Events[0].Reason, "class over") {
		t.Errorf("events %+v, want the spectator's leaving with its reason", b.Events)
	}
	c.Tick(now + 50*ms)
	if out := c.Outbox().Envelopes; len(overviewsTo(out, 9)) != 0 {
		t.Errorf("a spectator who left still gets overviews: %v", describe(out))
	}
	if s := c.Stats(); s.Spectators != 0 || s.Players != 1 || s.Leaves != 1 {
		t.Errorf("stats %+v, want 1 player, no spectator, 1 leave (the bot's)", s)
	}
}

func TestSpectatorTakesNoPlayerSlotAndHasItsOwnCap(t *testing.T) {
	c := NewCore(Config{Rate: 20, MaxPlayers: 2, MaxSpectators: 2})
	join(t, c, 0, 1, "ann", false)
	join(t, c, 0, 2, "bob", false)
	for conn := ConnID(8); conn <= 9; conn++ {
		out := spectate(t, c, ms, conn, "watcher")
		if _, ok := out[0].Msg.(*protocol.Spectating); !ok {
			t.Fatalf("spectator %d on a full server got %v, want Spectating", conn, describe(out))
		}
	}
	if s := c.Stats(); s.Players != 2 || s.Spectators != 2 {
		t.Fatalf("stats %+v, want 2 players and 2 spectators", s)
	}
	// A third spectator is refused, with the reason, and so is a third player.
	c.Receive(2*ms, 10, &protocol.Spectate{Version: protocol.Version, Name: "late"})
	b := c.Outbox()
	if len(b.Envelopes) != 1 || !b.Envelopes[0].Close {
		t.Fatalf("third spectator got %v, want one Error", describe(b.Envelopes))
	}
	e, ok := b.Envelopes[0].Msg.(*protocol.Error)
	if !ok || e.Code != protocol.ErrCodeFull || e.Text != "spectators full: 2 of 2" {
		t.Errorf("third spectator got %+v, want Error(full) \"spectators full: 2 of 2\"", b.Envelopes[0].Msg)
	}
	if len(b.Events) != 1 || b.Events[0].Kind != EventRefused || b.Events[0].Reason != "spectators full: 2 of 2" {
		t.Errorf("events %+v, want the refusal with its reason", b.Events)
	}
	c.Receive(3*ms, 11, &protocol.Hello{Version: protocol.Version, Name: "cat"})
	if out := c.Outbox().Envelopes; !strings.Contains(out[0].Msg.(*protocol.Error).Text, "room full: 2 of 2 players") {
		t.Errorf("third player got %+v, want room full", out[0].Msg)
	}
	// A spectator leaving makes room for another.
	c.Disconnect(4*ms, 8, "gone")
	if b := c.Outbox(); len(b.Events) != 1 || b.Events[0].Kind != EventUnwatch || b.Events[0].Reason != "gone" {
		t.Errorf("events %+v, want the spectator's leaving", b.Events)
	}
	if out := spectate(t, c, 5*ms, 12, "next"); len(overviewsTo(out, 12)) != 1 {
		t.Errorf("a spectator after one left got %v", describe(out))
	}
}

func TestSpectatorInputRefused(t *testing.T) {
	c := NewCore(Config{Rate: 20})
	join(t, c, 0, 1, "ann", false)
	spectate(t, c, 0, 9, "teacher")
	c.Receive(ms, 9, &protocol.Input{Seq: 1, Dir: grid.Left})
	out := c.Outbox().Envelopes
	if len(out) != 1 || out[0].To != 9 || !out[0].Close {
		t.Fatalf("a spectator's Input gave %v, want one Error that closes", describe(out))
	}
	if e, ok := out[0].Msg.(*protocol.Error); !ok || e.Code != protocol.ErrCodeProtocol || !strings.Contains(e.Text, "spectator") {
		t.Errorf("a spectator's Input gave %+v, want a protocol Error naming spectators", out[0].Msg)
	}
	if s := c.Stats(); s.Spectators != 0 || s.InputsProcessed != 0 || s.Violations != 1 || s.Players != 1 {
		t.Errorf("stats %+v, want the input unprocessed and the spectator gone", s)
	}
	if p, _ := c.world.Pos(1); p != (grid.Pos{X: 10, Y: 10}) {
		t.Errorf("ann moved to %v", p)
	}
}

func TestSpectatorHandshakeRefusals(t *testing.T) {
	for _, tc := range []struct {
		name string
		msg  *protocol.Spectate
		code uint8
	}{
		{"wrong version", &protocol.Spectate{Version: protocol.Version + 1, Name: "teacher"}, protocol.ErrCodeVersion},
		{"control name", &protocol.Spectate{Version: protocol.Version, Name: "a\x1b[2J"}, protocol.ErrCodeName},
	} {
		c := NewCore(Config{Rate: 20})
		c.Receive(0, 9, tc.msg)
		out := c.Outbox().Envelopes
		if len(out) != 1 || !out[0].Close || out[0].Msg.(*protocol.Error).Code != tc.code {
			t.Errorf("%s: got %v, want Error code %d", tc.name, describe(out), tc.code)
		}
		if s := c.Stats(); s.Spectators != 0 || s.Refused != 1 {
			t.Errorf("%s: stats %+v", tc.name, s)
		}
	}
}

func TestImmediateModeOverviewPerProcessedInput(t *testing.T) {
	c := NewCore(Config{Rate: 0, Map: worldtest.OpenMap(t, 5, 5), Spawn: grid.Pos{X: 1, Y: 1}})
	join(t, c, 0, 1, "ann", false)
	spectate(t, c, 0, 9, "teacher")
	// A move and a move into the wall before one Outbox call: one overview
	// each, each with its own ack.
	c.Receive(time.Second, 1, &protocol.Input{Seq: 1, Dir: grid.Down})
	c.Receive(2*time.Second, 1, &protocol.Input{Seq: 2, Dir: grid.Left})
	o := overviewsTo(c.Outbox().Envelopes, 9)
	if len(o) != 2 {
		t.Fatalf("%d overviews for two processed inputs, want 2", len(o))
	}
	if a, b := seenOf(t, o[0], 1), seenOf(t, o[1], 1); a.Ack != 1 || b.Ack != 2 || a.Pos != (grid.Pos{X: 1, Y: 2}) || b.Pos != a.Pos {
		t.Errorf("overviews show %+v then %+v, want ack 1 then 2 at (1,2)", a, b)
	}
}

func TestMaxSpectatorsConfig(t *testing.T) {
	if got := (Config{}).WithDefaults().MaxSpectators; got != 16 {
		t.Errorf("default MaxSpectators %d, want 16", got)
	}
	for _, n := range []int{-1, MaxSpectatorsCap + 1} {
		if err := (Config{MaxSpectators: n}).Validate(); err == nil || !strings.Contains(err.Error(), "spectators") {
			t.Errorf("MaxSpectators %d: %v, want refused", n, err)
		}
	}
	if err := (Config{MaxSpectators: MaxSpectatorsCap}).Validate(); err != nil {
		t.Errorf("MaxSpectatorsCap refused: %v", err)
	}
}

// TestOverviewCappedToOneFrame: with more players than one Overview frame
// carries, spectators get those with the lowest IDs, and Total counts all;
// the Overview encodes.
func TestOverviewCappedToOneFrame(t *testing.T) {
	n := protocol.MaxOverviewPlayers + 2
	c := NewCore(Config{Rate: 20, Map: worldtest.OpenMap(t, 100, 100), Spawn: grid.Pos{X: 1, Y: 1}, MaxPlayers: n})
	for id := 1; id <= n; id++ { // straight into the world: n handshakes would cost n² Joins
		cl := &client{conn: ConnID(id), phase: phaseJoined, player: grid.PlayerID(id), info: protocol.PlayerInfo{ID: grid.PlayerID(id), Name: "p"}}
		if err := c.world.Add(cl.player, grid.Pos{X: 1 + (id-1)%98, Y: 1 + (id-1)/98}); err != nil {
			t.Fatal(err)
		}
		c.conns[cl.conn], c.slots[id] = cl, cl
		c.count++
	}
	o := overviewsTo(spectate(t, c, 0, ConnID(n+1), "teacher"), ConnID(n+1))
	if len(o) != 1 || int(o[0].Total) != n || len(o[0].Players) != protocol.MaxOverviewPlayers {
		t.Fatalf("overview of %d players lists %d of %d, want %d of %d", n, len(o[0].Players), o[0].Total, protocol.MaxOverviewPlayers, n)
	}
	if last := o[0].Players[len(o[0].Players)-1]; last.ID != protocol.MaxOverviewPlayers {
		t.Errorf("the last listed player is %d, want %d: the lowest IDs", last.ID, protocol.MaxOverviewPlayers)
	}
	if _, err := protocol.Marshal(o[0]); err != nil {
		t.Errorf("the capped Overview does not encode: %v", err)
	}
	if len(c.Overview(0, nil)) != n {
		t.Error("Core.Overview, which no frame bounds, does not list every player")
	}
}

// TestTickWithSpectatorsAllocatesNothing: spectators and the server's
// pings keep the steady state free of allocations too (their Overviews and
// Pings are pooled).
func TestTickWithSpectatorsAllocatesNothing(t *testing.T) {
	const players = 300
	c := busyCore(t, players)
	for conn := ConnID(players + 1); conn <= players+3; conn++ {
		spectate(t, c, time.Second, conn, "teacher")
	}
	now := 2 * time.Second
	pong := &protocol.Pong{}
	round := func() {
		now += 50 * time.Millisecond
		c.Ping(now)
		c.Outbox()
		pong.Stamp = uint64(now) // every player answers
		for conn := ConnID(1); conn <= players; conn++ {
			c.Receive(now+ms, conn, pong)
		}
		c.Tick(now + ms)
		c.Outbox()
	}
	round()
	if s := c.Stats(); s.Pings != players || s.Overviews == 0 {
		t.Fatalf("setup: %+v", s)
	}
	if allocs := testing.AllocsPerRun(50, round); allocs != 0 {
		t.Errorf("a steady-state round of pings and a tick with spectators allocates %.1f times, want 0", allocs)
	}
	if p := c.Overview(0, nil); !p[0].HasRTT || p[0].RTT != ms {
		t.Errorf("after the rounds player 1's round trip is %v (%v), want 1ms", p[0].RTT, p[0].HasRTT)
	}
}

// TestSpectatorsScoreboard: a spectator of version 6 is sent the room's
// Ranking as it comes and whenever the players get theirs (a join, a
// tag, a round), names once; one of version 5 gets none, and its
// version's messages as before.
func TestSpectatorsScoreboard(t *testing.T) {
	c := NewCore(Config{Rate: 20})
	join(t, c, 0, 1, "stud2", false)
	c.Receive(0, 8, &protocol.Spectate{Version: 5, Name: "old"})
	for _, e := range c.Outbox().Envelopes {
		if _, ok := e.Msg.(*protocol.Ranking); ok {
			t.Fatalf("a spectator of version 5 got a Ranking: %+v", e.Msg)
		}
	}
	spectate(t, c, 0, 9, "projector")
	join(t, c, 10*ms, 2, "stud3", false)
	c.Ping(time.Second) // the join's scoreboard
	var got *protocol.Ranking
	for _, e := range c.Outbox().Envelopes {
		if r, ok := e.Msg.(*protocol.Ranking); ok {
			switch e.To {
			case 9:
				got = r
			case 8:
				t.Fatalf("a spectator of version 5 got a Ranking: %+v", r)
			}
		}
	}
	if got == nil || got.Online != 2 || got.Rank != 0 || len(got.Players) != 2 {
		t.Fatalf("after stud3 joined, the projector's Ranking is %+v, want both, Rank 0", got)
	}
	for _, p := range got.Players {
		if p.Named != (p.ID == 2) {
			t.Errorf("entry %+v: only the newcomer is named again", p)
		}
	}
}
