package sshd

import (
	"fmt"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"gridlag/front/remote"
	"gridlag/internal/limit"
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

// ptyRequest is a pty-req for an xterm of cols x rows (RFC 4254 6.2).
func ptyRequest(cols, rows uint32) *gossh.Request {
	p := struct {
		Term                      string
		Cols, Rows, Width, Height uint32
		Modes                     string
	}{Term: "xterm", Cols: cols, Rows: rows}
	return &gossh.Request{Type: "pty-req", Payload: gossh.Marshal(p)}
}

// collect runs passRequests over reqs with lim and returns what it passed
// on.
func collect(lim limit.Rate, reqs ...*gossh.Request) []*gossh.Request {
	in, out := make(chan *gossh.Request), make(chan *gossh.Request, len(reqs)+1)
	done := make(chan struct{})
	go func() {
		passRequests(remote.WallClock(), in, out, requestLimits{window: lim, requests: limit.Rate{Burst: len(reqs) + 1, Every: time.Hour}})
		close(done)
	}()
	for _, r := range reqs {
		in <- r
	}
	close(in)
	<-done
	close(out)
	var got []*gossh.Request
	for r := range out {
		got = append(got, r)
	}
	return got
}

// describe lists requests as "type" or "cols x rows" for window changes.
func describe(reqs []*gossh.Request) []string {
	var d []string
	for _, r := range reqs {
		if r.Type == "window-change" {
			var w windowSize
			if err := gossh.Unmarshal(r.Payload, &w); err != nil {
				d = append(d, fmt.Sprintf("window-change (%v)", err))
				continue
			}
			d = append(d, fmt.Sprintf("%dx%d", w.Cols, w.Rows))
			continue
		}
		d = append(d, r.Type)
	}
	return d
}

// A flood of window changes alternating sizes is coalesced: the first
// few go on, then nothing until the limit allows the latest; refused
// requests never go on, and a later request does not push the held
// change past the limit.
func TestWindowChangeFloodCoalesced(t *testing.T) {
	reqs := []*gossh.Request{ptyRequest(80, 24)}
	const flood = 100000
	for i := 1; i <= flood; i++ {
		if i%2 == 0 {
			reqs = append(reqs, windowChange(10000, 10000))
		} else {
			reqs = append(reqs, windowChange(uint32(80+i%7), 24))
		}
	}
	reqs = append(reqs, &gossh.Request{Type: "env"}, &gossh.Request{Type: "shell"})
	got := describe(collect(limit.Rate{Burst: 4, Every: time.Hour}, reqs...))
	want := []string{"pty-req", "81x24", "10000x10000", "83x24", "10000x10000", "shell"}
	if !slices.Equal(got, want) {
		t.Fatalf("%d window changes passed on %q, want %q: the burst of 4, then the shell", flood, got, want)
	}
}

// Window changes that leave the clamped size as it is go nowhere and use
// none of the limit, and a held change back to the size in force is
// dropped.
func TestWindowChangeToTheSameSizeDropped(t *testing.T) {
	got := describe(collect(limit.Rate{Burst: 1, Every: time.Hour},
		ptyRequest(10000, 10000),
		windowChange(10001, 10000), // the same window: clamped size and margins
		windowChange(80, 24),       // goes on
		windowChange(80, 24),       // nothing to change
		windowChange(100, 30),      // held: over the limit
		windowChange(80, 24),       // back to the size in force: drops the held one
		&gossh.Request{Type: "shell"},
	))
	want := []string{"pty-req", "80x24", "shell"}
	if !slices.Equal(got, want) {
		t.Fatalf("passed on %q, want %q", got, want)
	}
}

// A held window change goes on when the limit allows it, with nothing
// after it. On synctest's virtual clock: the three changes come at one
// instant, as a busy machine may not send them, and the held one goes on
// 20 ms later, whenever it reads the time.
func TestHeldWindowChangeGoesOnAfterTheInterval(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in, out := make(chan *gossh.Request), make(chan *gossh.Request, 4)
		go passRequests(remote.WallClock(), in, out, requestLimits{window: limit.Rate{Burst: 1, Every: 20 * time.Millisecond}, requests: limit.Rate{Burst: 10, Every: time.Millisecond}})
		defer close(in)
		start := time.Now()
		in <- windowChange(80, 24)
		in <- windowChange(100, 30)
		in <- windowChange(120, 40)
		for _, want := range []struct {
			cols uint32
			at   time.Duration
		}{{80, 0}, {120, 20 * time.Millisecond}} {
			r := <-out
			if cols := colsOf(t, r); cols != want.cols {
				t.Errorf("window change of %d columns, want %d", cols, want.cols)
			}
			if at := time.Since(start); at != want.at {
				t.Errorf("the window change of %d columns went on at %v, want %v", want.cols, at, want.at)
			}
		}
	})
}

// A channel that sends requests faster than its limit, past the burst,
// is a flood: passRequests stops at once and says so; one within the
// limit goes on until its end. On synctest's virtual clock: the requests
// within the limit come 2 ms apart exactly, as the limit sees them.
func TestRequestFloodStops(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		lim := requestLimits{window: limit.Rate{Burst: 1, Every: time.Hour}, requests: limit.Rate{Burst: 3, Every: time.Hour}}
		in, out := make(chan *gossh.Request), make(chan *gossh.Request, 8)
		ended := make(chan bool, 1)
		go func() { ended <- passRequests(remote.WallClock(), in, out, lim) }()
		for range 3 {
			in <- &gossh.Request{Type: "shell"}
		}
		in <- &gossh.Request{Type: "env"} // the fourth, within the hour
		if <-ended {
			t.Fatal("passRequests ended as if its channel closed, want a flood")
		}
		if len(out) != 3 {
			t.Errorf("%d requests passed on, want the 3 within the burst", len(out))
		}
		lim.requests = limit.Rate{Burst: 3, Every: time.Millisecond}
		in = make(chan *gossh.Request)
		go func() { ended <- passRequests(remote.WallClock(), in, make(chan *gossh.Request, 8), lim) }()
		for range 6 {
			time.Sleep(2 * time.Millisecond) // the virtual clock's
			in <- &gossh.Request{Type: "env"}
		}
		close(in)
		if !<-ended {
			t.Error("requests within the limit were taken for a flood")
		}
	})
}

// The sizes read from window-change and pty-req payloads: a request's
// columns and rows (capped at 65536) whatever follows them, and a payload
// too short for them, or a terminal name longer than the payload, read
// as no size.
func TestRequestPayloadSizes(t *testing.T) {
	if w, ok := windowChangeSize(windowChange(120, 40).Payload); !ok || w != remote.WindowOf(120, 40) {
		t.Errorf("window change 120x40 read as %+v, %v", w, ok)
	}
	if w, ok := windowChangeSize(gossh.Marshal(struct{ Cols, Rows uint32 }{90, 30})); !ok || w != remote.WindowOf(90, 30) {
		t.Errorf("a window change without its pixels read as %+v, %v, want 90x30", w, ok)
	}
	if w, ok := windowChangeSize(windowChange(1<<31, 1<<31).Payload); !ok || w != remote.WindowOf(1<<16, 1<<16) {
		t.Errorf("a window change of 2^31 columns and rows read as %+v, %v, want the cap", w, ok)
	}
	if w, ok := ptyRequestSize(ptyRequest(100, 30).Payload); !ok || w != remote.WindowOf(100, 30) {
		t.Errorf("pty-req 100x30 read as %+v, %v", w, ok)
	}
	for _, bad := range [][]byte{nil, {0, 0, 0, 80}, {0, 0, 0, 80, 0, 0, 0}} {
		if w, ok := windowChangeSize(bad); ok {
			t.Errorf("window change payload %v read as %+v", bad, w)
		}
	}
	long := gossh.Marshal(struct {
		Term       string
		Cols, Rows uint32
	}{"xterm", 80, 24})
	long[3] = 200 // the name's length runs past the payload
	for _, bad := range [][]byte{nil, {0, 0}, long, gossh.Marshal(struct{ Term string }{"xterm"})} {
		if w, ok := ptyRequestSize(bad); ok {
			t.Errorf("pty-req payload %v read as %+v", bad, w)
		}
	}
}
