package server

import (
	"testing"
	"time"

	"gridlag/protocol"
	"gridlag/server/hub"
	"gridlag/server/world"
)

// Over TCP the log tells each step: a drop kept for resume, the resume,
// and a window that ends (ticks of the ping timer end it in immediate
// mode too). A half-open resume closes the old connection. On the test's
// clock, the resumes come within the window however slowly a busy
// machine runs them; the clock runs once the last drop waits for the
// window's end.
func TestTCPResumeIsLogged(t *testing.T) {
	ts, clock := startClocked(t, Options{Hub: hub.Options{Config: world.Config{Rate: 0, Resume: 300 * time.Millisecond}, PingInterval: 50 * time.Millisecond}})
	a := dial(t, ts)
	w := a.join("ann")
	a.nc.Close()
	ts.waitLog(t, "away, kept for resume")

	b := dial(t, ts)
	b.send(&protocol.Resume{Version: protocol.Version, Token: w.Token})
	w2 := b.until("the resumed Welcome", func(m protocol.Message) bool { _, ok := m.(*protocol.Welcome); return ok }).(*protocol.Welcome)
	if w2.Player != w.Player {
		t.Fatalf("resumed as %d, want %d", w2.Player, w.Player)
	}
	ts.waitLog(t, "resume")

	// Half-open: the client gives up on b, the server has not noticed.
	c := dial(t, ts)
	c.send(&protocol.Resume{Version: protocol.Version, Token: w2.Token})
	w3 := c.until("the Welcome on the third connection", func(m protocol.Message) bool { _, ok := m.(*protocol.Welcome); return ok }).(*protocol.Welcome)
	if bye, ok := b.closed().(*protocol.Bye); !ok || bye.Reason != "resumed on another connection" {
		t.Errorf("the old connection ended with %+v, want a Bye saying why", bye)
	}

	c.nc.Close()
	stop := clock.run(ms)
	ts.waitLog(t, "did not come back within 300ms")
	stop()
	d := dial(t, ts)
	d.send(&protocol.Resume{Version: protocol.Version, Token: w3.Token})
	if e, ok := d.closed().(*protocol.Error); !ok || e.Code != protocol.ErrCodeResume {
		t.Errorf("a resume after the window ended with %+v, want Error %d", e, protocol.ErrCodeResume)
	}
	if st := ts.Stats(); st.Resumes != 2 || st.Players != 0 || st.Leaves != 1 {
		t.Errorf("stats %+v: want two resumes and one leave", st)
	}
}
