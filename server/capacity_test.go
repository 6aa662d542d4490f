package server

import (
	"strings"
	"testing"
	"time"

	"gridlag/protocol"
	"gridlag/server/hub"
	"gridlag/server/world"
)

// The TCP server measures what each tick costs it, from when it was due
// until its frames were in the sockets, and reports it to the hub: a
// budget no tick can keep (a nanosecond) refuses the next newcomer with
// "server full: at capacity", counted as such and said by the health
// check, while the player in plays on; a budget of 0 refuses nobody.
func TestTCPAtCapacityRefusesNewcomers(t *testing.T) {
	rec := newRecorder()
	ts := startServer(t, Options{Hub: hub.Options{Config: world.Config{Rate: 50}, TickBudget: time.Nanosecond}, Metrics: rec})
	in := dial(t, ts)
	in.join("in") // no tick measured yet: let in
	eventually(t, func() bool { return ts.Load().Full }, func() string { return "the server never came to capacity" })
	if l := ts.Load(); l.Cost <= 0 || l.Budget != time.Nanosecond || l.Ticks < 3 {
		t.Errorf("the server reads %+v, want the ticks' cost measured", l)
	}

	late := dial(t, ts)
	late.send(&protocol.Hello{Version: protocol.Version, Name: "late"})
	e, ok := late.closed().(*protocol.Error)
	if !ok || e.Code != protocol.ErrCodeFull || !strings.HasPrefix(e.Text, "server full: at capacity: its ticks take ") {
		t.Fatalf("a newcomer at capacity was told %+v, want Error %d \"server full: at capacity: ...\"", e, protocol.ErrCodeFull)
	}
	rec.waitFor(t, "a refusal at capacity", func(r *recorder) bool { return r.refused["capacity"] == 1 })
	if ok, why := ts.Health().Ready(time.Now()); ok || !strings.HasPrefix(why, "server full: at capacity") {
		t.Errorf("ready at capacity: %v %q", ok, why)
	}
	ts.waitLog(t, "at capacity: newcomers are refused")
	st := in.state("a State after the refusal", func(*protocol.State) bool { return true })
	in.state("the next", func(s *protocol.State) bool { return s.Tick > st.Tick })

	free := startServer(t, Options{Hub: hub.Options{Config: world.Config{Rate: 50}}})
	one := dial(t, free)
	one.join("one")
	st = one.state("a State", func(*protocol.State) bool { return true })
	one.state("ten ticks later", func(s *protocol.State) bool { return s.Tick >= st.Tick+10 }) // nothing is measured against a budget of 0
	dial(t, free).join("two")
	if l := free.Load(); l.Full || l.Capacity != 0 {
		t.Errorf("without a budget the server reads %+v", l)
	}
}
