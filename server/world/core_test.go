package world

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/internal/names"
	"gridlag/protocol"
)

const ms = time.Millisecond

// join sends a Hello from conn and returns the Welcome it got.
func join(t *testing.T, c *Core, now time.Duration, conn ConnID, name string, bot bool) *protocol.Welcome {
	t.Helper()
	return joinSeen(t, c, nil, now, conn, name, bot)
}

// joinSeen is join, keeping what the clients are told in v (if not nil).
func joinSeen(t *testing.T, c *Core, v views, now time.Duration, conn ConnID, name string, bot bool) *protocol.Welcome {
	t.Helper()
	return joinVersion(t, c, v, now, conn, name, bot, protocol.Version)
}

// joinVersion is joinSeen for a client of the given protocol version.
func joinVersion(t *testing.T, c *Core, v views, now time.Duration, conn ConnID, name string, bot bool, version uint16) *protocol.Welcome {
	t.Helper()
	c.Receive(now, conn, &protocol.Hello{Version: version, Name: name, Bot: bot})
	out := c.Outbox().Envelopes
	if v != nil {
		v.apply(out)
	}
	if len(out) < 2 || out[0].To != conn {
		t.Fatalf("join %s: outbox %v", name, describe(out))
	}
	w, ok := out[0].Msg.(*protocol.Welcome)
	if !ok || out[0].Close {
		t.Fatalf("join %s: first message %v, want a Welcome", name, describe(out))
	}
	return w // Welcomes are not pooled: it stays valid
}

// posOf returns player id's cell in a State.
func posOf(t *testing.T, st *protocol.State, id grid.PlayerID) grid.Pos {
	t.Helper()
	for _, p := range st.Players {
		if p.ID == id {
			return p.Pos
		}
	}
	t.Fatalf("player %d not in state %+v", id, st)
	return grid.Pos{}
}

// flat returns a copy of st with every player it carries in Players, as
// the client decodes it.
func flat(st *protocol.State) *protocol.State {
	c := *st
	c.Players, c.Shared, c.Runs = st.AllPlayers(nil), nil, nil
	return &c
}

// statesTo returns the States in out addressed to conn, flat.
func statesTo(out []Envelope, conn ConnID) []*protocol.State {
	var r []*protocol.State
	for _, e := range out {
		if st, ok := e.Msg.(*protocol.State); ok && e.To == conn {
			r = append(r, flat(st))
		}
	}
	return r
}

func describe(out []Envelope) string {
	var b strings.Builder
	for _, e := range out {
		fmt.Fprintf(&b, " %v->%d", e.Msg.Type(), e.To)
		if e.Close {
			b.WriteString("(close)")
		}
	}
	return b.String()
}

func TestWelcomeCarriesMapAndIDAndRoster(t *testing.T) {
	c := NewCore(Config{Rate: 20})
	c.Receive(0, 1, &protocol.Hello{Version: protocol.Version, Name: "ann", Color: 3})
	out := c.Outbox().Envelopes
	if len(out) != 2 {
		t.Fatalf("outbox %v, want Welcome and State", describe(out))
	}
	w := out[0].Msg.(*protocol.Welcome)
	if w.Player != 1 || w.UpdateRate != 20 || w.MoveTimeMS != 100 || w.Burst != 6 {
		t.Errorf("welcome %+v: want player 1, 20 Hz, 100 ms, burst 6", w)
	}
	m, err := w.Map()
	if err != nil {
		t.Fatal(err)
	}
	if m.String() != grid.DefaultMap().String() {
		t.Errorf("welcome map differs from the default map")
	}
	if len(w.Players) != 1 || w.Players[0] != (protocol.PlayerInfo{ID: 1, Color: 3, Name: "ann"}) {
		t.Errorf("roster %+v, want ann alone with colour 3", w.Players)
	}
	st := flat(out[1].Msg.(*protocol.State))
	if out[1].To != 1 || st.Ack != 0 || posOf(t, st, 1) != (grid.Pos{X: 10, Y: 10}) {
		t.Errorf("first state %+v, want ann at (10,10) with ack 0", st)
	}

	// A newcomer's Welcome carries only itself; everyone already there
	// follows as one Join each, so the Welcome does not grow with players.
	c.Receive(0, 2, &protocol.Hello{Version: protocol.Version, Name: "bob"})
	out = c.Outbox().Envelopes
	w2 := out[0].Msg.(*protocol.Welcome)
	if w2.Player != 2 || len(w2.Players) != 1 || w2.Players[0].Name != "bob" {
		t.Errorf("bob's welcome %+v: want player 2 with bob's own entry", w2)
	}
	if w2.Players[0].Color < 1 || w2.Players[0].Color > 8 {
		t.Errorf("derived colour %d is not 1..8", w2.Players[0].Color)
	}
	var toBob []Envelope
	for _, e := range out {
		if e.To == 2 {
			toBob = append(toBob, e)
		}
	}
	if len(toBob) != 3 {
		t.Fatalf("bob got %s, want Welcome, ann's Join, State", describe(toBob))
	}
	j, ok := toBob[1].Msg.(*protocol.Join)
	if !ok || j.Player != (protocol.PlayerInfo{ID: 1, Color: 3, Name: "ann"}) {
		t.Errorf("after bob's welcome %s: want ann's Join to bob", describe(toBob))
	}
	if _, ok := toBob[2].Msg.(*protocol.State); !ok {
		t.Errorf("bob's first state should follow the roster: %s", describe(toBob))
	}
}

func TestJoinAnnouncedAndSpawnsNearest(t *testing.T) {
	c := NewCore(Config{Rate: 20})
	join(t, c, 0, 1, "ann", false)
	c.Receive(0, 2, &protocol.Hello{Version: protocol.Version, Name: "bob"})
	out := c.Outbox().Envelopes
	st := statesTo(out, 2)[0]
	// ann hears of bob with the tick that shows him to her.
	c.Tick(50 * ms)
	out = c.Outbox().Envelopes
	var joinSeen bool
	for _, e := range out {
		if j, ok := e.Msg.(*protocol.Join); ok && e.To == 1 {
			if j.Player.ID != 2 || j.Player.Name != "bob" {
				t.Errorf("join %+v to ann, want bob announced", j)
			}
			joinSeen = true
		}
	}
	if !joinSeen {
		t.Fatalf("ann was not told bob joined: %v", describe(out))
	}
	if got := posOf(t, st, 2); abs(got.X-10)+abs(got.Y-10) != 1 {
		t.Errorf("bob spawned at %v, want next to (10,10)", got)
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func TestBotsNeverSpawnOnHumanSpawn(t *testing.T) {
	c := NewCore(Config{Rate: 20})
	seen := map[grid.Pos]bool{}
	for i := 1; i <= 20; i++ {
		c.Receive(0, ConnID(i), &protocol.Hello{Version: protocol.Version, Name: fmt.Sprint("bot-", i), Bot: true})
		out := c.Outbox().Envelopes
		st := statesTo(out, ConnID(i))[0]
		p := posOf(t, st, grid.PlayerID(i))
		if p == grid.DefaultSpawn {
			t.Fatalf("bot %d spawned on the human spawn %v", i, p)
		}
		seen[p] = true
	}
	if len(seen) != 20 {
		t.Errorf("bots share cells: %v", seen)
	}
	// Spread out: the first bots are not crowded in one corner.
	c.Receive(0, 100, &protocol.Hello{Version: protocol.Version, Name: "human"})
	st := statesTo(c.Outbox().Envelopes, 100)[0]
	if p := posOf(t, st, 21); p != grid.DefaultSpawn {
		t.Errorf("human after 20 bots spawned at %v, want %v", p, grid.DefaultSpawn)
	}

	// Same joins, same cells: spawning is deterministic.
	d := NewCore(Config{Rate: 20})
	for i := 1; i <= 20; i++ {
		d.Receive(0, ConnID(i), &protocol.Hello{Version: protocol.Version, Name: fmt.Sprint("bot-", i), Bot: true})
		d.Outbox()
	}
	if c.Positions(nil)[5] != d.Positions(nil)[5] {
		t.Errorf("bot spawn is not deterministic")
	}
}

func TestBotsSpreadOut(t *testing.T) {
	c := NewCore(Config{Rate: 20})
	for i := 1; i <= 4; i++ {
		join(t, c, 0, ConnID(i), fmt.Sprint("bot-", i), true)
	}
	ps := c.Positions(nil)
	for i := range ps {
		for j := i + 1; j < len(ps); j++ {
			a, b := ps[i].Pos, ps[j].Pos
			if abs(a.X-b.X)+abs(a.Y-b.Y) < 5 {
				t.Errorf("bots %v and %v spawned within 5 cells of each other", a, b)
			}
		}
	}
}

func TestHandshakeRefusals(t *testing.T) {
	cases := []struct {
		name string
		msg  protocol.Message
		code uint8
		text []string
	}{
		{"wrong version", &protocol.Hello{Version: protocol.Version + 6, Name: "ann"}, protocol.ErrCodeVersion, []string{fmt.Sprint("version ", protocol.Version+6), fmt.Sprintf("versions %d to %d", protocol.MinVersion, protocol.Version)}},
		{"old version", &protocol.Hello{Version: protocol.MinVersion - 1, Name: "ann"}, protocol.ErrCodeVersion, []string{fmt.Sprint("version ", protocol.MinVersion-1), fmt.Sprintf("versions %d to %d", protocol.MinVersion, protocol.Version)}},
		{"empty name", &protocol.Hello{Version: protocol.Version, Name: " "}, protocol.ErrCodeName, []string{protocol.ErrNameEmpty.Error()}},
		{"control name", &protocol.Hello{Version: protocol.Version, Name: "a\x1b[2Jb"}, protocol.ErrCodeName, []string{protocol.ErrNameControl.Error()}},
		{"long name", &protocol.Hello{Version: protocol.Version, Name: strings.Repeat("x", 17)}, protocol.ErrCodeName, []string{protocol.ErrNameLong.Error()}},
		{"newline in name", &protocol.Hello{Version: protocol.Version, Name: "a\nX"}, protocol.ErrCodeName, []string{protocol.ErrNameControl.Error()}},
		{"blank name", &protocol.Hello{Version: protocol.Version, Name: "\u3164"}, protocol.ErrCodeName, []string{protocol.ErrNameInvisible.Error()}},
		{"human named like a bot", &protocol.Hello{Version: protocol.Version, Name: "bot-1"}, protocol.ErrCodeName, []string{names.ErrBot.Error()}},
		{"input first", &protocol.Input{Seq: 1, Dir: grid.Up}, protocol.ErrCodeProtocol, []string{"Hello", "Input"}},
		{"ping first", &protocol.Ping{Stamp: 1}, protocol.ErrCodeProtocol, []string{"Hello", "Ping"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := NewCore(Config{Rate: 20})
			c.Receive(0, 7, tc.msg)
			out := c.Outbox().Envelopes
			if len(out) != 1 || out[0].To != 7 || !out[0].Close {
				t.Fatalf("outbox %v, want one Error with Close", describe(out))
			}
			e, ok := out[0].Msg.(*protocol.Error)
			if !ok || e.Code != tc.code {
				t.Fatalf("got %+v, want error code %d", out[0].Msg, tc.code)
			}
			for _, s := range tc.text {
				if !strings.Contains(e.Text, s) {
					t.Errorf("error text %q does not mention %q", e.Text, s)
				}
			}
			if _, err := protocol.Marshal(e); err != nil {
				t.Errorf("the error does not encode: %v", err)
			}
			// Nothing it sends afterwards is answered, and nobody joined.
			c.Receive(ms, 7, &protocol.Hello{Version: protocol.Version, Name: "ann"})
			if out := c.Outbox().Envelopes; len(out) != 0 {
				t.Errorf("closed connection got %v", describe(out))
			}
			if s := c.Stats(); s.Players != 0 || s.Refused != 1 {
				t.Errorf("stats %+v, want 0 players and 1 refusal", s)
			}
			c.Disconnect(2*ms, 7, "gone")
			if s := c.Stats(); s.Connections != 0 {
				t.Errorf("%d connections remembered after Disconnect", s.Connections)
			}
		})
	}
}

func TestSecondHelloClosesAndAnnouncesLeave(t *testing.T) {
	c := NewCore(Config{Rate: 20})
	join(t, c, 0, 1, "ann", false)
	join(t, c, 0, 2, "bob", false)
	c.Tick(ms / 2) // ann sees bob
	c.Outbox()
	c.Receive(ms, 2, &protocol.Hello{Version: protocol.Version, Name: "bob"})
	out := c.Outbox().Envelopes
	if len(out) != 1 || out[0].To != 2 || !out[0].Close || out[0].Msg.(*protocol.Error).Code != protocol.ErrCodeProtocol {
		t.Errorf("outbox %v: want Error(protocol, close) to bob", describe(out))
	}
	c.Tick(2 * ms)
	if st := statesTo(c.Outbox().Envelopes, 1); len(st) != 1 || !slices.Equal(st[0].Left, []grid.PlayerID{2}) {
		t.Errorf("ann's next State %+v, want bob in Left", st)
	}
}

func TestServerFull(t *testing.T) {
	c := NewCore(Config{Rate: 20, MaxPlayers: 2})
	join(t, c, 0, 1, "a", false)
	join(t, c, 0, 2, "b", false)
	c.Receive(0, 3, &protocol.Hello{Version: protocol.Version, Name: "c"})
	out := c.Outbox().Envelopes
	if len(out) != 1 || !out[0].Close || out[0].Msg.(*protocol.Error).Code != protocol.ErrCodeRoomFull ||
		out[0].Msg.(*protocol.Error).Text != "room full: 2 of 2 players, the most it takes; another room may have a place" {
		t.Fatalf("third player got %v, want Error(room full)", describe(out))
	}
	// A leave frees the lowest ID again, once the next tick has told
	// the others that its player left; before, a newcomer gets another.
	c.Disconnect(ms, 1, "gone")
	c.Outbox()
	c.Tick(2 * ms)
	c.Outbox()
	if w := join(t, c, 3*ms, 4, "d", false); w.Player != 1 {
		t.Errorf("rejoin got player %d, want the freed ID 1", w.Player)
	}
	c = NewCore(Config{Rate: 20, MaxPlayers: 3})
	join(t, c, 0, 1, "a", false)
	join(t, c, 0, 2, "b", false)
	c.Disconnect(ms, 1, "gone")
	c.Outbox()
	if w := join(t, c, 2*ms, 4, "d", false); w.Player != 3 {
		t.Errorf("a join before the tick got player %d, want 3: ID 1 is held until b hears that a left", w.Player)
	}
	// Full but for a held ID: the others are told first, then the ID is
	// given.
	c.Disconnect(3*ms, 2, "gone")
	c.Outbox()
	c.Receive(4*ms, 5, &protocol.Hello{Version: protocol.Version, Name: "e"})
	out = c.Outbox().Envelopes
	if st := statesTo(out, 4); len(st) == 0 || !slices.Contains(st[0].Left, 2) {
		t.Errorf("before e joins on a held ID, d got %v, want a State telling b left", describe(out))
	}
	if w, ok := out[len(out)-len(messagesTo(out, 5))].Msg.(*protocol.Welcome); !ok || w.Player != 1 {
		t.Errorf("e: %v, want a Welcome with the freed ID 1", describe(out))
	}
}

func TestInputAckedPerRecipient(t *testing.T) {
	c := NewCore(Config{Rate: 20})
	join(t, c, 0, 1, "ann", false)
	join(t, c, 0, 2, "bob", false)
	c.Receive(ms, 1, &protocol.Input{Seq: 1, Dir: grid.Right})
	c.Receive(ms, 1, &protocol.Input{Seq: 2, Dir: grid.Up})
	c.Receive(ms, 2, &protocol.Input{Seq: 1, Dir: grid.Down})
	if out := c.Outbox().Envelopes; len(out) != 0 {
		t.Fatalf("inputs answered before the tick: %v", describe(out))
	}
	c.Tick(50 * ms)
	out := c.Outbox().Envelopes
	a, b := statesTo(out, 1), statesTo(out, 2)
	if len(a) != 1 || len(b) != 1 {
		t.Fatalf("tick sent %v, want one State each", describe(out))
	}
	if a[0].Ack != 2 || b[0].Ack != 1 {
		t.Errorf("acks %d and %d, want 2 for ann and 1 for bob", a[0].Ack, b[0].Ack)
	}
	if got := posOf(t, a[0], 1); got != (grid.Pos{X: 11, Y: 9}) {
		t.Errorf("ann at %v after RIGHT, UP from (10,10), want (11,9)", got)
	}
	if a[0].TimeNS != uint64(50*ms) || a[0].Tick != b[0].Tick || a[0].Tick == 0 {
		t.Errorf("state time %d tick %d/%d, want 50ms and the same non-zero tick", a[0].TimeNS, a[0].Tick, b[0].Tick)
	}
	if len(a[0].Players) != 2 || a[0].Players[0].ID != 1 || a[0].Players[1].ID != 2 {
		t.Errorf("players %+v, want both sorted by ID", a[0].Players)
	}
}

func TestDuplicateAndOutOfOrderInputsRefused(t *testing.T) {
	c := NewCore(Config{Rate: 20})
	join(t, c, 0, 1, "ann", false)
	c.Receive(0, 1, &protocol.Input{Seq: 5, Dir: grid.Right})
	c.Receive(200*ms, 1, &protocol.Input{Seq: 5, Dir: grid.Right}) // duplicate
	c.Receive(400*ms, 1, &protocol.Input{Seq: 3, Dir: grid.Right}) // out of order
	if out := c.Outbox().Envelopes; len(out) != 0 {
		t.Errorf("refused inputs got a reply: %v", describe(out))
	}
	c.Tick(500 * ms)
	st := statesTo(c.Outbox().Envelopes, 1)[0]
	if st.Ack != 5 || posOf(t, st, 1) != (grid.Pos{X: 11, Y: 10}) {
		t.Errorf("state ack %d at %v, want ack 5 at (11,10): the repeats must not move", st.Ack, posOf(t, st, 1))
	}
	if s := c.Stats(); s.InputsProcessed != 1 || s.InputsRefused != 2 {
		t.Errorf("stats %+v, want 1 processed, 2 refused", s)
	}
}

func TestBurstThenTooFastIsAcked(t *testing.T) {
	c := NewCore(Config{Rate: 20})
	join(t, c, 0, 1, "ann", false)
	burst := c.Config().Burst
	for i := 1; i <= burst+1; i++ {
		c.Receive(time.Second, 1, &protocol.Input{Seq: uint32(i), Dir: grid.Right})
	}
	c.Tick(time.Second)
	st := statesTo(c.Outbox().Envelopes, 1)[0]
	if want := (grid.Pos{X: 10 + burst, Y: 10}); posOf(t, st, 1) != want {
		t.Errorf("after %d inputs at once ann is at %v, want %v", burst+1, posOf(t, st, 1), want)
	}
	if st.Ack != uint32(burst+1) {
		t.Errorf("ack %d, want %d: the too-fast input is processed and acknowledged", st.Ack, burst+1)
	}
	if s := c.Stats(); s.TooFast != 1 || s.Moves != uint64(burst) {
		t.Errorf("stats %+v, want %d moves and 1 too fast", s, burst)
	}
	// One move time later one more move is allowed.
	c.Receive(time.Second+c.Config().MoveTime, 1, &protocol.Input{Seq: uint32(burst + 2), Dir: grid.Right})
	c.Tick(time.Second + c.Config().MoveTime)
	st = statesTo(c.Outbox().Envelopes, 1)[0]
	if want := (grid.Pos{X: 11 + burst, Y: 10}); posOf(t, st, 1) != want {
		t.Errorf("one move time later ann is at %v, want %v", posOf(t, st, 1), want)
	}
}

func TestImmediateModeAnswersEveryInput(t *testing.T) {
	c := NewCore(Config{Rate: 0})
	join(t, c, 0, 1, "ann", false)
	c.Receive(0, 2, &protocol.Hello{Version: protocol.Version, Name: "bob"})
	out := c.Outbox().Envelopes
	if len(statesTo(out, 1)) != 1 {
		t.Errorf("immediate mode: ann did not get a State when bob joined: %v", describe(out))
	}
	for i := 1; i <= 3; i++ {
		now := time.Duration(i) * 100 * ms
		c.Receive(now, 1, &protocol.Input{Seq: uint32(i), Dir: grid.Down})
		out := c.Outbox().Envelopes
		a, b := statesTo(out, 1), statesTo(out, 2)
		if len(out) != 2 || len(a) != 1 || len(b) != 1 {
			t.Fatalf("input %d: outbox %v, want one State to each client", i, describe(out))
		}
		if a[0].Ack != uint32(i) || b[0].Ack != 0 {
			t.Errorf("input %d: acks %d/%d, want %d for ann, 0 for bob", i, a[0].Ack, b[0].Ack, i)
		}
		if got := posOf(t, b[0], 1); got != (grid.Pos{X: 10, Y: 10 + i}) {
			t.Errorf("input %d: bob sees ann at %v", i, got)
		}
		if a[0].TimeNS != uint64(now) {
			t.Errorf("state time %d, want %d", a[0].TimeNS, now)
		}
	}
	// A refused input is not answered.
	c.Receive(time.Second, 1, &protocol.Input{Seq: 2, Dir: grid.Down})
	if out := c.Outbox().Envelopes; len(out) != 0 {
		t.Errorf("duplicate input answered: %v", describe(out))
	}
	// Several inputs before one Outbox call keep their own states.
	c.Receive(2*time.Second, 1, &protocol.Input{Seq: 4, Dir: grid.Up})
	c.Receive(3*time.Second, 1, &protocol.Input{Seq: 5, Dir: grid.Up})
	a := statesTo(c.Outbox().Envelopes, 1)
	if len(a) != 2 || a[0].Ack != 4 || a[1].Ack != 5 || posOf(t, a[0], 1).Y != 12 || posOf(t, a[1], 1).Y != 11 {
		t.Errorf("batched immediate states %+v %+v, want ack 4 at y=12 then ack 5 at y=11", a[0], a[1])
	}
}

func TestRateModeOneStatePerClientPerTick(t *testing.T) {
	c := NewCore(Config{Rate: 20})
	v := views{}
	for i := 1; i <= 5; i++ {
		joinSeen(t, c, v, 0, ConnID(i), fmt.Sprint("p", i), false)
	}
	for i := 1; i <= 5; i++ {
		c.Receive(10*ms, ConnID(i), &protocol.Input{Seq: 1, Dir: grid.Left})
		c.Receive(20*ms, ConnID(i), &protocol.Ping{Stamp: 9})
	}
	for _, e := range c.Outbox().Envelopes {
		if _, ok := e.Msg.(*protocol.State); ok {
			t.Fatalf("a State was sent between ticks")
		}
	}
	c.Tick(30 * ms) // each player hears of those who joined after it
	out := c.Outbox().Envelopes
	v.apply(out)
	if len(out) != 5+4+3+2+1 {
		t.Fatalf("the first tick sent %d messages, want 5 States and 10 Joins", len(out))
	}
	for tick := 1; tick <= 3; tick++ {
		c.Tick(time.Duration(tick) * 50 * ms)
		out := c.Outbox().Envelopes
		v.apply(out)
		if len(out) != 5 {
			t.Fatalf("tick %d sent %d messages, want 5", tick, len(out))
		}
		for i := 1; i <= 5; i++ {
			if s := statesTo(out, ConnID(i)); len(s) != 1 || len(v.players(ConnID(i))) != 5 {
				t.Errorf("tick %d: client %d got %d states", tick, i, len(s))
			}
		}
	}
	if s := c.Stats(); s.Ticks != 4 {
		t.Errorf("%d ticks counted, want 4", s.Ticks)
	}
}

func TestPingPong(t *testing.T) {
	c := NewCore(Config{Rate: 20})
	join(t, c, 0, 1, "ann", false)
	join(t, c, 0, 2, "bob", false)
	c.Receive(ms, 2, &protocol.Ping{Stamp: 0xDEADBEEF})
	out := c.Outbox().Envelopes
	if len(out) != 1 || out[0].To != 2 || out[0].Close {
		t.Fatalf("ping answered with %v, want one Pong to bob", describe(out))
	}
	if p, ok := out[0].Msg.(*protocol.Pong); !ok || p.Stamp != 0xDEADBEEF {
		t.Errorf("got %+v, want Pong with the same stamp", out[0].Msg)
	}
}

func TestLeaveOnByeAndDisconnect(t *testing.T) {
	c := NewCore(Config{Rate: 20})
	v := views{}
	joinSeen(t, c, v, 0, 1, "ann", false)
	joinSeen(t, c, v, 0, 2, "bob", false)
	joinSeen(t, c, v, 0, 3, "cid", false)
	c.Tick(ms / 2) // they see each other
	v.apply(c.Outbox().Envelopes)

	c.Receive(ms, 2, &protocol.Bye{Reason: "dinner"})
	batch := c.Outbox()
	if evs := batch.Events; len(evs) != 1 || evs[0].Kind != EventLeave || !strings.Contains(evs[0].Reason, "dinner") {
		t.Errorf("events %+v, want bob's leave with his reason", evs)
	}
	v.apply(batch.Envelopes)
	c.Disconnect(2*ms, 3, "connection reset")
	v.apply(c.Outbox().Envelopes)

	// The next tick tells ann that both left.
	c.Tick(3 * ms)
	out := c.Outbox().Envelopes
	v.apply(out)
	st := statesTo(out, 1)
	if len(st) != 1 || len(st[0].Left) != 2 || !slices.Contains(st[0].Left, 2) || !slices.Contains(st[0].Left, 3) {
		t.Errorf("ann's State %+v, want bob and cid in Left", st)
	}
	if len(v.players(1)) != 1 {
		t.Errorf("after two leaves the state is %+v, want ann alone", v.players(1))
	}
	if s := c.Stats(); s.Players != 1 || s.Leaves != 2 {
		t.Errorf("stats %+v", s)
	}
}

func TestSameInputsSameOutputs(t *testing.T) {
	run := func() []byte {
		c := NewCore(Config{Rate: 20})
		var wire []byte
		step := func() {
			for _, e := range c.Outbox().Envelopes {
				wire = append(wire, byte(e.To))
				var err error
				if wire, err = protocol.Append(wire, e.Msg); err != nil {
					t.Fatal(err)
				}
			}
		}
		for i := 1; i <= 6; i++ {
			c.Receive(time.Duration(i)*ms, ConnID(i), &protocol.Hello{Version: protocol.Version, Name: fmt.Sprint("p", i), Bot: i%2 == 0})
			step()
		}
		for k := 0; k < 40; k++ {
			now := time.Duration(k) * 25 * ms
			c.Receive(now, ConnID(k%6+1), &protocol.Input{Seq: uint32(k + 1), Dir: grid.Dir(k%4 + 1)})
			step()
			if k%2 == 0 {
				c.Tick(now)
				step()
			}
		}
		return wire
	}
	if a, b := run(), run(); string(a) != string(b) {
		t.Errorf("two runs with the same inputs produced different output")
	}
}

func TestConfigValidate(t *testing.T) {
	bad := []Config{
		{Rate: -1},
		{Rate: MaxRate + 1},
		{Burst: -1},
		{Burst: 300},
		{MoveTime: 1500 * time.Microsecond},
		{MoveTime: 70 * time.Second},
		{MaxPlayers: 70000},
		{Map: grid.DefaultMap(), Spawn: grid.Pos{X: 100, Y: 1}},
	}
	for _, cfg := range bad {
		if cfg.Validate() == nil {
			t.Errorf("config %+v passed validation", cfg)
		}
	}
	if err := (Config{}).Validate(); err != nil {
		t.Errorf("zero config: %v", err)
	}
	d := Config{}.WithDefaults()
	if d.Spawn != grid.DefaultSpawn || d.MoveTime != 100*ms || d.Burst != 6 || d.MaxPlayers != 256 || d.Rate != 0 || d.Map == nil {
		t.Errorf("defaults %+v", d)
	}
}

func TestStatesMatchTheWorld(t *testing.T) {
	c := NewCore(Config{Rate: 20})
	v := views{}
	for i := 1; i <= 30; i++ {
		joinSeen(t, c, v, 0, ConnID(i), fmt.Sprint("p", i), i%3 == 0)
	}
	seq := make([]uint32, 31)
	for k := 0; k < 3000; k++ {
		now := time.Duration(k) * 3 * ms
		id := ConnID(k*7%30 + 1)
		switch {
		case k%97 == 0:
			c.Disconnect(now, id, "gone")
			seq[id] = 0
		case k%97 == 1:
			c.Receive(now, ConnID(1000+k), &protocol.Hello{Version: protocol.Version, Name: "late"})
		default:
			seq[id]++
			c.Receive(now, id, &protocol.Input{Seq: seq[id], Dir: grid.Dir(k*13%4 + 1)})
		}
		v.apply(c.Outbox().Envelopes)
		if k%10 == 0 {
			c.Tick(now)
			want := c.Positions(nil)
			out := c.Outbox().Envelopes
			v.apply(out)
			for _, e := range out {
				if _, ok := e.Msg.(*protocol.State); ok && fmt.Sprint(v.players(e.To)) != fmt.Sprint(want) {
					t.Fatalf("step %d: state %v, world %v", k, v.players(e.To), want)
				}
			}
		}
	}
}

func TestOutboxHandsEachMessageOverOnce(t *testing.T) {
	c := NewCore(Config{Rate: 20})
	c.Receive(0, 1, &protocol.Hello{Version: protocol.Version, Name: "ann"})
	batch := c.Outbox()
	if evs := batch.Events; len(evs) != 1 || evs[0].Kind != EventJoin || evs[0].Pos != grid.DefaultSpawn {
		t.Errorf("events %+v, want ann's join at the spawn", evs)
	}
	if out := batch.Envelopes; len(out) != 2 {
		t.Fatalf("outbox %v", describe(out))
	}
	if again := c.Outbox(); len(again.Events) != 0 || len(again.Envelopes) != 0 {
		t.Errorf("nothing happened, yet events %+v and outbox %v", again.Events, describe(again.Envelopes))
	}
}

func TestSpawnList(t *testing.T) {
	extra := []grid.Pos{{X: 12, Y: 10}, {X: 14, Y: 10}}
	c := NewCore(Config{Rate: 20, Spawns: extra})
	// Bots first: they must leave every spawn cell free.
	for i := 1; i <= 30; i++ {
		c.Receive(0, ConnID(i), &protocol.Hello{Version: protocol.Version, Name: fmt.Sprint("bot-", i), Bot: true})
		p := posOf(t, statesTo(c.Outbox().Envelopes, ConnID(i))[0], grid.PlayerID(i))
		if p == grid.DefaultSpawn || p == extra[0] || p == extra[1] {
			t.Fatalf("bot %d spawned on a human spawn %v", i, p)
		}
	}
	want := []grid.Pos{grid.DefaultSpawn, extra[0], extra[1], {X: 10, Y: 9}}
	for i, w := range want {
		conn := ConnID(100 + i)
		c.Receive(0, conn, &protocol.Hello{Version: protocol.Version, Name: fmt.Sprint("human-", i)})
		st := statesTo(c.Outbox().Envelopes, conn)[0]
		if p := posOf(t, st, grid.PlayerID(31+i)); p != w {
			t.Errorf("human %d spawned at %v, want %v", i+1, p, w)
		}
	}
	if err := (Config{Spawns: []grid.Pos{{X: 0, Y: 0}}}).Validate(); err == nil {
		t.Error("a spawn on a wall was accepted")
	}
}

// TestSeqJumpOrWrapRefused: an input number far ahead of the last (a jump
// to 2^32-1 would make every later input look old) or far behind it (a
// wrap to 0) ends the connection with an Error and a logged leave, instead
// of every later input being ignored in silence.
func TestSeqJumpOrWrapRefused(t *testing.T) {
	for _, tc := range []struct {
		name       string
		first, bad uint32
	}{
		{"jump to the last number", 1, 1<<32 - 1},
		{"jump ahead", 7, 7 + MaxSeqJump + 1},
		{"wrap to 1", 1<<32 - 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := NewCore(Config{Rate: 20})
			join(t, c, 0, 1, "ann", false)
			join(t, c, 0, 2, "bob", false)
			c.Outbox()
			c.cl(1).lastSeq = tc.first - 1 // as if it had come this far one by one
			c.Receive(0, 1, &protocol.Input{Seq: tc.first, Dir: grid.Right})
			c.Receive(200*ms, 1, &protocol.Input{Seq: tc.bad, Dir: grid.Down})
			b := c.Outbox()
			var refused bool
			for _, env := range b.Envelopes {
				if e, ok := env.Msg.(*protocol.Error); ok && env.To == 1 && env.Close && e.Code == protocol.ErrCodeProtocol {
					refused = true
				}
			}
			if !refused {
				t.Fatalf("input #%d after #%d got %s, want a closing protocol Error", tc.bad, tc.first, describe(b.Envelopes))
			}
			if len(b.Events) != 1 || b.Events[0].Kind != EventLeave || !strings.Contains(b.Events[0].Reason, "never wrap") {
				t.Errorf("events %+v, want ann's leave saying why", b.Events)
			}
		})
	}
	// A step back within the window is a late duplicate: ignored, as before.
	c := NewCore(Config{Rate: 20})
	join(t, c, 0, 1, "ann", false)
	c.Receive(0, 1, &protocol.Input{Seq: 900, Dir: grid.Right})
	c.Receive(0, 1, &protocol.Input{Seq: 2, Dir: grid.Right})
	if _, ok := c.Player(1); !ok {
		t.Error("a late input within the window ended the connection")
	}
}

// cl returns the client of connection id.
func (c *Core) cl(id ConnID) *client { return c.conns[id] }

// A room holds as many players as its map's floor has cells (Holds):
// bots take the human spawn cell last rather than leave a cell empty,
// and the next is refused "room full", in those words, with the room-full
// code from version 6 and ErrCodeFull before.
func TestRoomFullWhenTheFloorIsTaken(t *testing.T) {
	m, err := grid.ParseMap("#####\n#...#\n#####\n")
	if err != nil {
		t.Fatal(err)
	}
	c := NewCore(Config{Rate: 20, Map: m})
	if c.Holds() != 3 {
		t.Fatalf("Holds() = %d, want the 3 cells of the floor", c.Holds())
	}
	for i := range 3 {
		join(t, c, 0, ConnID(i+1), fmt.Sprintf("bot-%d", i), true)
	}
	const text = "room full: 3 of 3 players, as many as its map's floor holds, one a cell; another room may have a place"
	for _, v := range []uint16{protocol.Version, 5} {
		id := ConnID(10 + v)
		c.Receive(0, id, &protocol.Hello{Version: v, Name: "late", Bot: true})
		out := c.Outbox().Envelopes
		e, ok := out[0].Msg.(*protocol.Error)
		if want := protocol.RoomFullCode(v); len(out) != 1 || !ok || !out[0].Close || e.Code != want || e.Text != text {
			t.Errorf("a version %d client got %v, want Error %d %q", v, describe(out), want, text)
		}
	}
}
