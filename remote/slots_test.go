package remote

import (
	"errors"
	"net"
	"strings"
	"testing"

	"gridlag/client"
)

// Slots refuse past either cap, saying which, free a slot once however
// often it is released, and let an unlimited address past its share but
// not past the whole.
func TestSlots(t *testing.T) {
	s := NewSlots(3, 2, "players", "sessions") // no reserve: 3 - 2 leaves one
	r1, _, _ := s.Take("a", false)
	r2, _, _ := s.Take("a", false)
	if _, v, why := s.Take("a", false); v != AddrFull || why != "too many sessions from your address (2): close one and try again" {
		t.Errorf("a third from a: %v %q", v, why)
	}
	r3, _, _ := s.Take("b", false)
	if _, v, why := s.Take("c", false); v != PoolFull || why != "the server is full (3 players): try again later" {
		t.Errorf("a fourth in all: %v %q", v, why)
	}
	r1()
	r1()
	if all, a := s.Held("a"); all != 2 || a != 1 {
		t.Errorf("after one release, twice: %d held, %d by a; want 2, 1", all, a)
	}
	rp, _, why := s.Take("a", true)
	if why != "" {
		t.Errorf("an unlimited address over its share: %q", why)
	}
	if _, v, _ := s.Take("proxy", true); v != PoolFull {
		t.Error("an unlimited address past the whole was let in")
	}
	for _, r := range []func(){r2, r3, rp} {
		r()
	}
	if all, a := s.Held("a"); all != 0 || a != 0 {
		t.Errorf("after every release: %d held, %d by a", all, a)
	}
}

// Slots keep a pool's reserve: past three quarters, an address holding its
// share is refused, saying so in a line that fits 80 columns, while a
// newcomer's address and a trusted proxy still get in.
func TestSlotsReserve(t *testing.T) {
	s := NewSlots(8, 4, "players", "sessions") // reserve 2, share 1
	for _, k := range []string{"a", "a", "b", "b", "c", "d"} {
		if r, v, why := s.Take(k, false); r == nil {
			t.Fatalf("%s refused before the reserve: %v %q", k, v, why)
		}
	}
	_, v, why := s.Take("a", false)
	if v != Reserved || !strings.Contains(why, "yours has 2") || len("gridlag: "+why) > 80 {
		t.Errorf("a, holding 2, in the reserve: %v %q", v, why)
	}
	if r, _, why := s.Take("proxy", true); r == nil {
		t.Errorf("a trusted proxy in the reserve: %q", why)
	}
	if r, _, why := s.Take("e", false); r == nil {
		t.Errorf("a newcomer in the reserve: %q", why)
	}
	if _, v, _ := s.Take("f", false); v != PoolFull {
		t.Errorf("a ninth: %v, want the pool full", v)
	}
}

// HostOf is the address without its port, whatever the kind of address.
func TestHostOf(t *testing.T) {
	for _, c := range []struct {
		a    net.Addr
		want string
	}{
		{&net.TCPAddr{IP: net.ParseIP("192.0.2.7"), Port: 22}, "192.0.2.7"},
		{&net.TCPAddr{IP: net.ParseIP("2001:db8::1"), Port: 22}, "2001:db8::1"},
		{&net.UnixAddr{Name: "/run/x", Net: "unix"}, "/run/x"},
	} {
		if got := HostOf(c.a); got != c.want {
			t.Errorf("HostOf(%v) = %q, want %q", c.a, got, c.want)
		}
	}
}

// EndReason puts the watchdog's word first, then a stop, then a quit,
// then a lost connection, then the handler's error.
func TestEndReason(t *testing.T) {
	boom := errors.New("boom")
	for _, c := range []struct {
		killed  string
		err     error
		closing bool
		gone    bool
		reason  string
		status  int
	}{
		{"disconnected after 30m0s without a key press", boom, true, true, "disconnected after 30m0s without a key press", 1},
		{"", client.ErrServerStopped, false, true, "server stopped", 0},
		{"", boom, true, false, "server stopped", 0},
		{"", nil, false, false, "", 0},
		{"", boom, false, true, "connection closed", 1},
		{"", boom, false, false, "boom", 1},
	} {
		if reason, status := EndReason(c.killed, c.err, c.closing, c.gone); reason != c.reason || status != c.status {
			t.Errorf("EndReason(%q, %v, %v, %v) = %q, %d; want %q, %d", c.killed, c.err, c.closing, c.gone, reason, status, c.reason, c.status)
		}
	}
}
