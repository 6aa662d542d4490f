package sshd

import (
	"encoding/binary"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// windowChange is a window-change request for cols x rows.
func windowChange(cols, rows uint32) *gossh.Request {
	p := binary.BigEndian.AppendUint32(nil, cols)
	p = binary.BigEndian.AppendUint32(p, rows)
	p = binary.BigEndian.AppendUint64(p, 0)
	return &gossh.Request{Type: "window-change", Payload: p}
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
	if cols := binary.BigEndian.Uint32(got[1].Payload); got[1].Type != "window-change" || cols != flood%500+1 {
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
			if cols := binary.BigEndian.Uint32(r.Payload); cols != want {
				t.Errorf("window change of %d columns, want %d", cols, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("the window change of %d columns never went on", want)
		}
	}
}
