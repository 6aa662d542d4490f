package server

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"gridlag/protocol"
	"gridlag/server/hub"
	"gridlag/server/world"
)

// recorder is a Metrics that keeps what it is told.
type recorder struct {
	mu            sync.Mutex
	ticks         int
	frames, bytes int
	writes, wrote int
	skipped       int
	refused, left map[string]int
}

func newRecorder() *recorder {
	return &recorder{refused: map[string]int{}, left: map[string]int{}}
}

func (r *recorder) Tick(took time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if took > 0 {
		r.ticks++
	}
}

func (r *recorder) Sent(frames, bytes int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.frames += frames
	r.bytes += bytes
}

func (r *recorder) Wrote(writes, bytes int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.writes += writes
	r.wrote += bytes
}

func (r *recorder) Skipped(states int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.skipped += states
}

func (r *recorder) Refused(kind string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.refused[kind]++
}

func (r *recorder) Left(kind string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.left[kind]++
}

// waitFor polls until ok holds for the recorder.
func (r *recorder) waitFor(t *testing.T, what string, ok func(*recorder) bool) {
	t.Helper()
	eventually(t, func() bool {
		r.mu.Lock()
		defer r.mu.Unlock()
		return ok(r)
	}, func() string { return fmt.Sprintf("metrics never showed %s: %+v", what, r) })
}

// TestMetricsSeeTheServer: the server reports its ticks, every byte it
// queues and writes, its writes, refusals and leaves with the kind of
// their reason.
func TestMetricsSeeTheServer(t *testing.T) {
	rec := newRecorder()
	// On the test's clock: ada's and old's Hellos come in time however
	// slowly a busy machine reads them; the clock runs only once silent
	// is the last one left to say anything.
	ts, clock := startClocked(t, Options{Hub: hub.Options{Config: world.Config{Rate: 50}}, Metrics: rec, HandshakeTimeout: 50 * time.Millisecond})
	c := dial(t, ts)
	c.join("ada")
	clock.advance(time.Second / 50)
	c.state("a tick's State", func(*protocol.State) bool { return true })
	old := dial(t, ts)
	old.send(&protocol.Hello{Version: protocol.Version + 1, Name: "old"})
	old.closed()
	c.send(&protocol.Bye{Reason: "done"})
	c.closed()
	silent := dial(t, ts)
	defer clock.run(ms)()
	silent.closed()

	read := c.dec.BytesRead + old.dec.BytesRead + silent.dec.BytesRead
	rec.waitFor(t, "a tick, every byte read, refusals for the version and the silence, a leave for the Bye", func(r *recorder) bool {
		return r.ticks > 0 && int64(r.bytes) >= read && r.frames >= 5 && r.writes > 0 && int64(r.wrote) >= read &&
			r.refused["version"] == 1 && r.refused["timeout"] == 1 && r.left["bye"] == 1
	})
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.refused) != 2 || len(rec.left) != 1 {
		t.Errorf("refused %v, left %v: want the version, the silence and the Bye only", rec.refused, rec.left)
	}
}

// TestReasonKinds: each reason the server gives falls in a kind of a
// small fixed set, so that a label never carries an address, a name or a
// number.
func TestReasonKinds(t *testing.T) {
	cases := map[string]string{
		"said bye: done":                                    "bye",
		"connection closed by the client":                   "closed",
		"too slow: 256 frames queued unread":                "slow",
		"too slow: nothing written for 10s":                 "slow",
		"flooding: more than 200 messages per second":       "flood",
		"silent for 30s":                                    "timeout",
		"no Hello within 5s":                                "timeout",
		"malformed frame: protocol: empty frame":            "malformed",
		"protocol violation: second handshake":              "violation",
		"server full: 256 of 256 players":                   "full",
		"room full: 700 players; its map's floor holds 700": "room_full",
		"spectators full: 16 of 16":                         "full",
		"name refused: name is empty":                       "name",
		"protocol version 2 is not supported":               "version",
		"write error: broken pipe":                          "io_error",
		"rate limited: too many joins from your address":    "rate",
		"too many rooms from your address: it opened 16":    "per_address",
		"too many players from your address: 32 joined":     "per_address",
		"unknown class code: ask your teacher":              "class_code",
		"rate limited: too many wrong class codes from you": "rate",
		"server busy: 256 rooms open; the last 32 are kept": "full",
		"a reason nobody wrote yet":                         ReasonOther,
	}
	// The line's refusals for load: early (the estimate says no place
	// will come in time) as capacity, after the whole wait apart.
	cases["server full: at capacity: it holds about 1420 players by its ticks' cost and has 1420"] = "capacity"
	cases["server full: at capacity: no place came within 1m0s in line; try again later"] = "line_wait"
	kinds := ReasonKinds()
	for reason, want := range cases {
		got := ReasonKind(reason)
		if got != want {
			t.Errorf("ReasonKind(%q) = %q, want %q", reason, got, want)
		}
		if !slices.Contains(kinds, got) {
			t.Errorf("ReasonKinds() = %v lacks %q", kinds, got)
		}
	}
	if kinds[len(kinds)-1] != ReasonOther || len(kinds) > 20 {
		t.Errorf("ReasonKinds() = %v, want a few kinds, %q last", kinds, ReasonOther)
	}
}
