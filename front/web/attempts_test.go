package web

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"gridlag/front/remote"
)

// A storm of new WebSockets from one address past its rate (3 at once,
// then one a second, on a clock that stands still until the test moves
// it): the first three play; each one after is upgraded only to be told
// why, close 1013, the reason and a second's wait, and starts no session;
// a player from another address plays through it, and once the wait is
// over the storm's address plays again.
func TestAttemptsPastTheRateCostNoSession(t *testing.T) {
	var now atomic.Int64
	seen := make(chan *remote.Player, 64)
	s := startWeb(t, Options{Handler: sizeHandler(seen), Attempts: 60, AttemptBurst: 3,
		attemptClock: func() time.Duration { return time.Duration(now.Load()) }})
	storm := dialer{from: "127.0.0.2"}
	for i := range 3 {
		openTab(t, s, storm, fmt.Sprintf("st%d", i), testID(i), "/").waitText(fmt.Sprintf("hello st%d", i))
	}
	const past = 7
	for i := range past {
		e, code := connectTab(t, s, storm).waitEnd()
		if code != closeTryLater || !e.Again || e.Retry != 1 || !strings.Contains(e.Reason, "too many new connections from your address (at most 60 a minute)") {
			t.Fatalf("attempt %d past the rate: end %+v, close %v; want 1013, again, a second's wait, the reason", 4+i, e, code)
		}
	}
	openTab(t, s, dialer{from: "127.0.0.3"}, "bob", testID(50), "/").waitText("hello bob")
	if n := s.Stats().AttemptsRefused; n != past {
		t.Errorf("%d attempts counted as refused, want %d", n, past)
	}
	if n := len(seen); n != 4 {
		t.Errorf("%d sessions started, want 4 (three of the storm's, bob's): a refused attempt started one", n)
	}
	now.Store(int64(time.Second))
	openTab(t, s, storm, "calm", testID(60), "/").waitText("hello calm")
}
