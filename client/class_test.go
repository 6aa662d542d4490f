package client

import (
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
)

// among returns the messages of type T among msgs (the Reports, the
// Sights), in order.
func among[T protocol.Message](msgs []protocol.Message) []T {
	var ts []T
	for _, m := range msgs {
		if t, ok := m.(T); ok {
			ts = append(ts, t)
		}
	}
	return ts
}

// TestTeacherHoldsTheSwitches: while the teacher holds prediction off, the
// player's prediction is off and pressing it on changes nothing (the
// view says who holds it); a switch the teacher does not hold stays the
// player's; when the class ends, the player's own switches come back.
func TestTeacherHoldsTheSwitches(t *testing.T) {
	c := playing(t, Options{NoInterpolate: true})
	c.Receive(10*ms, &protocol.Conditions{Teachers: 1, Predict: protocol.HoldOff, Rate: 20})
	v := c.View(10 * ms)
	if v.Predict || v.Reconcile || v.Interpolate {
		t.Fatalf("held off: predict %v reconcile %v interpolate %v, want all off", v.Predict, v.Reconcile, v.Interpolate)
	}
	if v.Teaching == nil || v.Teaching.Predict != protocol.HoldOff {
		t.Fatalf("view's teaching %+v, want prediction held off", v.Teaching)
	}
	c.SetPredict(true)
	c.SetReconcile(true) // would turn prediction on
	if v := c.View(20 * ms); v.Predict || v.Reconcile {
		t.Errorf("the player turned held prediction back on: predict %v reconcile %v", v.Predict, v.Reconcile)
	}
	c.Press(30*ms, grid.Right)
	if v := c.View(30 * ms); v.Predicted != (grid.Pos{X: 10, Y: 10}) {
		t.Errorf("without prediction the avatar moved at once, to %v", v.Predicted)
	}
	c.SetInterpolate(true) // not held: the player's
	if v := c.View(40 * ms); !v.Interpolate {
		t.Error("interpolation, which the teacher does not hold, did not turn on")
	}
	c.Receive(50*ms, &protocol.Conditions{Teachers: 1, Reconcile: protocol.HoldOn, Interpolate: protocol.HoldOff, Rate: 20})
	if v := c.View(50 * ms); !v.Predict || !v.Reconcile || v.Interpolate {
		t.Errorf("reconciliation held on, interpolation off: predict %v reconcile %v interpolate %v", v.Predict, v.Reconcile, v.Interpolate)
	}
	c.Receive(60*ms, &protocol.Conditions{Rate: 20}) // the last teacher left
	if v := c.View(60 * ms); !v.Predict || !v.Reconcile || !v.Interpolate || v.Teaching != nil {
		t.Errorf("after the class: predict %v reconcile %v interpolate %v teaching %+v, want the player's own (all on) and no teacher", v.Predict, v.Reconcile, v.Interpolate, v.Teaching)
	}
}

// TestReportsWhileTheRoomHasATeacher: a player reports at once when the
// room gets a teacher, then when what it would report changes, at most
// every ReportEvery; never without a teacher. A change of the network
// makes it ping at once.
func TestReportsWhileTheRoomHasATeacher(t *testing.T) {
	c := playing(t, Options{})
	c.Press(0, grid.Right)
	c.Advance(5 * ms)
	if rs := among[*protocol.Report](c.Outbox().Messages); len(rs) != 0 {
		t.Fatalf("reported %+v without a teacher", rs)
	}
	c.Receive(100*ms, &protocol.Conditions{Teachers: 1, Rate: 20})
	if at, ok := c.NextWake(); !ok || at > 100*ms {
		t.Fatalf("next wake %v %v after the teacher came, want at once", at, ok)
	}
	c.Advance(100 * ms)
	rs := among[*protocol.Report](c.Outbox().Messages)
	if len(rs) != 1 || rs[0].Pending != 1 || rs[0].RTTMS != protocol.NoRTT {
		t.Fatalf("reports %+v, want one: 1 pending, no round trip yet", rs)
	}
	c.Receive(150*ms, state(1, 150*ms, at(1, 11, 10)))
	c.Advance(200 * ms)
	if rs := among[*protocol.Report](c.Outbox().Messages); len(rs) != 0 {
		t.Errorf("reported %+v 100 ms after the last, want to wait %v", rs, ReportEvery)
	}
	if at, ok := c.NextWake(); !ok || at != 100*ms+ReportEvery {
		t.Errorf("next wake %v, want the report due at %v", at, 100*ms+ReportEvery)
	}
	c.Advance(100*ms + ReportEvery)
	if rs := among[*protocol.Report](c.Outbox().Messages); len(rs) != 1 || rs[0].Pending != 0 {
		t.Errorf("reports %+v, want one with nothing pending", rs)
	}
	c.Advance(2 * time.Second)
	c.Outbox()
	c.Receive(2100*ms, &protocol.Conditions{Teachers: 1, LatencyMS: 300, Rate: 20})
	c.Advance(2100 * ms)
	pinged := false
	for _, m := range c.Outbox().Messages {
		if _, ok := m.(*protocol.Ping); ok {
			pinged = true
		}
	}
	if !pinged {
		t.Error("no Ping at once when the teacher changed the network")
	}
}

// TestTeacherSpectator: a teacher's spectator says Teach, sets the
// room's Conditions only once watching, and has each student's report
// from the Class messages, forgotten when the student leaves.
func TestTeacherSpectator(t *testing.T) {
	s := NewSpectator(0, Options{Name: "hopper", Room: "lecture", Teach: true})
	if tm, ok := s.Outbox().Messages[0].(*protocol.Teach); !ok || tm.Room != "lecture" || tm.Version != protocol.Version {
		t.Fatalf("first message %+v, want Teach of lecture", s.Outbox().Messages)
	}
	s.Teach(Teaching{Latency: 300 * time.Millisecond})
	if out := s.Outbox().Messages; len(out) != 0 {
		t.Errorf("sent %+v before watching", out)
	}
	m := grid.DefaultMap()
	s.Receive(10*ms, &protocol.Spectating{UpdateRate: 20, MoveTimeMS: 100, MapWidth: uint16(m.Width()), MapHeight: uint16(m.Height()), Cells: m.Cells()})
	s.Receive(10*ms, &protocol.Conditions{Teachers: 1, Rate: 20})
	s.Receive(10*ms, &protocol.Class{Students: []protocol.Student{{ID: 2, RTTMS: 301, Pending: 1, Corrections: 3}, {ID: 4, RTTMS: protocol.NoRTT}}})
	s.Teach(Teaching{Latency: 300 * time.Millisecond, Jitter: 20 * time.Millisecond, Loss: 0.02, Predict: protocol.HoldOff, Rate: 10, LagComp: true})
	want := protocol.Conditions{LatencyMS: 300, JitterMS: 20, LossBP: 200, Predict: protocol.HoldOff, Rate: 10, LagComp: true}
	if out := s.Outbox().Messages; len(out) != 1 || *out[0].(*protocol.Conditions) != want {
		t.Fatalf("Teach sent %+v, want %+v", out, want)
	}
	v := s.View(20 * ms)
	if v.Teaching == nil || v.Teaching.Teachers != 1 {
		t.Errorf("view's teaching %+v", v.Teaching)
	}
	if r, ok := v.Report(2); !ok || r.RTT != 301*ms || r.Pending != 1 || r.Corrections != 3 {
		t.Errorf("report of 2: %+v %v", r, ok)
	}
	if r, ok := v.Report(4); !ok || r.HasRTT {
		t.Errorf("report of 4: %+v %v, want one without a round trip", r, ok)
	}
	s.Receive(30*ms, &protocol.Leave{ID: 2})
	if _, ok := s.View(30 * ms).Report(2); ok {
		t.Error("the report of a student who left is still shown")
	}
}

// TestSightWhileFollowed: a player tells what it sees of itself only
// while the room follows it: at once when it is told so, then when that
// changes (a press: its avatar a cell on, #1 pending), every SightEvery
// at most; not while the room follows another, nor once it follows
// nobody.
func TestSightWhileFollowed(t *testing.T) {
	c := playing(t, Options{})
	me := c.Me()
	c.Receive(10*ms, &protocol.Follow{ID: me + 1})
	c.Press(20*ms, grid.Up)
	c.Advance(30 * ms)
	if ss := among[*protocol.Sight](c.Outbox().Messages); len(ss) != 0 {
		t.Fatalf("told %+v while the room follows another", ss)
	}
	c.Receive(100*ms, &protocol.Follow{ID: me})
	c.Advance(100 * ms)
	ss := among[*protocol.Sight](c.Outbox().Messages)
	if len(ss) != 1 || !ss[0].HasState || len(ss[0].Pending) != 1 || ss[0].Pending[0].Dir != grid.Up || ss[0].Pending[0].AgeMS != 80 {
		t.Fatalf("Sights %+v, want one at once: #1 ↑ pending 80 ms", ss)
	}
	c.Press(120*ms, grid.Right)
	c.Advance(120 * ms)
	if ss := among[*protocol.Sight](c.Outbox().Messages); len(ss) != 0 {
		t.Errorf("told %+v 20 ms after the last, want to wait %v", ss, SightEvery)
	}
	if at, ok := c.NextWake(); !ok || at != 100*ms+SightEvery {
		t.Errorf("next wake %v, want the Sight due at %v", at, 100*ms+SightEvery)
	}
	c.Advance(100*ms + SightEvery)
	ss = among[*protocol.Sight](c.Outbox().Messages)
	if len(ss) != 1 || len(ss[0].Pending) != 2 || ss[0].Facing != grid.Right || ss[0].Pos == ss[0].Ghost {
		t.Fatalf("Sights %+v, want one: two pending, facing right, the avatar ahead of its ghost", ss)
	}
	c.Advance(time.Second)
	if ss := among[*protocol.Sight](c.Outbox().Messages); len(ss) != 0 {
		t.Errorf("told %+v when nothing changed but the inputs' ages", ss)
	}
	c.Receive(2*time.Second, &protocol.Follow{})
	c.Press(2100*ms, grid.Left)
	c.Advance(3 * time.Second)
	if ss := among[*protocol.Sight](c.Outbox().Messages); len(ss) != 0 {
		t.Errorf("told %+v once the room followed nobody", ss)
	}
}
