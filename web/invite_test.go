package web

import (
	"fmt"
	"net"
	"testing"
)

// The page's addresses a host gives friends: one for each address others
// can reach, IPv6 in brackets; localhost on a loopback listener.
func TestInvites(t *testing.T) {
	ifaddrs := []net.Addr{
		&net.IPNet{IP: net.ParseIP("127.0.0.1"), Mask: net.CIDRMask(8, 32)},
		&net.IPNet{IP: net.ParseIP("2001:db8::7"), Mask: net.CIDRMask(64, 128)},
		&net.IPNet{IP: net.ParseIP("192.168.1.5"), Mask: net.CIDRMask(24, 32)},
	}
	for addr, want := range map[string]string{
		"[::]:8080":      "[http://192.168.1.5:8080/ http://[2001:db8::7]:8080/]",
		"127.0.0.1:8080": "[http://localhost:8080/]",
	} {
		a, err := net.ResolveTCPAddr("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(Invites(a, ifaddrs)); got != want {
			t.Errorf("listening on %s: %s, want %s", addr, got, want)
		}
	}
}
