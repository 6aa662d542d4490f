package agones

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"gridlag/server/admit/admittest"
)

// TestHeartbeatNeverWaitsForHealth: while a Health call hangs, the game's
// heartbeats return at once and are dropped, and no second call starts;
// once it answers, the next beat pings again.
func TestHeartbeatNeverWaitsForHealth(t *testing.T) {
	var calls atomic.Int32
	release := make(chan struct{})
	sidecar := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			<-release
		}
		w.Write([]byte("{}"))
	}))
	t.Cleanup(sidecar.Close)
	g, err := NewGame(Options{Addr: strings.TrimPrefix(sidecar.URL, "http://"), Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go g.ping(ctx)

	beatUntil(t, g, func() bool { return calls.Load() == 1 })
	beaten := make(chan struct{})
	go func() {
		for range 1000 {
			g.Beat() // would block here if a beat waited for the call
		}
		close(beaten)
	}()
	select {
	case <-beaten:
	case <-time.After(30 * time.Second):
		t.Fatal("the beats waited for the hanging Health call")
	}
	if n := calls.Load(); n != 1 {
		t.Fatalf("%d Health calls while the first hung, want 1", n)
	}
	close(release)
	beatUntil(t, g, func() bool { return calls.Load() >= 2 })
}

// beatUntil beats, as the game would, until done.
func beatUntil(t *testing.T, g *Game, done func() bool) {
	t.Helper()
	admittest.Eventually(t, func() bool { g.Beat(); return done() },
		func() string { return "the beats never led to the Health call" })
}
