package admit

import (
	"net"
	"testing"
	"time"
)

// IPv4 addresses count one by one, IPv6 ones by their /64.
func TestKey(t *testing.T) {
	for addr, want := range map[string]string{
		"192.0.2.7:22":             "192.0.2.7",
		"[::ffff:192.0.2.7]:22":    "192.0.2.7",
		"[2001:db8:1:2:3::9]:2222": "2001:db8:1:2::/64",
		"[2001:db8:1:2:ffff::1]:1": "2001:db8:1:2::/64",
		"[2001:db8:1:3::1]:1":      "2001:db8:1:3::/64",
	} {
		a, err := net.ResolveTCPAddr("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := Key(a); got != want {
			t.Errorf("Key(%s) = %s, want %s", addr, got, want)
		}
	}
	if got := Key(&net.UnixAddr{Name: "/run/x", Net: "unix"}); got != "/run/x" {
		t.Errorf("Key of a Unix socket's address = %q, want its name", got)
	}
}

// Host is the address without its port, whatever the kind of address.
func TestHost(t *testing.T) {
	for _, c := range []struct {
		a    net.Addr
		want string
	}{
		{&net.TCPAddr{IP: net.ParseIP("192.0.2.7"), Port: 22}, "192.0.2.7"},
		{&net.TCPAddr{IP: net.ParseIP("2001:db8::1"), Port: 22}, "2001:db8::1"},
		{&net.UnixAddr{Name: "/run/x", Net: "unix"}, "/run/x"},
	} {
		if got := Host(c.a); got != c.want {
			t.Errorf("Host(%v) = %q, want %q", c.a, got, c.want)
		}
	}
}

// An option left zero, or set below zero, takes its default; one set
// keeps its value.
func TestOr(t *testing.T) {
	if Or(0, 5) != 5 || Or(-1, 5) != 5 || Or(3, 5) != 3 || Or(time.Duration(0), time.Second) != time.Second {
		t.Error("Or does not fill what was left unset, and only that")
	}
}
