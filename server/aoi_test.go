package server

import (
	"math/rand"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
)

// farAndCrowd is a world on a 200x60 open map: "far" (player 1, conn 1)
// alone at (160,20), and a crowd of n players on row 20 from x=20 to
// x=19+n, just out of far's view (the nearest, at x=19+n, is more than
// AreaHalfWidth columns away for n <= 12). Moves are fast (1 ms) so that a
// test can walk.
func farAndCrowd(t *testing.T, n int) (*Core, views) {
	t.Helper()
	var crowd []grid.Pos
	for i := range n {
		crowd = append(crowd, grid.Pos{X: 20 + i, Y: 20})
	}
	c := NewCore(Config{Map: openMap(t, 200, 60), Spawn: grid.Pos{X: 160, Y: 20}, Spawns: crowd, Rate: 20, MoveTime: time.Millisecond, Burst: 1})
	v := views{}
	joinSeen(t, c, v, 0, 1, "far", false)
	for i := range n {
		joinSeen(t, c, v, 0, ConnID(2+i), "crowd", false)
	}
	c.Tick(time.Millisecond)
	v.apply(c.Outbox().Envelopes)
	return c, v
}

// messagesTo returns the types of the messages in out to conn.
func messagesTo(out []Envelope, conn ConnID) []protocol.Type {
	var ts []protocol.Type
	for _, e := range out {
		if e.To == conn {
			ts = append(ts, e.Msg.Type())
		}
	}
	return ts
}

// TestFarClientHearsNothingOfTheCrowd: a player far from a walking crowd
// gets no Join, and States that are their head alone.
func TestFarClientHearsNothingOfTheCrowd(t *testing.T) {
	c, v := farAndCrowd(t, 10)
	for k := 1; k <= 20; k++ {
		now := time.Duration(k) * 50 * time.Millisecond
		for i := range 10 {
			c.Receive(now, ConnID(2+i), &protocol.Input{Seq: uint32(k), Dir: []grid.Dir{grid.Up, grid.Down}[k%2]})
		}
		c.Tick(now)
		out := c.Outbox().Envelopes
		v.apply(out)
		if got := messagesTo(out, 1); len(got) != 1 || got[0] != protocol.TypeState {
			t.Fatalf("tick %d: far got %v, want one State", k, got)
		}
		st := statesTo(out, 1)[0]
		if b, _ := protocol.Marshal(st); len(b) != protocol.StateHeadLen {
			t.Errorf("tick %d: far's State is %d bytes, want the %d-byte head", k, len(b), protocol.StateHeadLen)
		}
		if crowd := statesTo(out, 2)[0]; len(crowd.Players) != 10 {
			t.Errorf("tick %d: a crowd member saw %d moves, want the 10 of the crowd", k, len(crowd.Players))
		}
	}
	if ps := v.players(1); len(ps) != 1 || ps[0].ID != 1 {
		t.Errorf("far sees %v, want itself alone", ps)
	}
}

// TestIdleCrowdCostsHeadersOnly: when nobody moves, every State of every
// tick is its 19-byte head.
func TestIdleCrowdCostsHeadersOnly(t *testing.T) {
	c, _ := farAndCrowd(t, 10)
	var enc encoder
	for k := 1; k <= 10; k++ {
		c.Tick(time.Duration(k) * 50 * time.Millisecond)
		frames := enc.encode(c.Outbox().Envelopes, wholeStates, nil, nil)
		if len(frames) != 11 {
			t.Fatalf("tick %d: %d frames, want 11 States", k, len(frames))
		}
		for _, f := range frames {
			if len(f.head) != protocol.StateHeadLen {
				t.Fatalf("tick %d: a %d-byte frame, want every State %d bytes", k, len(f.head), protocol.StateHeadLen)
			}
		}
	}
}

// TestWalkingIntoViewAndOut: walking towards the crowd brings its nearest
// member into view with its name (a Join before the State that shows it);
// walking away takes it out past the margin, in the State's Gone, with no
// Leave: it did not leave the game.
func TestWalkingIntoViewAndOut(t *testing.T) {
	c, v := farAndCrowd(t, 10) // the nearest, player 11, at x=29
	seq := uint32(0)
	walk := func(d grid.Dir, steps int) []Envelope {
		var all []Envelope
		for range steps {
			seq++
			now := time.Duration(seq) * 10 * time.Millisecond
			c.Receive(now, 1, &protocol.Input{Seq: seq, Dir: d})
			c.Tick(now)
			out := c.Outbox().Envelopes
			v.apply(out)
			all = append(all, out...)
		}
		return all
	}
	out := walk(grid.Left, 2) // x=158: 129 columns from x=29
	if len(v.players(1)) != 1 {
		t.Fatalf("at 129 columns far sees %v", v.players(1))
	}
	out = walk(grid.Left, 1) // x=157: 128 columns, in view
	got := messagesTo(out, 1)
	if len(got) != 2 || got[0] != protocol.TypeJoin || got[1] != protocol.TypeState {
		t.Fatalf("coming into view: far got %v, want a Join then a State", got)
	}
	if j, _ := find[*protocol.Join](out, 1); j.Player.ID != 11 || j.Player.Name != "crowd" {
		t.Errorf("join %+v, want player 11, crowd", j.Player)
	}
	if ps := v.players(1); len(ps) != 2 || ps[1] != (grid.PlayerPos{ID: 11, Pos: grid.Pos{X: 29, Y: 20}}) {
		t.Fatalf("far sees %v, want itself and player 11 at (29,20)", ps)
	}
	out = walk(grid.Right, 8) // x=165: 136 columns, still in the margin
	if len(v.players(1)) != 2 {
		t.Fatalf("within the margin far sees %v, want player 11 still", v.players(1))
	}
	out = walk(grid.Right, 1) // x=166: out of view
	st := statesTo(out, 1)[0]
	if len(st.Gone) != 1 || st.Gone[0] != 11 || len(v.players(1)) != 1 {
		t.Errorf("out of view: State %+v, far sees %v; want player 11 gone", st, v.players(1))
	}
	if _, left := find[*protocol.Leave](out, 1); left {
		t.Error("a player walking out of view was announced as leaving the game")
	}
}

// TestFullPictureOnJoinResetAndJump: the first State after a join, after
// the area is reset (a resume) and after the player's cell jumps beyond its
// old area (a respawn far away) is a full picture.
func TestFullPictureOnJoinResetAndJump(t *testing.T) {
	c, _ := farAndCrowd(t, 3)
	c.Receive(time.Second, 5, &protocol.Hello{Version: protocol.Version, Name: "new"})
	// Every spawn cell is taken: it joins next to far.
	if st := statesTo(c.Outbox().Envelopes, 5); len(st) != 1 || !st[0].Full || len(st[0].Players) != 2 {
		t.Fatalf("a newcomer's first State %+v, want a full picture of far and itself", st)
	}
	c.Tick(time.Second + time.Millisecond)
	if st := statesTo(c.Outbox().Envelopes, 5); st[0].Full {
		t.Errorf("the next State is full again: %+v", st[0])
	}
	c.slots[5].area.reset()
	c.Tick(time.Second + 2*time.Millisecond)
	if st := statesTo(c.Outbox().Envelopes, 5); !st[0].Full || len(st[0].Players) != 2 {
		t.Errorf("after a reset: %+v, want a full picture", st[0])
	}

	var (
		a    area
		ix   areaIndex
		seen marks
		u    areaUpdate
	)
	a.reset()
	ix.build(1024, 100, []grid.PlayerPos{{ID: 1, Pos: grid.Pos{X: 10, Y: 10}}, {ID: 2, Pos: grid.Pos{X: 11, Y: 10}}})
	a.update(&u, 1, grid.Pos{X: 10, Y: 10}, &ix, &seen, nil)
	u = areaUpdate{}
	far := grid.Pos{X: 10 + 2*protocol.AreaHalfWidth + 1, Y: 10}
	ix.build(1024, 100, []grid.PlayerPos{{ID: 1, Pos: far}, {ID: 2, Pos: grid.Pos{X: far.X + 1, Y: 10}}})
	a.update(&u, 1, far, &ix, &seen, nil)
	if !u.full || len(u.gone) != 0 || len(u.changed) != 2 || len(u.met) != 0 {
		t.Errorf("a jump: %+v, want a full picture of both, player 2 already met", u)
	}
}

// TestAreasMatchTheWorld: on a map wider than the area, with players
// walking at random, every client's picture holds exactly every player
// within its area at its true cell, plus perhaps ones it saw within the
// margin, also at their true cells, and no one beyond.
func TestAreasMatchTheWorld(t *testing.T) {
	for seed := int64(1); seed <= 3; seed++ {
		rng := rand.New(rand.NewSource(seed))
		const n = 40
		var spawns []grid.Pos
		for range n {
			spawns = append(spawns, grid.Pos{X: 1 + rng.Intn(398), Y: 1 + rng.Intn(98)})
		}
		c := NewCore(Config{Map: openMap(t, 400, 100), Spawn: spawns[0], Spawns: spawns[1:], Rate: 20, MoveTime: time.Millisecond, Burst: 1})
		v := views{}
		for i := 1; i <= n; i++ {
			joinSeen(t, c, v, 0, ConnID(i), "p", false)
		}
		seq := make([]uint32, n+1)
		for k := 1; k <= 400; k++ {
			now := time.Duration(k) * 10 * time.Millisecond
			for i := 1; i <= n; i++ {
				if rng.Intn(3) > 0 {
					seq[i]++
					// mostly sideways, to cross area edges
					d := []grid.Dir{grid.Left, grid.Right, grid.Left, grid.Right, grid.Up, grid.Down}[(i+k/40)%2+2*rng.Intn(3)]
					c.Receive(now, ConnID(i), &protocol.Input{Seq: seq[i], Dir: d})
				}
			}
			v.apply(c.Outbox().Envelopes)
			c.Tick(now)
			v.apply(c.Outbox().Envelopes)
			world := c.Positions(nil)
			for i := 1; i <= n; i++ {
				checkPicture(t, seed, k, grid.PlayerID(i), *v[ConnID(i)], world)
			}
		}
	}
}

// checkPicture checks one client's picture against the world.
func checkPicture(t *testing.T, seed int64, k int, me grid.PlayerID, p picture, world []grid.PlayerPos) {
	t.Helper()
	at := world[me-1].Pos
	for _, w := range world {
		seen, ok := p[w.ID]
		if ok && seen != w.Pos {
			t.Fatalf("seed %d tick %d: player %d sees %d at %v, it is at %v", seed, k, me, w.ID, seen, w.Pos)
		}
		if !ok && within(w.Pos, at, protocol.AreaHalfWidth, protocol.AreaHalfHeight) {
			t.Fatalf("seed %d tick %d: player %d at %v does not see %d at %v", seed, k, me, at, w.ID, w.Pos)
		}
		if ok && !within(w.Pos, at, protocol.AreaHalfWidth+protocol.AreaMargin, protocol.AreaHalfHeight+protocol.AreaMargin) {
			t.Fatalf("seed %d tick %d: player %d at %v still sees %d at %v", seed, k, me, at, w.ID, w.Pos)
		}
	}
	if len(p) > len(world) {
		t.Fatalf("seed %d tick %d: player %d sees %d players of %d", seed, k, me, len(p), len(world))
	}
}
