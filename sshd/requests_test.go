package sshd

import (
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// windowSize is a window-change request's payload (RFC 4254 6.7).
type windowSize struct{ Cols, Rows, Width, Height uint32 }

// windowChange is a window-change request for cols x rows.
func windowChange(cols, rows uint32) *gossh.Request {
	return &gossh.Request{Type: "window-change", Payload: gossh.Marshal(windowSize{Cols: cols, Rows: rows})}
}

// colsOf returns the columns a window-change request asks for.
func colsOf(t *testing.T, r *gossh.Request) uint32 {
	t.Helper()
	var w windowSize
	if err := gossh.Unmarshal(r.Payload, &w); err != nil {
		t.Fatalf("a %s request's payload: %v", r.Type, err)
	}
	return w.Cols
}

// A flood of window changes is coalesced: the first goes on, then only the
// latest of those within the interval, before the next other request;
// refused requests never go on.
func TestWindowChangeFloodCoalesced(t *testing.T) {
	in, out := make(chan *gossh.Request), make(chan *gossh.Request, 16)
	done := make(chan struct{})
	go func() {
		passRequests(in, out, time.Hour)
		close(done)
	}()
	const flood = 100000
	for i := 1; i <= flood; i++ {
		in <- windowChange(uint32(i%500+1), 40)
	}
	in <- &gossh.Request{Type: "env"}
	in <- &gossh.Request{Type: "shell"}
	close(in)
	<-done
	close(out)
	var got []*gossh.Request
	for r := range out {
		got = append(got, r)
	}
	if len(got) != 3 {
		t.Fatalf("%d window changes passed %d requests on, want 3: the first, the latest, the shell", flood, len(got))
	}
	if got[1].Type != "window-change" {
		t.Fatalf("second request %s, want the latest window change", got[1].Type)
	}
	if cols := colsOf(t, got[1]); cols != flood%500+1 {
		t.Errorf("second request %s of %d columns, want the latest window change (%d)", got[1].Type, cols, flood%500+1)
	}
	if got[2].Type != "shell" {
		t.Errorf("last request %s, want the shell after the held window change", got[2].Type)
	}
}

// A held window change goes on when its interval ends, with nothing after
// it.
func TestHeldWindowChangeGoesOnAfterTheInterval(t *testing.T) {
	in, out := make(chan *gossh.Request), make(chan *gossh.Request, 4)
	go passRequests(in, out, 20*time.Millisecond)
	defer close(in)
	in <- windowChange(80, 24)
	in <- windowChange(100, 30)
	in <- windowChange(120, 40)
	for _, want := range []uint32{80, 120} {
		select {
		case r := <-out:
			if cols := colsOf(t, r); cols != want {
				t.Errorf("window change of %d columns, want %d", cols, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("the window change of %d columns never went on", want)
		}
	}
}
