package hub

import (
	"strings"
	"testing"

	"gridlag/grid"
	"gridlag/protocol"
	"gridlag/server/world"
	"gridlag/server/world/worldtest"
)

// crowdedOf returns the Crowdeds p was sent, in order.
func crowdedOf(p *peer) []protocol.Crowded { return sentOf[protocol.Crowded](p) }

// TestCrowdWithinTheCaps: a teacher asks for bots step by step; the hub
// orders its adapter to run them for the room, as many as the room's
// cap allows once its students are counted, and tells the teacher which
// cap stopped the step, naming its flag; the areas of interest go off
// and on for the room alone; the server's counters reach the teacher
// each time with the room's crowd and its tick budget; a student may not
// ask for bots; the last teacher's going takes the bots away and gives
// the areas back.
func TestCrowdWithinTheCaps(t *testing.T) {
	r, ann, _ := lecture(t, Options{Config: world.Config{Rate: 20}, RoomPlayers: 40, TeachBots: 1000}, protocol.Version)
	teacher := r.teacherIn("lecture")
	r.advance(100 * ms)
	if got := crowdedOf(teacher); len(got) != 1 || got[0].Asked != 0 || got[0].Most != 38 {
		t.Fatalf("the teacher was told %+v, want the room's empty crowd, 38 bots at most (40 players, 2 students)", got)
	}

	teacher.send(&protocol.Crowd{Bots: 10})
	r.advance(ms)
	if want := []CrowdOrder{{Room: "lecture", Bots: 10}}; len(r.crowds) != 1 || r.crowds[0] != want[0] {
		t.Fatalf("orders %+v, want %+v", r.crowds, want)
	}
	teacher.send(&protocol.Crowd{Bots: 100})
	r.advance(ms)
	got := crowdedOf(teacher)
	last := got[len(got)-1]
	if last.Asked != 100 || last.Given != 38 || !strings.Contains(last.Note, "-room-players") {
		t.Fatalf("after asking for 100: %+v, want 38 given and a note naming -room-players", last)
	}
	if o := r.crowds[len(r.crowds)-1]; o.Bots != 38 {
		t.Errorf("the order after asking for 100 is %+v, want 38 bots", o)
	}
	if n := r.noted(NoteTeach); !strings.Contains(n[len(n)-1].Reason, "asks for 100 bots, 38 given") {
		t.Errorf("the log says %q, want the bots asked and given", n[len(n)-1].Reason)
	}

	teacher.send(&protocol.Crowd{Bots: 38, AreasOff: true})
	r.advance(ms)
	if !r.h.rooms["lecture"].core.Config().AreasOff || r.h.rooms[""].core.Config().AreasOff {
		t.Error("areas off: want the lecture's off and the default room's on")
	}
	if last := crowdedOf(teacher); !last[len(last)-1].AreasOff || last[len(last)-1].Note != "" {
		t.Errorf("after areas off: %+v, want areas off and no note", last[len(last)-1])
	}

	r.h.TellCounters(r.now, protocol.Counters{IntervalMS: 1000, Players: 40, Ticks: 20, Writes: 800})
	r.flush()
	var counters *protocol.Counters
	for _, m := range teacher.got {
		if c, ok := m.(*protocol.Counters); ok {
			counters = c
		}
	}
	if counters == nil || counters.Ticks != 20 || counters.Writes != 800 || counters.BudgetNS != 50e6 {
		t.Fatalf("the teacher's counters: %+v, want the server's with a budget of 50ms", counters)
	}
	for _, m := range ann.got {
		switch m.(type) {
		case *protocol.Counters, *protocol.Crowded:
			t.Fatalf("a student was sent %T", m)
		}
	}

	ann.send(&protocol.Crowd{Bots: 10})
	if e := ann.refusal("a student's Crowd"); e.Code != protocol.ErrCodeTeacher {
		t.Errorf("a student's Crowd: %+v, want ErrCodeTeacher", e)
	}

	teacher.gone("teacher left")
	r.advance(ms)
	if o := r.crowds[len(r.crowds)-1]; o.Bots != 0 || o.Room != "lecture" {
		t.Errorf("after the last teacher left the order is %+v, want no bots in the lecture", o)
	}
	if r.h.rooms["lecture"].core.Config().AreasOff {
		t.Error("after the last teacher left the lecture's areas are still off")
	}
}

// TestCrowdCapsOfTheServer: the map's room, the teach-bots cap and the
// server's connections each stop a step, named in the note with the
// flag that sets it.
func TestCrowdCapsOfTheServer(t *testing.T) {
	r, _, _ := lecture(t, Options{Config: world.Config{Rate: 20}, RoomPlayers: 5000, TeachBots: 1000}, protocol.Version)
	teacher := r.teacherIn("lecture")
	teacher.send(&protocol.Crowd{Bots: 1000})
	r.advance(ms)
	got := crowdedOf(teacher)
	room := r.h.share.Reach().MainSize() // one a cell, as world.Core.Holds counts
	if last := got[len(got)-1]; int(last.Given) != room-2 || !strings.Contains(last.Note, "-map-gen") {
		t.Errorf("1000 asked on the default map (room for %d): %+v, want %d given, the note naming -map-gen", room, last, room-2)
	}

	open := world.Config{Rate: 20, Map: worldtest.OpenMap(t, 100, 100), Spawn: grid.Pos{X: 50, Y: 50}}
	r, _, _ = lecture(t, Options{Config: open, RoomPlayers: 5000, TeachBots: 1000, MaxConns: 500}, protocol.Version)
	teacher = r.teacherIn("lecture")
	teacher.send(&protocol.Crowd{Bots: 1000})
	r.advance(ms)
	got = crowdedOf(teacher)
	if last := got[len(got)-1]; last.Given != 497 || !strings.Contains(last.Note, "-max-conns") {
		t.Errorf("1000 asked of 500 connections (3 taken): %+v, want 497 given, the note naming -max-conns", last)
	}
	r.h.opts.MaxConns = 0
	teacher.send(&protocol.Crowd{Bots: 2000})
	r.advance(ms)
	got = crowdedOf(teacher)
	if last := got[len(got)-1]; last.Given != 1000 || !strings.Contains(last.Note, "-teach-bots") {
		t.Errorf("2000 asked: %+v, want 1000 given, the note naming -teach-bots", last)
	}
}
