package hub

import (
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
	"gridlag/server/world"
)

// sentOf returns the messages of type T p was sent, in order.
func sentOf[T any, M interface {
	*T
	protocol.Message
}](p *peer) []T {
	var ms []T
	for _, m := range p.got {
		if v, ok := m.(M); ok {
			ms = append(ms, *v)
		}
	}
	return ms
}

// conditionsOf returns the Conditions p was sent, in order.
func conditionsOf(p *peer) []protocol.Conditions { return sentOf[protocol.Conditions](p) }

// teacherIn connects a teacher's connection (Origin.Teacher) to room.
func (r *rig) teacherIn(room string) *peer {
	r.t.Helper()
	t := r.dialFrom(Origin{Host: "192.0.2.250", Teacher: true})
	t.send(&protocol.Teach{Version: protocol.Version, Name: "hopper", Room: room})
	if _, ok := t.next("the teacher's Spectating").(*protocol.Spectating); !ok {
		r.t.Fatalf("the teacher got %+v, want Spectating", t.got)
	}
	return t
}

// TestClassNetworkBothWays: the network a teacher sets holds for every
// student of the room, both ways, on the virtual clock: an Input reaches
// the world half the round trip after it was sent, and what the world
// sends reaches the student half the round trip after; a student of
// protocol version 4 is held to it too but is told nothing of the class,
// while one of version 5 is told; a spectator and the teacher are not
// delayed; and once the teacher sets no network, nothing is held.
func TestClassNetworkBothWays(t *testing.T) {
	r, ann, old := lecture(t, Options{Config: world.Config{Rate: 20}}, 4)
	spec := r.dial(host(3))
	spec.send(&protocol.Spectate{Version: protocol.Version, Name: "proj", Room: "lecture"})
	teacher := r.teacherIn("lecture")
	r.advance(100 * ms)
	if got := conditionsOf(ann); len(got) != 1 || got[0].Teachers != 1 || got[0].Rate != 20 {
		t.Fatalf("ann was told %+v, want the class's Conditions: one teacher, rate 20", got)
	}
	if got := conditionsOf(spec); len(got) != 1 {
		t.Errorf("the spectator was told %+v, want the class's Conditions", got)
	}

	teacher.send(&protocol.Conditions{LatencyMS: 300, Rate: 20})
	set := r.now
	for _, p := range []*peer{ann, old} {
		id := p.got[0].(*protocol.Welcome).Player
		sent := r.now
		p.send(&protocol.Input{Seq: 1, Dir: grid.Right})
		cell := func() grid.Pos {
			for _, o := range r.h.rooms["lecture"].core.Overview(r.now, nil) {
				if o.ID == id {
					return o.Pos
				}
			}
			return grid.Pos{}
		}
		start := cell()
		for cell() == start {
			r.advance(ms)
		}
		if took := r.now - sent; took != 150*ms {
			t.Errorf("player %d's RIGHT reached the world %v after it was sent, want 150ms (half the round trip)", id, took)
		}
		p.state("ack 1", func(st *protocol.State) bool { return st.Ack == 1 })
		if took := p.at[p.read-1] - sent; took < 300*ms || took > 350*ms {
			t.Errorf("player %d's ack came %v after the RIGHT, want 300ms and a tick at most", id, took)
		}
	}
	if got := conditionsOf(ann); len(got) != 2 || got[1].LatencyMS != 300 {
		t.Errorf("ann was told %+v, want the 300 ms", got)
	}
	for i, m := range ann.got {
		if c, ok := m.(*protocol.Conditions); ok && c.LatencyMS == 300 && ann.at[i] != set+150*ms {
			t.Errorf("ann was told of the 300 ms at %v, want %v: half the round trip after it was set", ann.at[i], set+150*ms)
		}
	}
	for _, m := range old.got {
		switch m.(type) {
		case *protocol.Conditions, *protocol.Class:
			t.Errorf("the version 4 player was sent a %v", m.Type())
		}
	}
	// The spectator's Overviews are not held.
	n := len(spec.got)
	r.advance(50 * ms)
	if len(spec.got) == n || spec.at[len(spec.at)-1] != r.now {
		t.Errorf("the spectator's Overview did not come at once with its tick")
	}

	teacher.send(&protocol.Conditions{Rate: 20})
	r.advance(time.Second)
	if len(r.h.lined) != 0 {
		t.Errorf("%d connections keep a network after the teacher set none", len(r.h.lined))
	}
	sent := r.now
	ann.send(&protocol.Input{Seq: 2, Dir: grid.Left})
	ann.state("ack 2", func(st *protocol.State) bool { return st.Ack == 2 })
	if took := ann.at[ann.read-1] - sent; took > 50*ms {
		t.Errorf("with no network, ann's ack came %v after, want within a tick", took)
	}
}

// TestClassReportsAndDismissal: a student's Report reaches the teachers
// as a Class; a second teacher gets every report so far; when the last
// teacher leaves, the room's rate and lag compensation are the server's
// again and every student of version 5 is told there is no teacher.
func TestClassReportsAndDismissal(t *testing.T) {
	r := newRig(t, Options{Config: world.Config{Rate: 20, LagComp: true}})
	r.h.PingEvery(0, 0)
	ann := r.dial(host(1))
	annID := ann.join("ann", "lecture").Player
	one := r.teacherIn("lecture")
	one.send(&protocol.Conditions{Rate: 5, LagComp: false, Predict: protocol.HoldOff})
	if c := r.h.rooms["lecture"].core.Config(); c.Rate != 5 || c.LagComp {
		t.Fatalf("the room plays at %d Hz, lag compensation %v: want the teacher's 5 and off", c.Rate, c.LagComp)
	}
	ann.send(&protocol.Report{Pending: 2, Corrections: 7, RTTMS: 120})
	got := one.until("ann's report", func(m protocol.Message) bool { _, ok := m.(*protocol.Class); return ok }).(*protocol.Class)
	want := protocol.Student{ID: annID, RTTMS: 120, Pending: 2, Corrections: 7}
	if len(got.Students) != 1 || got.Students[0] != want {
		t.Errorf("the teacher got %+v, want %+v", got.Students, want)
	}
	two := r.teacherIn("lecture")
	got = two.until("the reports so far", func(m protocol.Message) bool { _, ok := m.(*protocol.Class); return ok }).(*protocol.Class)
	if len(got.Students) != 1 || got.Students[0] != want {
		t.Errorf("the second teacher got %+v, want %+v", got.Students, want)
	}
	if cs := conditionsOf(one); cs[len(cs)-1].Teachers != 2 {
		t.Errorf("the first teacher was told %+v, want two teachers", cs[len(cs)-1])
	}
	one.gone("connection closed")
	if _, ok := r.h.Class("lecture"); !ok {
		t.Fatal("the class ended with a teacher left")
	}
	two.gone("connection closed")
	r.flush()
	if _, ok := r.h.Class("lecture"); ok {
		t.Fatal("the class outlived its last teacher")
	}
	if c := r.h.rooms["lecture"].core.Config(); c.Rate != 20 || !c.LagComp {
		t.Errorf("after the class the room plays at %d Hz, lag compensation %v: want the server's 20 and on", c.Rate, c.LagComp)
	}
	cs := conditionsOf(ann)
	if last := cs[len(cs)-1]; last.Teachers != 0 || last.Predict != protocol.HoldNone || last.Rate != 20 {
		t.Errorf("ann was last told %+v, want no teacher, nothing held, rate 20", last)
	}
	ann.send(&protocol.Report{Pending: 1}) // sent before it heard: nothing
	if ann.closed {
		t.Error("a report after the class ended closed the student")
	}
	if n := len(r.noted(NoteTeach)); n != 4 {
		t.Errorf("%d teach notes, want 4: two teachers came, one set, the last left", n)
	}
}

// lecture is a hub without pings (opts), and in its room "lecture" ann,
// a player of this version, and old, one of oldVersion.
func lecture(t *testing.T, opts Options, oldVersion uint16) (r *rig, ann, old *peer) {
	t.Helper()
	r = newRig(t, opts)
	r.h.PingEvery(0, 0)
	ann = r.dial(host(1))
	ann.join("ann", "lecture")
	old = r.dial(host(2))
	old.send(&protocol.Hello{Version: oldVersion, Name: "old", Room: "lecture"})
	old.next("old's Welcome")
	return r, ann, old
}

// follows returns the Follows p was sent, in order, by the IDs they name.
func follows(p *peer) []grid.PlayerID {
	var ids []grid.PlayerID
	for _, m := range p.got {
		if f, ok := m.(*protocol.Follow); ok {
			ids = append(ids, f.ID)
		}
	}
	return ids
}

// followedOf returns the Followed p was sent.
func followedOf(p *peer) []*protocol.Followed {
	var fs []*protocol.Followed
	for _, m := range p.got {
		if f, ok := m.(*protocol.Followed); ok {
			fs = append(fs, f)
		}
	}
	return fs
}

// TestClassFollowsAStudent: the teacher follows ann; every client of
// version 6 in the room is told (a spectator who comes later too), and
// ann's Sight reaches the spectators and teachers as a Followed, bob's
// not; a spectator of version 5 is told nothing; a spectator that is no
// teacher may not choose; when ann leaves the room follows nobody, and
// when the last teacher leaves nobody either.
func TestClassFollowsAStudent(t *testing.T) {
	r := newRig(t, Options{Config: world.Config{Rate: 20}})
	r.h.PingEvery(0, 0)
	ann := r.dial(host(1))
	annID := ann.join("stud2", "lecture").Player
	bob := r.dial(host(2))
	bob.join("stud3", "lecture")
	proj := r.dial(host(3))
	proj.send(&protocol.Spectate{Version: protocol.Version, Name: "proj", Room: "lecture"})
	old := r.dial(host(4))
	old.send(&protocol.Spectate{Version: 5, Name: "old", Room: "lecture"})
	teacher := r.teacherIn("lecture")
	teacher.send(&protocol.Follow{ID: annID})
	r.advance(10 * ms)
	for _, p := range []*peer{ann, bob, proj, teacher} {
		if got := follows(p); len(got) != 1 || got[0] != annID {
			t.Fatalf("connection %d was told it follows %v, want [%d]", p.id, got, annID)
		}
	}
	if got := follows(old); len(got) != 0 {
		t.Errorf("a spectator of version 5 was told %v", got)
	}

	sight := protocol.Sight{Pos: grid.Pos{X: 11, Y: 10}, Facing: grid.Right, Ghost: grid.Pos{X: 10, Y: 10}, HasState: true, Predict: true,
		Ack: 3, RTTMS: 200, Pending: []protocol.SightInput{{Seq: 4, Dir: grid.Right, AgeMS: 20}}}
	ann.send(&sight)
	bob.send(&protocol.Sight{Pos: grid.Pos{X: 1, Y: 1}})
	r.advance(10 * ms)
	for _, p := range []*peer{proj, teacher} {
		got := followedOf(p)
		if len(got) != 1 || got[0].ID != annID || got[0].Sight.Pos != sight.Pos || len(got[0].Sight.Pending) != 1 {
			t.Fatalf("connection %d got %+v, want ann's Sight alone", p.id, got)
		}
	}
	if len(followedOf(old)) != 0 || len(followedOf(ann)) != 0 || bob.closed || ann.closed {
		t.Error("a Sight went to a spectator of version 5 or a player, or closed a student")
	}
	late := r.dial(host(5))
	late.send(&protocol.Spectate{Version: protocol.Version, Name: "late", Room: "lecture"})
	r.advance(10 * ms)
	if got, seen := follows(late), followedOf(late); len(got) != 1 || got[0] != annID || len(seen) != 1 {
		t.Errorf("a spectator who came later was told %v and %d Sights, want ann and her last", got, len(seen))
	}

	proj.send(&protocol.Follow{ID: 0})
	if e := proj.refusal("a spectator's Follow"); e.Code != protocol.ErrCodeTeacher {
		t.Errorf("a spectator's Follow: %+v, want ErrCodeTeacher", e)
	}

	ann.gone("connection closed")
	r.advance(10 * ms)
	if got := follows(teacher); got[len(got)-1] != 0 {
		t.Errorf("after ann left the teacher was told %v, want nobody last", got)
	}
	teacher.send(&protocol.Follow{ID: 999}) // nobody of the room
	teacher.gone("connection closed")
	r.advance(10 * ms)
	if got := follows(bob); len(got) != 2 || got[1] != 0 {
		t.Errorf("bob was told %v, want ann then nobody", got)
	}
}

// TestPerceptionHidesTheFollowedSight: while a run of the perception test
// lasts, the Sight of the student the projectors follow, a subject of the
// run, reaches no spectator (its round trip, pending inputs and ghost
// would give the hidden round trip away); once the run is over it does
// again.
func TestPerceptionHidesTheFollowedSight(t *testing.T) {
	r := newRig(t, Options{Config: world.Config{Rate: 20}})
	r.h.PingEvery(0, 0)
	ann := r.dial(host(1))
	annID := ann.join("stud2", "lecture").Player
	proj := r.dial(host(3))
	proj.send(&protocol.Spectate{Version: protocol.Version, Name: "proj", Room: "lecture"})
	teacher := r.teacherIn("lecture")
	teacher.send(&protocol.Follow{ID: annID})
	teacher.send(&protocol.Perceive{Action: protocol.PerceiveStart, Predict: 1, Repeats: 1,
		PlayMS: 2000, AnswerMS: 2000, LevelsMS: []uint16{200}})
	r.advance(10 * ms)
	sight := protocol.Sight{Pos: grid.Pos{X: 11, Y: 10}, Ghost: grid.Pos{X: 10, Y: 10}, HasState: true, Predict: true,
		Ack: 3, RTTMS: 200, Pending: []protocol.SightInput{{Seq: 4, Dir: grid.Right, AgeMS: 150}}}
	ann.send(&sight)
	r.advance(300 * ms) // past the round's 100 ms up
	started := false
	for _, m := range teacher.got {
		if p, ok := m.(*protocol.Perception); ok && p.Run == 1 && p.Phase == protocol.TrialPlay {
			started = true
		}
	}
	if !started {
		t.Fatalf("the run did not start: the teacher got %+v", teacher.got)
	}
	if got := followedOf(proj); len(got) != 0 {
		t.Fatalf("during the run the projector got ann's Sight %+v, want none", got[0].Sight)
	}
	teacher.send(&protocol.Perceive{Action: protocol.PerceiveStop})
	r.advance(300 * ms)
	ann.send(&sight)
	r.advance(10 * ms)
	if got := followedOf(proj); len(got) != 1 || got[0].ID != annID {
		t.Fatalf("after the run the projector got %+v, want ann's Sight", got)
	}
	if ann.closed || teacher.closed {
		t.Fatal("a connection was closed")
	}
}
