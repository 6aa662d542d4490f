package world

import (
	"strings"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
	"gridlag/server/world/worldtest"
)

// resumeCore is a Core with a 30 s resume window, immediate mode.
func resumeCore() *Core { return NewCore(Config{Resume: 30 * time.Second}) }

// resumeWith sends a Resume with tok from conn and returns the outbox.
func resumeWith(c *Core, now time.Duration, conn ConnID, tok protocol.Token) []Envelope {
	c.Receive(now, conn, &protocol.Resume{Version: protocol.Version, Token: tok})
	return c.Outbox().Envelopes
}

// walk sends inputs seq from..to, all right, 200 ms apart from start.
func walk(c *Core, start time.Duration, conn ConnID, from, to uint32) time.Duration {
	return walkSeen(c, nil, start, conn, from, to)
}

// walkSeen is walk, keeping what the clients are told in v (if not nil).
func walkSeen(c *Core, v views, start time.Duration, conn ConnID, from, to uint32) time.Duration {
	now := start
	for seq := from; seq <= to; seq++ {
		c.Receive(now, conn, &protocol.Input{Seq: seq, Dir: grid.Right})
		now += 200 * ms
	}
	if out := c.Outbox().Envelopes; v != nil {
		v.apply(out)
	}
	return now
}

// posIn returns where player id is in a client's picture ps, or stops the
// test.
func posIn(t *testing.T, ps []grid.PlayerPos, id grid.PlayerID) grid.Pos {
	t.Helper()
	for _, p := range ps {
		if p.ID == id {
			return p.Pos
		}
	}
	t.Fatalf("player %d not in the picture %v", id, ps)
	return grid.Pos{}
}

func TestWelcomeGivesAnUnguessableToken(t *testing.T) {
	c := resumeCore()
	a := join(t, c, 0, 1, "ann", false)
	b := join(t, c, 0, 2, "bob", false)
	if a.Token.IsZero() || b.Token.IsZero() || a.Token == b.Token {
		t.Fatalf("tokens %x and %x: want two different non-zero ones", a.Token, b.Token)
	}
	if len(a.Token) < 16 || a.ResumeS != 30 {
		t.Errorf("token of %d bytes, window %d s: want at least 128 bits and 30 s", len(a.Token), a.ResumeS)
	}
	off := NewCore(Config{})
	if w := join(t, off, 0, 1, "ann", false); !w.Token.IsZero() || w.ResumeS != 0 {
		t.Errorf("resume off: welcome token %x, window %d; want none", w.Token, w.ResumeS)
	}
}

func TestResumeWithinTheWindowKeepsIDCellAndNumbering(t *testing.T) {
	c := resumeCore()
	v := views{}
	w := joinSeen(t, c, v, 0, 1, "ann", false)
	joinSeen(t, c, v, 0, 2, "bob", false)
	now := walkSeen(c, v, 0, 1, 1, 3) // ann at (13,10), last input #3
	c.Drop(now, 1, "read: connection reset")
	out := c.Outbox()
	if len(out.Events) != 1 || out.Events[0].Kind != EventAway {
		t.Fatalf("drop: events %+v, want one away", out.Events)
	}
	for _, e := range out.Envelopes {
		if _, ok := e.Msg.(*protocol.Leave); ok {
			t.Fatalf("a Leave went out at the drop: %s", describe(out.Envelopes))
		}
	}
	if s := c.Stats(); s.Players != 2 || s.Away != 1 {
		t.Errorf("after the drop: %d players, %d away; want 2 and 1", s.Players, s.Away)
	}
	// Others still see ann standing, blocking her cell.
	c.Receive(now, 2, &protocol.Input{Seq: 1, Dir: grid.Right})
	out = c.Outbox()
	v.apply(out.Envelopes)
	if st := statesTo(out.Envelopes, 2); len(st) != 1 || posIn(t, v.players(2), 1) != (grid.Pos{X: 13, Y: 10}) {
		t.Errorf("bob's state %+v, picture %v: want ann kept at (13,10)", st, v.players(2))
	}

	env := resumeWith(c, now+29*time.Second, 3, w.Token)
	w2, ok := env[0].Msg.(*protocol.Welcome)
	if !ok || env[0].To != 3 || w2.Player != w.Player {
		t.Fatalf("resume at 29 s: %s, want a Welcome for player %d", describe(env), w.Player)
	}
	if w2.Token.IsZero() || w2.Token == w.Token {
		t.Errorf("the resumed Welcome's token %x: want a new one", w2.Token)
	}
	var joins int
	for _, e := range env {
		if j, ok := e.Msg.(*protocol.Join); ok && e.To == 3 && j.Player.Name == "bob" {
			joins++
		}
	}
	st := statesTo(env, 3)
	if joins != 1 || len(st) != 1 || st[0].Ack != 3 || posOf(t, st[0], 1) != (grid.Pos{X: 13, Y: 10}) {
		t.Fatalf("resume: %s; want bob's Join and a State with ack 3, ann at (13,10)", describe(env))
	}
	// The numbering goes on: #3 again is refused, #4 moves.
	c.Receive(now+30*time.Second, 3, &protocol.Input{Seq: 3, Dir: grid.Right})
	c.Receive(now+30*time.Second, 3, &protocol.Input{Seq: 4, Dir: grid.Right})
	st = statesTo(c.Outbox().Envelopes, 3)
	if s := c.Stats(); s.InputsRefused != 1 || s.Resumes != 1 || s.Away != 0 {
		t.Errorf("stats %+v: want #3 refused once, one resume, none away", s)
	}
	if last := st[len(st)-1]; last.Ack != 4 || posOf(t, last, 1) != (grid.Pos{X: 14, Y: 10}) {
		t.Errorf("after #4: %+v, want ack 4 at (14,10)", last)
	}
	// Long after, the window of the first drop means nothing.
	c.Tick(now + time.Hour)
	if _, ok := c.Player(3); !ok {
		t.Errorf("the resumed player left at the old drop's window")
	}
}

func TestAfterTheWindowTheAvatarLeavesAndTheTokenIsRefused(t *testing.T) {
	c := resumeCore()
	w := join(t, c, 0, 1, "ann", false)
	join(t, c, 0, 2, "bob", false)
	c.Drop(time.Second, 1, "read: EOF")
	c.Outbox()
	c.Tick(31 * time.Second)
	out := c.Outbox()
	var leave bool
	for _, e := range out.Envelopes {
		if worldtest.LeftGame(e.Msg, w.Player) && e.To == 2 {
			leave = true
		}
	}
	if !leave || len(out.Events) != 1 || out.Events[0].Kind != EventLeave || !strings.Contains(out.Events[0].Reason, "did not come back within 30s") {
		t.Fatalf("at 31 s: %s, events %+v; want ann's Leave to bob, logged as not back within 30s", describe(out.Envelopes), out.Events)
	}
	if s := c.Stats(); s.Players != 1 || s.Away != 0 {
		t.Errorf("stats %+v: want bob alone", s)
	}
	env := resumeWith(c, 32*time.Second, 3, w.Token)
	e, ok := env[0].Msg.(*protocol.Error)
	if len(env) != 1 || !ok || !env[0].Close || e.Code != protocol.ErrCodeResume || !strings.Contains(e.Text, "resume refused") {
		t.Fatalf("resume after the window: %s, want an Error %d and close", describe(env), protocol.ErrCodeResume)
	}
}

func TestTheWindowEndsOnAnyCallWithTime(t *testing.T) {
	// No ticks in immediate mode: the next message after 31 s ends it, and
	// the token it carries is refused.
	c := resumeCore()
	w := join(t, c, 0, 1, "ann", false)
	c.Drop(time.Second, 1, "read: EOF")
	env := resumeWith(c, 32*time.Second, 2, w.Token)
	if _, ok := env[0].Msg.(*protocol.Error); !ok {
		t.Fatalf("resume at 32 s: %s, want an Error", describe(env))
	}
	if s := c.Stats(); s.Players != 0 {
		t.Errorf("%d players: want the avatar gone", s.Players)
	}
}

func TestTokenWorksOnce(t *testing.T) {
	c := resumeCore()
	w := join(t, c, 0, 1, "ann", false)
	c.Drop(time.Second, 1, "read: EOF")
	if env := resumeWith(c, 2*time.Second, 2, w.Token); env[0].Msg.Type() != protocol.TypeWelcome {
		t.Fatalf("first resume: %s", describe(env))
	}
	c.Drop(3*time.Second, 2, "read: EOF")
	env := resumeWith(c, 4*time.Second, 3, w.Token)
	if e, ok := env[0].Msg.(*protocol.Error); !ok || e.Code != protocol.ErrCodeResume {
		t.Fatalf("the same token again: %s, want it refused", describe(env))
	}
	var guess protocol.Token
	guess[0] = 1
	if env := resumeWith(c, 4*time.Second, 4, guess); env[0].Msg.Type() != protocol.TypeError {
		t.Fatalf("a guessed token: %s, want it refused", describe(env))
	}
}

func TestResumeWhileTheOldConnectionIsStillOpen(t *testing.T) {
	c := resumeCore()
	w := join(t, c, 0, 1, "ann", false)
	walk(c, 0, 1, 1, 2)
	// The client saw its connection break; the server has not noticed.
	env := resumeWith(c, time.Second, 2, w.Token)
	var closedOld bool
	for _, e := range env {
		if e.To == 1 && e.Close {
			closedOld = true
		}
	}
	st := statesTo(env, 2)
	if !closedOld || len(st) != 1 || st[0].Ack != 2 {
		t.Fatalf("half-open resume: %s; want the old connection closed and a State with ack 2 to the new", describe(env))
	}
	if id, ok := c.Player(2); !ok || id != w.Player {
		t.Errorf("new connection plays %d %v, want %d", id, ok, w.Player)
	}
	// The old connection's inputs and its end change nothing.
	c.Receive(2*time.Second, 1, &protocol.Input{Seq: 3, Dir: grid.Right})
	c.Drop(2*time.Second, 1, "read: EOF")
	out := c.Outbox()
	if len(out.Events) != 0 || c.Stats().Players != 1 || c.Stats().InputsProcessed != 2 {
		t.Errorf("old connection after the resume: events %+v, stats %+v", out.Events, c.Stats())
	}
	c.Receive(2*time.Second, 2, &protocol.Input{Seq: 3, Dir: grid.Right})
	if st := statesTo(c.Outbox().Envelopes, 2); len(st) == 0 || st[len(st)-1].Ack != 3 {
		t.Errorf("input #3 on the new connection: %+v", st)
	}
}

func TestByeAndDisconnectDoNotKeepTheAvatar(t *testing.T) {
	c := resumeCore()
	a := join(t, c, 0, 1, "ann", false)
	join(t, c, 0, 2, "bob", false)
	c.Receive(time.Second, 1, &protocol.Bye{Reason: "player quit"})
	c.Disconnect(time.Second, 2, "server shutting down")
	c.Outbox()
	if s := c.Stats(); s.Players != 0 || s.Away != 0 {
		t.Fatalf("stats %+v: want everyone gone", s)
	}
	if env := resumeWith(c, 2*time.Second, 3, a.Token); env[0].Msg.Type() != protocol.TypeError {
		t.Errorf("resume after a Bye: %s, want it refused", describe(env))
	}
}

// TestResumeKeepsPointsAndFreeze: bob, tagged by ann, drops while frozen;
// nothing goes to his dead connection meanwhile; resumed, he hears the
// scoreboard (ann's point, his freeze) and still cannot move until he
// thaws.
func TestResumeKeepsPointsAndFreeze(t *testing.T) {
	cfg := Config{LagComp: true, Unlag: DefaultUnlag, Resume: 30 * time.Second, Map: worldtest.OpenMap(t, 30, 20)}
	cfg.Spawn, cfg.Spawns = grid.Pos{X: 10, Y: 10}, []grid.Pos{{X: 12, Y: 10}}
	c := NewCore(cfg)
	join(t, c, 0, 1, "ann", false)
	bob := join(t, c, 0, 2, "bob", false)
	c.Outbox()
	out := zapAt(t, c, 100*ms, 0, 1)
	if _, ok := find[*protocol.Tagged](out, 2); !ok {
		t.Fatalf("ann's zap: %s, want bob tagged", describe(out))
	}
	c.Drop(200*ms, 2, "read: connection reset")
	c.Outbox()
	c.Ping(300 * ms)
	c.Tick(400 * ms)
	for _, e := range c.Outbox().Envelopes {
		if e.To == 2 {
			t.Errorf("%T sent to bob's dropped connection", e.Msg)
		}
	}
	env := resumeWith(c, 500*ms, 3, bob.Token)
	sc, ok := find[*protocol.Ranking](env, 3)
	if !ok {
		t.Fatalf("resume: %s, want the scoreboard", describe(env))
	}
	points := entries(sc)
	if points[1].Points != 1 || !points[bob.Player].Frozen {
		t.Errorf("scoreboard after the resume %+v: want ann's point and bob frozen", sc.Players)
	}
	v := views{}
	v.apply(env)
	c.Receive(600*ms, 3, &protocol.Input{Seq: 1, Dir: grid.Down})
	out = c.Outbox().Envelopes
	v.apply(out)
	if st := statesTo(out, 3); len(st) != 1 || st[0].Ack != 1 || posIn(t, v.players(3), bob.Player) != (grid.Pos{X: 12, Y: 10}) {
		t.Errorf("a move of the resumed, frozen bob: %+v, picture %v, want acknowledged and still at (12,10)", st, v.players(3))
	}
}

// TestAwayPlayerInAreas: with areas of interest, a dropped player's
// connection hears nothing (no State, Join, Leave or Scores) while those
// near still see it standing in their area; a newcomer near it meets it
// with a Join; when its window ends whoever has it in view hears that it
// left (in its State; the spectators in a Leave), not a player far away.
func TestAwayPlayerInAreas(t *testing.T) {
	ann, bob, far, cid := grid.Pos{X: 20, Y: 20}, grid.Pos{X: 22, Y: 20}, grid.Pos{X: 300, Y: 20}, grid.Pos{X: 20, Y: 22}
	c := NewCore(Config{Map: worldtest.OpenMap(t, 400, 60), Spawn: ann, Spawns: []grid.Pos{ann, bob, far, cid}, Rate: 20, Resume: 30 * time.Second})
	v := views{}
	joinSeen(t, c, v, 0, 1, "ann", false)
	joinSeen(t, c, v, 0, 2, "bob", false)
	joinSeen(t, c, v, 0, 3, "far", false)
	spectate(t, c, 0, 9, "teacher")
	c.Tick(50 * ms)
	v.apply(c.Outbox().Envelopes)
	if got := v.players(2); len(got) != 2 || posIn(t, got, 1) != ann {
		t.Fatalf("bob's picture %v, want ann and himself", got)
	}

	c.Drop(time.Second, 1, "read: connection reset")
	c.Outbox()
	c.Receive(1100*ms, 2, &protocol.Bye{Reason: "dinner"})                         // a Leave ann had in view
	c.Receive(1100*ms, 4, &protocol.Hello{Version: protocol.Version, Name: "cid"}) // a newcomer next to ann
	c.Tick(1150 * ms)
	c.Ping(1200 * ms)
	out := c.Outbox().Envelopes
	v.apply(out)
	if m := messagesTo(out, 1); len(m) != 0 {
		t.Errorf("sent %v to ann's dropped connection", m)
	}
	if posIn(t, v.players(4), 1) != ann {
		t.Errorf("cid's picture %v, want ann standing at %v", v.players(4), ann)
	}
	var met bool
	for _, e := range out {
		if j, ok := e.Msg.(*protocol.Join); ok && e.To == 4 && j.Player.ID == 1 {
			met = true
		}
	}
	if !met {
		t.Errorf("cid did not meet ann: %s", describe(out))
	}

	c.Tick(31 * time.Second)
	out = c.Outbox().Envelopes
	leaves := map[ConnID]bool{}
	for _, e := range out {
		if worldtest.LeftGame(e.Msg, 1) {
			leaves[e.To] = true
		}
	}
	if len(leaves) != 2 || !leaves[4] || !leaves[9] {
		t.Errorf("ann's Leave at the window's end went to %v, want cid (conn 4) and the spectator (9) only", leaves)
	}
}

// TestAwayWindowsEndInTurn: players dropped at different times each leave
// when their own window ends, not before, whichever call comes then; one
// who came back is kept.
func TestAwayWindowsEndInTurn(t *testing.T) {
	c := resumeCore()
	carl := join(t, c, 0, 1, "carl", false)
	join(t, c, 0, 2, "ann", false)
	join(t, c, 0, 3, "bob", false)
	c.Drop(500*time.Millisecond, 1, "read: EOF")
	c.Drop(time.Second, 2, "read: EOF")
	c.Drop(5*time.Second, 3, "read: EOF")
	resumeWith(c, 2*time.Second, 4, carl.Token)
	for _, step := range []struct {
		now         time.Duration
		players, in int // players in the world, of whom away
	}{
		{30*time.Second + 500*time.Millisecond, 3, 2}, // carl's old window: he came back
		{31*time.Second - time.Millisecond, 3, 2},
		{31 * time.Second, 2, 1}, // ann's ends
		{35*time.Second - time.Millisecond, 2, 1},
		{35 * time.Second, 1, 0}, // bob's ends
	} {
		c.Tick(step.now)
		c.Outbox()
		if s := c.Stats(); s.Players != step.players || s.Away != step.in {
			t.Fatalf("at %v: %d players, %d away; want %d, %d away", step.now, s.Players, s.Away, step.players, step.in)
		}
	}
	if _, ok := c.Player(4); !ok {
		t.Error("carl, who came back, left")
	}
}
