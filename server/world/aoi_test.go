package world

import (
	"fmt"
	"maps"
	"math/rand"
	"slices"
	"strings"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
	"gridlag/server/world/worldtest"
)

// farAndCrowd is a world on a 300x60 open map: "far" (player 1, conn 1)
// alone at (200,20), and a crowd of n players on row 20 from x=20 to
// x=19+n, out of far's reach (the nearest, at x=19+n, is more than AreaReachX
// columns away for n <= 21). Moves are fast (1 ms) so that a test can
// walk.
func farAndCrowd(t *testing.T, n int) (*Core, views) {
	t.Helper()
	var crowd []grid.Pos
	for i := range n {
		crowd = append(crowd, grid.Pos{X: 20 + i, Y: 20})
	}
	c := NewCore(Config{Map: worldtest.OpenMap(t, 300, 60), Spawn: grid.Pos{X: 200, Y: 20}, Spawns: crowd, Rate: 20, MoveTime: time.Millisecond, Burst: 1})
	v := views{}
	joinSeen(t, c, v, 0, 1, "far", false)
	for i := range n {
		joinSeen(t, c, v, 0, ConnID(2+i), fmt.Sprint("crowd-", i), false)
	}
	c.Tick(time.Millisecond)
	v.apply(c.Outbox().Envelopes)
	return c, v
}

// crowdSteps is tick k of farAndCrowd's world, 50 ms apart: each of the
// n in the crowd steps up on odd ticks, down on even ones. It returns the
// tick's envelopes, which v has applied.
func crowdSteps(c *Core, v views, n, k int) []Envelope {
	now := time.Duration(k) * 50 * time.Millisecond
	for i := range n {
		c.Receive(now, ConnID(2+i), &protocol.Input{Seq: uint32(k), Dir: []grid.Dir{grid.Up, grid.Down}[k%2]})
	}
	c.Tick(now)
	out := c.Outbox().Envelopes
	v.apply(out)
	return out
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
		out := crowdSteps(c, v, 10, k)
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
	for k := 1; k <= 10; k++ {
		c.Tick(time.Duration(k) * 50 * time.Millisecond)
		out := c.Outbox().Envelopes
		if len(out) != 11 {
			t.Fatalf("tick %d: %d frames, want 11 States", k, len(out))
		}
		for _, e := range out {
			if f := worldtest.Frame(t, e.Msg); e.Msg.Type() != protocol.TypeState || len(f) != protocol.StateHeadLen {
				t.Fatalf("tick %d: a %d-byte %v frame, want every State %d bytes", k, len(f), e.Msg.Type(), protocol.StateHeadLen)
			}
		}
	}
}

// TestWalkingIntoViewAndOut: walking towards the crowd brings its nearest
// member into view with its name (a Join before the State that shows it)
// by the time it is AreaHalfWidth columns away; walking away takes it out
// past the margin, in the State's Gone, with no Leave: it did not leave
// the game.
func TestWalkingIntoViewAndOut(t *testing.T) {
	c, v := farAndCrowd(t, 10) // the nearest, player 11, at x=29
	seq := uint32(0)
	step := func(d grid.Dir) []Envelope {
		seq++
		now := time.Duration(seq) * 10 * time.Millisecond
		c.Receive(now, 1, &protocol.Input{Seq: seq, Dir: d})
		c.Tick(now)
		out := c.Outbox().Envelopes
		v.apply(out)
		return out
	}
	x := 200
	for len(v.players(1)) == 1 {
		out := step(grid.Left)
		x--
		if x-29 < AreaHalfWidth {
			t.Fatalf("at %d columns far still sees %v", x-29, v.players(1))
		}
		if len(v.players(1)) == 1 {
			continue
		}
		if x-29 > AreaReachX {
			t.Fatalf("far sees player 11 at %d columns, beyond its reach of %d", x-29, AreaReachX)
		}
		got := messagesTo(out, 1)
		if len(got) < 2 || got[0] != protocol.TypeJoin || got[len(got)-1] != protocol.TypeState {
			t.Fatalf("coming into view: far got %v, want Joins then a State", got)
		}
		if !slices.ContainsFunc(out, func(e Envelope) bool {
			j, ok := e.Msg.(*protocol.Join)
			return ok && e.To == 1 && j.Player.ID == 11 && strings.HasPrefix(j.Player.Name, "crowd-")
		}) {
			t.Errorf("far got %v, want player 11's Join among them", got)
		}
		if ps := v.players(1); ps[len(ps)-1] != (grid.PlayerPos{ID: 11, Pos: grid.Pos{X: 29, Y: 20}}) {
			t.Fatalf("far sees %v, want player 11 at (29,20) among them", ps)
		}
	}
	for seen := true; seen; {
		out := step(grid.Right)
		x++
		seen = slices.ContainsFunc(v.players(1), func(p grid.PlayerPos) bool { return p.ID == 11 })
		switch {
		case !seen && x-29 <= AreaHalfWidth+AreaMargin:
			t.Fatalf("far lost player 11 at %d columns, within the margin", x-29)
		case seen && x-29 > AreaReachX:
			t.Fatalf("far still sees player 11 at %d columns", x-29)
		case !seen:
			if st := statesTo(out, 1)[0]; !slices.Contains(st.Gone, 11) {
				t.Errorf("out of view: State %+v; want player 11 gone", st)
			}
			if _, left := find[*protocol.Leave](out, 1); left {
				t.Error("a player walking out of view was announced as leaving the game")
			}
		}
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
	// The next tick's is a full picture again, as the others saw the
	// newcomer; it brings no name twice.
	c.Tick(time.Second + time.Millisecond)
	out := c.Outbox().Envelopes
	if st := statesTo(out, 5); !st[0].Full || len(st[0].Players) != 2 {
		t.Errorf("the State of the next tick: %+v, want a full picture of far and itself", st[0])
	}
	if got := messagesTo(out, 5); len(got) != 1 {
		t.Errorf("the next tick sent the newcomer %v, want a State alone", got)
	}
	c.Tick(time.Second + 1500*time.Microsecond)
	if st := statesTo(c.Outbox().Envelopes, 5); st[0].Full {
		t.Errorf("the State after is full again: %+v", st[0])
	}
	c.slots[5].area.reset()
	c.Tick(time.Second + 2*time.Millisecond)
	if st := statesTo(c.Outbox().Envelopes, 5); !st[0].Full || len(st[0].Players) != 2 {
		t.Errorf("after a reset: %+v, want a full picture", st[0])
	}

	var (
		a         area
		base, cur areaIndex
		nw        news
		u         areaUpdate
	)
	step := func(me grid.Pos, ps ...grid.PlayerPos) {
		cur.build(1024, 100, ps)
		nw.compare(&base, &cur)
		u = areaUpdate{}
		a.update(&u, 1, me, view{base: &base, cur: &cur, news: &nw})
		base, cur = cur, base
	}
	a.reset()
	base.build(1024, 100, nil)
	step(grid.Pos{X: 10, Y: 10}, grid.PlayerPos{ID: 1, Pos: grid.Pos{X: 10, Y: 10}}, grid.PlayerPos{ID: 2, Pos: grid.Pos{X: 11, Y: 10}})
	far := grid.Pos{X: 10 + 2*AreaHalfWidth + 1, Y: 10}
	step(far, grid.PlayerPos{ID: 1, Pos: far}, grid.PlayerPos{ID: 2, Pos: grid.Pos{X: far.X + 1, Y: 10}})
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
		c := NewCore(Config{Map: worldtest.OpenMap(t, 400, 100), Spawn: spawns[0], Spawns: spawns[1:], Rate: 20, MoveTime: time.Millisecond, Burst: 1})
		v := views{}
		for i := 1; i <= n; i++ {
			joinSeen(t, c, v, 0, ConnID(i), fmt.Sprint("p", i), false)
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
				checkPicture(t, seed, k, c, grid.PlayerID(i), *v[ConnID(i)], world)
			}
		}
	}
}

// checkPicture checks one client's picture against the world and the
// server's account of its area: it holds exactly the players in the
// area's buckets, at their true cells, which is everyone within the area's
// half sizes and nobody beyond reach.
func checkPicture(t *testing.T, seed int64, k int, c *Core, me grid.PlayerID, p worldtest.Picture, world []grid.PlayerPos) {
	t.Helper()
	at := world[me-1].Pos
	a := c.slots[me].area
	for _, w := range world {
		seen, ok := p[w.ID]
		if ok && seen != w.Pos {
			t.Fatalf("seed %d tick %d: player %d sees %d at %v, it is at %v", seed, k, me, w.ID, seen, w.Pos)
		}
		if in := a.r.has(c.base.bucketOf(w.ID), c.base.cols); in != ok {
			t.Fatalf("seed %d tick %d: player %d at %v sees %d at %v: %v; its area's buckets %+v hold it: %v", seed, k, me, at, w.ID, w.Pos, ok, a.r, in)
		}
		if !ok && within(w.Pos, at, AreaHalfWidth, AreaHalfHeight) {
			t.Fatalf("seed %d tick %d: player %d at %v does not see %d at %v", seed, k, me, at, w.ID, w.Pos)
		}
		if ok && !within(w.Pos, at, AreaReachX, AreaReachY) {
			t.Fatalf("seed %d tick %d: player %d at %v still sees %d at %v", seed, k, me, at, w.ID, w.Pos)
		}
	}
	if len(p) > len(world) {
		t.Fatalf("seed %d tick %d: player %d sees %d players of %d", seed, k, me, len(p), len(world))
	}
}

// TestAreasFollowChurn: players join between ticks (told of their area
// early), leave (their IDs coming back as newcomers'), respawn far away
// and walk. After every tick, each client's picture holds exactly the
// players in its area's buckets at their cells, everyone in it was
// introduced by a Join since it was last seen go, and nobody was
// introduced twice.
func TestAreasFollowChurn(t *testing.T) {
	for seed := int64(1); seed <= 4; seed++ {
		rng := rand.New(rand.NewSource(seed))
		c := NewCore(Config{Map: worldtest.OpenMap(t, 400, 100), Spawn: grid.Pos{X: 200, Y: 50}, Rate: 20, MoveTime: time.Millisecond, Burst: 1, MaxPlayers: 40})
		v := views{}
		named := map[ConnID]map[grid.PlayerID]bool{} // whom each client was introduced to
		seq := map[ConnID]uint32{}
		var joined []ConnID
		next := ConnID(1)
		take := func(out []Envelope) {
			v.apply(out)
			for _, e := range out {
				names := named[e.To]
				switch m := e.Msg.(type) {
				case *protocol.Join:
					if names[m.Player.ID] {
						t.Fatalf("seed %d: conn %d introduced to player %d twice", seed, e.To, m.Player.ID)
					}
					names[m.Player.ID] = true
				case *protocol.Leave:
					delete(names, m.ID)
				case *protocol.State:
					for _, id := range m.Left {
						delete(names, id)
					}
					for _, id := range m.Gone {
						delete(names, id)
					}
					if m.Full { // forget anyone else
						in := map[grid.PlayerID]bool{}
						for _, p := range m.AllPlayers(nil) {
							in[p.ID] = true
						}
						maps.DeleteFunc(names, func(id grid.PlayerID, _ bool) bool { return !in[id] })
					}
				}
			}
		}
		now := time.Duration(0)
		for k := 1; k <= 300; k++ {
			now += 10 * time.Millisecond
			for range rng.Intn(3) { // newcomers, spread by a respawn's rule
				if len(joined) < 40 {
					named[next] = map[grid.PlayerID]bool{}
					c.Receive(now, next, &protocol.Hello{Version: protocol.Version, Name: fmt.Sprint("p", next)})
					take(c.Outbox().Envelopes)
					joined = append(joined, next)
					next++
				}
			}
			if len(joined) > 0 && rng.Intn(4) == 0 { // one leaves
				i := rng.Intn(len(joined))
				c.Disconnect(now, joined[i], "gone")
				delete(v, joined[i])
				joined = slices.Delete(joined, i, i+1)
				take(c.Outbox().Envelopes)
			}
			for _, conn := range joined {
				if rng.Intn(3) > 0 {
					seq[conn]++
					d := []grid.Dir{grid.Left, grid.Right, grid.Up, grid.Down}[rng.Intn(4)]
					c.Receive(now, conn, &protocol.Input{Seq: seq[conn], Dir: d})
				}
			}
			if len(joined) > 0 && rng.Intn(10) == 0 { // a respawn far away
				cl := c.conns[joined[rng.Intn(len(joined))]]
				to := grid.Pos{X: rng.Intn(400), Y: rng.Intn(100)}
				if c.world.Free(to) {
					c.world.Place(cl.player, to)
				}
			}
			take(c.Outbox().Envelopes)
			c.Tick(now)
			take(c.Outbox().Envelopes)
			where := map[grid.PlayerID]grid.Pos{}
			for _, p := range c.Positions(nil) {
				where[p.ID] = p.Pos
			}
			for _, conn := range joined {
				cl := c.conns[conn]
				for id, at := range *v[conn] {
					if where[id] != at {
						t.Fatalf("seed %d tick %d: conn %d sees %d at %v, it is at %v", seed, k, conn, id, at, where[id])
					}
					if id != cl.player && !named[conn][id] {
						t.Fatalf("seed %d tick %d: conn %d sees %d, never introduced", seed, k, conn, id)
					}
				}
				for id, at := range where {
					_, seen := (*v[conn])[id]
					if in := cl.area.r.has(int32(c.base.bucket(at)), c.base.cols); in != seen {
						t.Fatalf("seed %d tick %d: conn %d sees %d at %v: %v; its area %+v holds it: %v", seed, k, conn, id, at, seen, cl.area.r, in)
					}
				}
			}
		}
	}
}

// TestCrowdedAreasShrinkAndHold: in a crowd larger than an area may hold,
// every area shrinks to at most MaxAreaPlayers and keeps its player's
// bucket, and a crowd walking about does not make the areas' edges come
// and go at every tick (each time with a Join per player coming back):
// once settled, few areas change from one tick to the next.
func TestCrowdedAreasShrinkAndHold(t *testing.T) {
	const n = 2600
	rng := rand.New(rand.NewSource(1))
	spawns := make([]grid.Pos, n)
	for i := range spawns {
		spawns[i] = grid.Pos{X: 1 + rng.Intn(118), Y: 1 + rng.Intn(78)}
	}
	c := NewCore(Config{Map: worldtest.OpenMap(t, 120, 80), Spawn: spawns[0], Spawns: spawns[1:], Rate: 20, MaxPlayers: n, MoveTime: time.Millisecond, Burst: 1})
	for i := 1; i <= n; i++ {
		c.Receive(0, ConnID(i), &protocol.Hello{Version: protocol.Version, Name: fmt.Sprint("p", i)})
		c.Outbox()
	}
	last := make([]rect, n+1)
	moved := 0
	for k := 1; k <= 12; k++ {
		now := time.Duration(k) * 50 * time.Millisecond
		for i := 1; i <= n; i++ {
			c.Receive(now, ConnID(i), &protocol.Input{Seq: uint32(k), Dir: grid.Dir(rng.Intn(4) + 1)})
		}
		c.Outbox()
		c.Tick(now)
		c.Outbox()
		for i := 1; i <= n; i++ {
			cl := c.conns[ConnID(i)]
			at, _ := c.world.Pos(cl.player)
			if got := c.base.count(cl.area.r); got > MaxAreaPlayers || !cl.area.r.has(int32(c.base.bucket(at)), c.base.cols) {
				t.Fatalf("tick %d: player %d at %v: area %+v holds %d players (at most %d), its own bucket: %v", k, cl.player, at, cl.area.r, got, MaxAreaPlayers, cl.area.r.has(int32(c.base.bucket(at)), c.base.cols))
			}
			if k > 2 && cl.area.r != last[i] { // the first ticks settle the areas
				moved++
			}
			last[i] = cl.area.r
		}
	}
	if share := float64(moved) / 10 / n; share > 0.005 {
		t.Errorf("%.2f%% of the areas changed at each tick in a crowd walking about, want them to hold (at most 0.5%%)", 100*share)
	}
}

// TestFitShrinksOnlyWhereThereIsRoom: on a map one bucket high, packed
// past MaxAreaPlayers, an area shrinks by columns alone, to at most
// MaxAreaPlayers, around its player's bucket, wherever the player is.
func TestFitShrinksOnlyWhereThereIsRoom(t *testing.T) {
	var ps []grid.PlayerPos
	for x := range 1024 {
		for y := range bucketH {
			ps = append(ps, grid.PlayerPos{ID: grid.PlayerID(len(ps) + 1), Pos: grid.Pos{X: x, Y: y}})
		}
	}
	var ix areaIndex
	ix.build(1024, bucketH, ps)
	for _, at := range []grid.Pos{{X: 0, Y: 0}, {X: 500, Y: 7}, {X: 1023, Y: 3}} {
		r := fit(&ix, at)
		n := ix.count(r)
		if n > MaxAreaPlayers || !r.has(int32(ix.bucket(at)), ix.cols) || r.y0 != 0 || r.y1 != 0 {
			t.Errorf("at %v: area %+v holds %d players, want at most %d, around its bucket", at, r, n, MaxAreaPlayers)
		}
		if full := ix.count(ix.cover(at, AreaHalfWidth+AreaMargin, 0)); full > MaxAreaPlayers && n <= MaxAreaPlayers-bucketW*bucketH {
			t.Errorf("at %v: %d players around, the area keeps %d: shrunk by more than a bucket", at, full, n)
		}
	}
}

// TestAreasOffTellOfEveryone: with the areas of interest turned off (the
// scale lab's switch), the far player is introduced to the whole crowd
// and hears of its moves; turned on again, the crowd goes out of its
// view, as if it had walked away.
func TestAreasOffTellOfEveryone(t *testing.T) {
	c, v := farAndCrowd(t, 10)
	step := func(k int) []Envelope { return crowdSteps(c, v, 10, k) }
	step(1)
	if ps := v.players(1); len(ps) != 1 {
		t.Fatalf("areas on: far sees %d players, want itself alone", len(ps))
	}
	c.SetAreas(false)
	out := step(2)
	if joins := slices.Index(messagesTo(out, 1), protocol.TypeJoin); joins < 0 {
		t.Errorf("areas off: far got %v, want Joins for the crowd", messagesTo(out, 1))
	}
	if ps := v.players(1); len(ps) != 11 {
		t.Fatalf("areas off: far sees %d players, want the 10 of the crowd and itself", len(ps))
	}
	if st := statesTo(step(3), 1)[0]; len(st.Players) != 10 {
		t.Errorf("areas off: far's State told of %d moves, want the crowd's 10", len(st.Players))
	}
	c.SetAreas(true)
	step(4)
	if ps := v.players(1); len(ps) != 1 {
		t.Errorf("areas on again: far sees %d players, want itself alone", len(ps))
	}
}
