package server

import (
	"gridlag/server/hub"
	"gridlag/server/world"
	"testing"
	"time"
)

// TestSilenceDecides holds the janitor's rule on explicit times, at its
// edges: a connection without a Hello is silent HandshakeTimeout after
// its accept, a player IdleTimeout after the last read that brought
// bytes, not a nanosecond before; one whose reader the server holds back
// never is. The janitor looks a quarter of the shortest timeout apart at
// most, so a drop comes at most that late. (TestTCPIdleTimeout and
// TestTCPHandshakeTimeout drive the same rule over sockets.)
func TestSilenceDecides(t *testing.T) {
	const handshake, idle = 2 * time.Second, 5 * time.Second
	s := &Server{opts: Options{HandshakeTimeout: handshake, IdleTimeout: idle}, hub: hub.New(0, hub.Options{Config: world.Config{Rate: 20}})}
	const born = 7 * time.Second
	c := &conn{born: born}
	c.lastRead.Store(int64(born))
	for _, tc := range []struct {
		name           string
		greeted, holds bool
		lastRead, now  time.Duration
		want           string
	}{
		{"no Hello yet", false, false, born, born + handshake - 1, ""},
		{"no Hello in time", false, false, born, born + handshake, "no Hello within 2s"},
		{"no Hello, held back", false, true, born, born + time.Hour, ""},
		{"a player who just spoke", true, false, born + time.Hour, born + time.Hour, ""},
		{"a player quiet for less", true, false, born + time.Hour, born + time.Hour + idle - 1, ""},
		{"a player quiet for IdleTimeout", true, false, born + time.Hour, born + time.Hour + idle, "silent for 5s"},
		{"a player held back", true, true, born, born + time.Hour, ""},
	} {
		c.greeted.Store(tc.greeted)
		c.holding.Store(tc.holds)
		c.lastRead.Store(int64(tc.lastRead))
		if got := s.silence(c, tc.now); got != tc.want {
			t.Errorf("%s: silence %q, want %q", tc.name, got, tc.want)
		}
	}

	for _, tc := range []struct {
		handshake, idle, want time.Duration
	}{
		{10 * time.Second, 30 * time.Second, time.Second},
		{100 * time.Millisecond, 30 * time.Second, 25 * time.Millisecond},
		{10 * time.Second, 150 * time.Millisecond, 37500 * time.Microsecond},
		{time.Nanosecond, time.Second, time.Millisecond},
	} {
		o := Options{HandshakeTimeout: tc.handshake, IdleTimeout: tc.idle}
		if got := o.janitorInterval(); got != tc.want {
			t.Errorf("timeouts %v and %v: the janitor looks every %v, want %v", tc.handshake, tc.idle, got, tc.want)
		}
	}
}
