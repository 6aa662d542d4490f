package sshd

import (
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// Raw TCP connections from one address past its rate (3 at once, then
// one a second, on a clock that stands still until the test moves it):
// the first three are sent the SSH banner; each one after is told why in
// a line and closed as it arrives, before the banner and the key
// exchange, and counted; another address plays through it, and once the
// wait is over the first may connect again.
func TestAttemptsPastTheRateClosedBeforeTheHandshake(t *testing.T) {
	var now atomic.Int64
	s := startSSH(t, Options{Handler: echoHandler(nil), Attempts: 60, AttemptBurst: 3,
		attemptClock: func() time.Duration { return time.Duration(now.Load()) }})
	for range 3 {
		bannerless(t, s, "127.0.0.2")
	}
	const past = 7
	for i := range past {
		c := dialFrom(t, s, "127.0.0.2")
		c.SetReadDeadline(time.Now().Add(waitLong))
		b, err := io.ReadAll(c)
		if err != nil || !strings.HasPrefix(string(b), "gridlag: connection refused: too many new connections from your address (at most 60 a minute): try again in 1 s") ||
			strings.Contains(string(b), "SSH-") {
			t.Fatalf("connection %d past the rate: read %q, %v; want the refusal's line alone, no banner, then closed", 4+i, b, err)
		}
	}
	playFrom(t, s, "127.0.0.3", "bob")
	if n := s.Stats().Refused[KindAttempts]; n != past {
		t.Errorf("%d connections counted as refused for the rate, want %d", n, past)
	}
	now.Store(int64(time.Second))
	bannerless(t, s, "127.0.0.2")
}
