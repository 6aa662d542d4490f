package tcp_test

import (
	"context"
	"testing"
	"time"

	"gridlag/client"
	"gridlag/client/tcp"
	"gridlag/grid"
	"gridlag/internal/netcut"
	"gridlag/server/admit/admittest"
	"gridlag/server/world"
)

// waitFor polls cond until it holds, or fails the test after the hang
// guard.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	admittest.Eventually(t, cond, func() string { return "timed out waiting for " + what })
}

// TestResumeThroughACutProxy walks a square over real TCP through a proxy
// that cuts the connection mid-walk, and presses on while the client
// reconnects: the player comes back with its ID, cell and numbering, and
// every input it sent is processed by the server exactly once.
func TestResumeThroughACutProxy(t *testing.T) {
	srv, addr := startServerWith(t, world.Config{Rate: 20, Resume: 30 * time.Second})
	proxy := netcut.Start(t, addr)
	c, err := tcp.Dial(context.Background(), proxy.Addr(), tcp.Options{Options: client.Options{Name: "ada", Latency: 40 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	me := c.View().Me
	square := []grid.Dir{grid.Right, grid.Right, grid.Down, grid.Down, grid.Left, grid.Up}
	sent := 0
	press := func(d grid.Dir) {
		t.Helper()
		c.Press(d)
		sent++
		waitFor(t, "the press to be numbered", func() bool { return c.Stats().InputsSent == sent })
	}
	for _, d := range square {
		press(d)
	}
	// Cut mid-walk, with inputs in flight, but few enough that the two
	// presses below fit in what the client holds while it reconnects (the
	// server's burst): a busy machine can leave the whole walk unacked.
	waitFor(t, "at most two inputs in flight", func() bool { return len(c.View().Pending) <= 2 })
	proxy.Cut()
	waitFor(t, "the client to see the drop", func() bool { return c.View().Reconnecting })
	press(grid.Right) // held while reconnecting, predicted
	press(grid.Right)
	waitFor(t, "the resume", func() bool { return !c.View().Reconnecting })
	for _, d := range square {
		press(d)
	}
	waitFor(t, "every input acknowledged", func() bool { v := c.View(); return len(v.Pending) == 0 && v.LastAck == uint32(sent) })

	v := c.View()
	if v.Err != nil || !v.Connected || v.Me != me {
		t.Fatalf("after the cut: connected %v as %d, err %v; want still player %d", v.Connected, v.Me, v.Err, me)
	}
	if s := c.Stats(); s.Resumes != 1 {
		t.Errorf("the client resumed %d times, want 1", s.Resumes)
	}
	st := srv.Stats()
	if st.InputsProcessed != uint64(sent) || st.Resumes != 1 || st.Joins != 1 || st.Leaves != 0 {
		t.Errorf("server: %d inputs processed of %d sent, %d resumes, %d joins, %d leaves; want all, 1, 1, 0",
			st.InputsProcessed, sent, st.Resumes, st.Joins, st.Leaves)
	}
	if v.Predicted != v.Server {
		t.Errorf("predicted end %v, server's %v: want them equal", v.Predicted, v.Server)
	}
	// Each walk is one right and one down in all, plus two steps right
	// during the drop: from (10,10), with nothing in the way on the
	// default map.
	if want := (grid.Pos{X: 14, Y: 12}); v.Server != want {
		t.Errorf("ended at %v, want %v", v.Server, want)
	}
}
