package sim

import (
	"errors"
	"testing"
	"time"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/protocol"
	"gridlag/server/world"
)

// classRoom is a world at 20 Hz, pinging every second, with three
// students in room "lecture" and a teacher of it.
func classRoom(t *testing.T) (*World, []*Client, *Watcher) {
	t.Helper()
	w := New(world.Config{Rate: 20})
	w.PingEvery(time.Second)
	var students []*Client
	for _, name := range []string{"ada", "bob", "cy"} {
		students = append(students, w.Join(name, client.Options{Room: "lecture"}))
	}
	teacher := w.Watch("hopper", client.Options{Room: "lecture", Teach: true}, true)
	if teacher.View().Phase != client.Watching {
		t.Fatalf("the teacher does not watch: %v", teacher.View().Err)
	}
	w.Advance(2 * time.Second)
	return w, students, teacher
}

// TestTeacherSetsTheRoundTripOfTheClass is the case on the
// virtual clock: a teacher sets 300 ms for a room of three; the server
// applies it to each student's connection, both ways, and each student's
// round trip goes from 0 to 300 ms within a second: the Conditions
// arrive after 150 ms (the way down), the student pings at once, and its
// Pong is back 300 ms later. Their screens say so (View.Teaching), the
// server's class has each round trip from the students' reports, and so
// does the teacher's view, all within the second.
func TestTeacherSetsTheRoundTripOfTheClass(t *testing.T) {
	w, students, teacher := classRoom(t)
	for _, s := range students {
		if v := s.View(); v.RTT != 0 || v.Teaching == nil || v.Teaching.Network() {
			t.Fatalf("%s before: rtt %v, teaching %+v; want 0 and a teacher who set no network", s.Name(), v.RTT, v.Teaching)
		}
	}
	set := w.Now()
	teacher.Teach(client.Teaching{Latency: 300 * ms, Rate: 20})
	told := map[*Client]time.Duration{}
	measured := map[*Client]time.Duration{}
	for w.Now() < set+time.Second {
		if _, ok := w.Step(); !ok {
			t.Fatal("nothing scheduled")
		}
		for _, s := range students {
			v := s.View()
			if _, ok := told[s]; !ok && v.Teaching != nil && v.Teaching.Latency == 300*ms {
				told[s] = w.Now() - set
			}
			if _, ok := measured[s]; !ok && v.RTT > 0 {
				measured[s] = w.Now() - set
				if v.RTT != 300*ms {
					t.Errorf("%s measured %v, want 300ms", s.Name(), v.RTT)
				}
			}
		}
	}
	for _, s := range students {
		if told[s] != 150*ms {
			t.Errorf("%s's screen said 300 ms %v after the teacher set it, want 150ms (the way down)", s.Name(), told[s])
		}
		if measured[s] != 450*ms {
			t.Errorf("%s measured its round trip %v after, want 450ms: told at 150, pinged at once, answered 300 ms later", s.Name(), measured[s])
		}
	}
	class, ok := w.Hub().Class("lecture")
	if !ok || class.Conditions.LatencyMS != 300 || class.Conditions.Teachers != 1 || len(class.Students) != 3 {
		t.Fatalf("the server's class %+v %v, want 300 ms, one teacher, three students", class, ok)
	}
	for _, st := range class.Students {
		if st.RTTMS != 300 {
			t.Errorf("the server has student %d's round trip %d ms, want 300", st.ID, st.RTTMS)
		}
	}
	tv := teacher.View()
	for _, s := range students {
		r, ok := tv.Report(s.View().Me)
		if !ok || r.RTT != 300*ms {
			t.Errorf("the teacher sees %s: %+v %v, want 300ms", s.Name(), r, ok)
		}
	}
	// Both ways: a press is processed 150 ms after it is sent and
	// acknowledged 300 ms after.
	ada := students[0]
	pressed := w.Now()
	ada.Press(grid.Right)
	var processed, acked time.Duration
	w.Trace(func(e Event) {
		if e.Kind == StateArrived && e.Client == ada && e.Seq == 1 && acked == 0 {
			acked = e.T - pressed
		}
	})
	for w.Now() < pressed+time.Second {
		w.Step()
		if p, _ := w.Position(ada); p.X == 11 && processed == 0 {
			processed = w.Now() - pressed
		}
	}
	w.Trace(nil)
	if processed != 150*ms || acked < 300*ms || acked > 300*ms+50*ms {
		t.Errorf("RIGHT processed %v and acknowledged %v after the press, want 150ms and 300ms (plus up to a tick)", processed, acked)
	}
}

// TestTeacherHoldsPredictionForTheClass: the teacher turns prediction off
// for everyone: each student's prediction goes off, its screen says the
// teacher holds it, and the student cannot turn it back on; when the
// teacher leaves, the students' own switches and the room's own rate
// come back, with no network.
func TestTeacherHoldsPredictionForTheClass(t *testing.T) {
	w, students, teacher := classRoom(t)
	teacher.Teach(client.Teaching{Predict: protocol.HoldOff, Rate: 5, LagComp: true, Latency: 100 * ms})
	w.Advance(time.Second)
	if r, _ := w.Room("lecture"); r.Config().Rate != 5 {
		t.Errorf("the room's rate is %d, want the teacher's 5", r.Config().Rate)
	}
	for _, s := range students {
		s.SetPredict(true)
		v := s.View()
		if v.Predict || v.Teaching == nil || v.Teaching.Predict != protocol.HoldOff || v.UpdateRate != 5 {
			t.Errorf("%s: predict %v, teaching %+v, rate %d; want prediction held off, rate 5", s.Name(), v.Predict, v.Teaching, v.UpdateRate)
		}
	}
	teacher.Close()
	w.Advance(2 * time.Second)
	if r, _ := w.Room("lecture"); r.Config().Rate != 20 {
		t.Errorf("after the class the room's rate is %d, want the server's 20", r.Config().Rate)
	}
	if _, ok := w.Hub().Class("lecture"); ok {
		t.Error("the class outlived its last teacher")
	}
	for _, s := range students {
		v := s.View()
		if !v.Predict || v.Teaching != nil || v.RTT != 0 {
			t.Errorf("%s after the class: predict %v, teaching %+v, rtt %v; want its own prediction, no teacher, no network", s.Name(), v.Predict, v.Teaching, v.RTT)
		}
	}
}

// TestUnnamedTeacherIsRefused: a connection its server did not name a
// teacher's says Teach: it is refused, saying why, and the room's network
// is untouched.
func TestUnnamedTeacherIsRefused(t *testing.T) {
	w := New(world.Config{Rate: 20})
	ada := w.Join("ada", client.Options{Room: "lecture"})
	impostor := w.Watch("mallory", client.Options{Room: "lecture", Teach: true}, false)
	err := impostor.View().Err
	var pe *protocol.Error
	if !errors.As(err, &pe) || pe.Code != protocol.ErrCodeTeacher {
		t.Fatalf("unnamed teacher: %v, want a refusal of code %d", err, protocol.ErrCodeTeacher)
	}
	if _, ok := w.Hub().Class("lecture"); ok {
		t.Error("the refused teacher opened a class")
	}
	if v := ada.View(); v.Teaching != nil {
		t.Errorf("ada was told of a teacher: %+v", v.Teaching)
	}
}

// TestProjectorFollowsAStudent, on the virtual clock: a projector (a
// spectator of the room) shows the room's scoreboard and round clock;
// the teacher follows ada, whose own link has a round trip of 250 ms,
// and ada presses RIGHT: the projector is told at once whom the room
// follows, and her way up (125 ms) after her press it shows ada's view
// of herself, her avatar a cell right where her prediction has it, her
// ghost where the server last had her, and #1 → pending in her ledger;
// once the server's word is back, the ledger is empty and the ghost
// where the avatar is. Following nobody empties it.
func TestProjectorFollowsAStudent(t *testing.T) {
	w, students, teacher := classRoom(t)
	ada := students[0]
	ada.SetLatency(250 * ms)
	proj := w.Watch("projector", client.Options{Room: "lecture"}, false)
	w.Advance(time.Second)
	v := proj.View()
	if len(v.Scoreboard) != 3 || v.Round != 1 || v.RoundLeft <= 0 || v.Online != 3 {
		t.Fatalf("the projector's scoreboard %+v, round %d with %v left, %d online; want the three, round 1", v.Scoreboard, v.Round, v.RoundLeft, v.Online)
	}
	adaID := ada.View().Me
	teacher.Follow(adaID)
	w.Advance(10 * ms)
	if v := proj.View(); v.Following != adaID || v.Sight != nil {
		t.Fatalf("the projector follows %d (sight %+v), want ada (%d), nothing from her yet", v.Following, v.Sight, adaID)
	}
	w.Advance(500 * ms) // the Follow down her link, her first Sight up it
	if s := proj.View().Sight; s == nil || s.ID != adaID || len(s.Pending) != 0 || s.Pos != ada.View().Predicted {
		t.Fatalf("the projector's sight of ada before she pressed: %+v", s)
	}
	start := ada.View().Predicted
	ada.Press(grid.Right)
	pressed := w.Now()
	var seen time.Duration
	for w.Now() < pressed+200*ms {
		w.Step()
		if s := proj.View().Sight; s != nil && len(s.Pending) == 1 && seen == 0 {
			seen = w.Now() - pressed
			if s.ID != adaID || s.Pos != start.Add(grid.Right) || s.Ghost != start || s.Pending[0].Seq != 1 || s.Pending[0].Dir != grid.Right || !s.Predict {
				t.Fatalf("the projector's sight of ada: %+v, want her at %v, her ghost at %v, #1 → pending", s, start.Add(grid.Right), start)
			}
		}
	}
	if seen != 125*ms {
		t.Fatalf("the projector showed ada's press %v after it, want her way up, 125 ms", seen)
	}
	w.Advance(time.Second)
	if s := proj.View().Sight; s == nil || len(s.Pending) != 0 || s.Ghost != start.Add(grid.Right) || s.Ack != 1 || s.Latency != 250*ms {
		t.Fatalf("after the server's word, the projector's sight of ada: %+v, want nothing pending, the ghost at %v, ack #1, her 250 ms", s, start.Add(grid.Right))
	}
	teacher.Follow(0)
	w.Advance(100 * ms)
	if v := proj.View(); v.Following != 0 || v.Sight != nil {
		t.Fatalf("after the teacher followed nobody, the projector follows %d, sight %+v", v.Following, v.Sight)
	}
}
