package replay

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand"
	"net"
	"reflect"
	"strings"
	"testing"
	"time"

	"sync/atomic"

	"gridlag/client"
	"gridlag/client/bot"
	"gridlag/client/tcp"
	"gridlag/grid"
	"gridlag/lab/record"
	"gridlag/server"
	"gridlag/server/admit/admittest"
	"gridlag/server/hub"
	"gridlag/server/world"
)

// seenView is what a test compares of a player's view after a State:
// where it sees itself, where the server has it, what is pending, its
// corrections, the others as drawn, and its freeze and protection.
type seenView struct {
	At          time.Duration
	Predicted   grid.Pos
	Server      grid.Pos
	Ack         uint32
	Pending     []uint32
	Corrections int
	Others      []client.Other
	Frozen      bool
	Protected   bool
	Online      int
}

func seeView(at time.Duration, v client.View) seenView {
	s := seenView{At: at, Predicted: v.Predicted, Server: v.Server, Ack: v.LastAck, Corrections: v.Corrections,
		Others: v.Others, Frozen: v.Frozen, Protected: v.Protected, Online: v.Online}
	for _, p := range v.Pending {
		s.Pending = append(s.Pending, p.Seq)
	}
	return s
}

// TestGameOverTCPReplaysEveryState: a player plays a real game over TCP
// (a server on loopback, three bots, 20 Hz, an injected 120 ms round
// trip with jitter) until 300 States are recorded (45 with -short: 15 s
// and 2.25 s at 20 Hz, longer on a busy machine), recording; the recording replayed
// through a new client core gets every State at the time it was
// recorded, and after each one the view the player had, the others drawn
// where they were drawn; the replay says so too.
func TestGameOverTCPReplaysEveryState(t *testing.T) {
	length := 300
	if testing.Short() {
		length = 45
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(server.Options{Hub: hub.Options{Config: world.Config{Rate: 20}}})
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	defer func() {
		srv.Close()
		if err := <-served; !errors.Is(err, server.ErrServerClosed) {
			t.Errorf("Serve: %v", err)
		}
	}()
	addr := ln.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stopBots := bot.Start(ctx, bot.Options{Addr: addr, N: 3, Seed: 7, Latency: 40 * time.Millisecond,
		Dial: func(ctx context.Context, _ string) (net.Conn, error) { return srv.Dial(ctx, server.Own) }})
	defer stopBots()

	h := record.Header{Kind: record.KindGame, Game: &record.Game{Name: "ada", Server: addr, Latency: record.Duration(120 * time.Millisecond),
		Jitter: record.Duration(30 * time.Millisecond), Seed: 42, Predict: true, Reconcile: true, Interpolate: true}}
	var file bytes.Buffer
	w, err := record.NewWriter(&file, h, 0)
	if err != nil {
		t.Fatal(err)
	}
	j := record.NewJournal(w)
	var (
		recorded []seenView // the client's goroutine's until conn.Close
		checks   atomic.Int64
	)
	opts := tcp.Options{Options: gameOptions(h.Game, Changes{}), Journal: func(c client.Call) {
		j.Call(c)
		if c.Kind == client.CallCheck {
			recorded = append(recorded, seeView(c.At, *c.View))
			checks.Add(1)
		}
	}}
	conn, err := tcp.Dial(ctx, addr, opts)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(3))
	dirs := []grid.Dir{grid.Up, grid.Down, grid.Left, grid.Right}
	admittest.Eventually(t, func() bool {
		if rng.Intn(8) == 0 {
			conn.Zap()
		} else {
			conn.Press(dirs[rng.Intn(4)])
		}
		if rng.Intn(20) == 0 {
			conn.SetReconcile(rng.Intn(2) == 0)
		}
		// A real game: the keys come on the wall clock, at a player's
		// pace, which is what is recorded and replayed.
		time.Sleep(time.Duration(80+rng.Intn(120)) * time.Millisecond)
		return checks.Load() >= int64(length)
	}, func() string { return fmt.Sprintf("%d States recorded, want %d", checks.Load(), length) })
	conn.Close()
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	rec, err := record.Parse(file.Bytes())
	if err != nil {
		t.Fatal(err)
	}

	r := newGameRun(rec, Changes{})
	var replayed []seenView
	r.d.Journal(func(c client.Call) {
		if c.Kind == client.CallCheck {
			replayed = append(replayed, seeView(c.At, *c.View))
		}
	})
	r.runTo(rec.End)
	if len(replayed) != len(recorded) {
		t.Fatalf("replayed %d States, recorded %d", len(replayed), len(recorded))
	}
	others := 0
	for i := range recorded {
		if !reflect.DeepEqual(replayed[i], recorded[i]) {
			t.Fatalf("State %d: replayed\n%+v\nrecorded\n%+v", i, replayed[i], recorded[i])
		}
		others += len(recorded[i].Others)
	}
	if others == 0 {
		t.Fatal("the bots were never in view: the comparison shows little")
	}
	res, err := Play(rec, Changes{})
	if err != nil || res.Mismatch != "" || res.Checked != len(recorded) {
		t.Fatalf("Play checked %d States of %d: %q, %v", res.Checked, len(recorded), res.Mismatch, err)
	}
	t.Logf("%d States, %d events, %d bytes", len(recorded), rec.Count, rec.Size)
}

// TestVerifyCutRecording: a recording cut by its size limit may end after
// a State's bytes and before its check: the State replayed past the last
// check is not a difference; in a complete recording it is one.
func TestVerifyCutRecording(t *testing.T) {
	a := timedCheck{at: time.Second, CheckView: record.CheckView{Predicted: grid.Pos{X: 3, Y: 4}}}
	b := timedCheck{at: 2 * time.Second, CheckView: record.CheckView{Predicted: grid.Pos{X: 4, Y: 4}}}
	verify := func(recorded, replayed []timedCheck, cut bool) (int, string) {
		var buf bytes.Buffer
		w, err := record.NewWriter(&buf, record.Header{Kind: record.KindGame, Game: &record.Game{Name: "ada"}}, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range recorded {
			w.Write(record.Event{At: c.at - time.Millisecond, Kind: record.Update})
			w.Write(c.Event(c.at))
		}
		if err := w.Close(3 * time.Second); err != nil {
			t.Fatal(err)
		}
		rec, err := record.Parse(buf.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		c := newChecker(rec)
		for _, got := range replayed {
			c.replayed(got)
		}
		return c.result(cut)
	}
	if n, m := verify([]timedCheck{a}, []timedCheck{a, b}, true); n != 1 || m != "" {
		t.Fatalf("cut: %d checked, %q", n, m)
	}
	if n, m := verify([]timedCheck{a}, []timedCheck{a, b}, false); n != 1 || m != "the replay got 1 States more than the recording" {
		t.Fatalf("complete: %d checked, %q", n, m)
	}
	if n, m := verify([]timedCheck{a, b}, []timedCheck{a}, true); n != 1 || !strings.Contains(m, "t=2s: the recording has a State the replay never got (2 recorded, 1 replayed)") {
		t.Fatalf("cut: a State recorded and not replayed: %d, %q", n, m)
	}
	if n, m := verify([]timedCheck{a, b}, []timedCheck{a, a, b}, false); n != 1 || !strings.HasPrefix(m, "t=2s: recorded sees (4,4)") {
		t.Fatalf("a different view: %d, %q", n, m)
	}
	if n, m := verify([]timedCheck{a, b}, []timedCheck{a, b}, false); n != 2 || m != "" {
		t.Fatalf("the same views: %d, %q", n, m)
	}
}
