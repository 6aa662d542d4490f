package sshd

import (
	"fmt"
	"net"
	"testing"
)

// TestSSHInvites: what a host gives friends, from the SSH listener's
// address and the machine's addresses.
func TestSSHInvites(t *testing.T) {
	ifaddrs := []net.Addr{
		&net.IPNet{IP: net.ParseIP("127.0.0.1"), Mask: net.CIDRMask(8, 32)},
		&net.IPNet{IP: net.ParseIP("::1"), Mask: net.CIDRMask(128, 128)},
		&net.IPNet{IP: net.ParseIP("fe80::1"), Mask: net.CIDRMask(64, 128)},
		&net.IPNet{IP: net.ParseIP("2001:db8::7"), Mask: net.CIDRMask(64, 128)},
		&net.IPNet{IP: net.ParseIP("192.168.1.5"), Mask: net.CIDRMask(24, 32)},
		&net.IPNet{IP: net.ParseIP("169.254.3.4"), Mask: net.CIDRMask(16, 32)},
	}
	loopbackOnly := ifaddrs[:3]
	for _, c := range []struct {
		addr    string
		ifaddrs []net.Addr
		want    string
	}{
		{"[::]:2222", ifaddrs, "[ssh -p 2222 192.168.1.5 ssh -p 2222 2001:db8::7]"},
		{"0.0.0.0:2222", ifaddrs, "[ssh -p 2222 192.168.1.5 ssh -p 2222 2001:db8::7]"},
		{"[::]:22", ifaddrs, "[ssh 192.168.1.5 ssh 2001:db8::7]"},
		{"[::]:2222", loopbackOnly, "[ssh -p 2222 localhost]"},
		{"127.0.0.1:2222", ifaddrs, "[ssh -p 2222 localhost]"},
		{"10.0.0.9:2222", ifaddrs, "[ssh -p 2222 10.0.0.9]"},
	} {
		addr, err := net.ResolveTCPAddr("tcp", c.addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(Invites(addr, c.ifaddrs)); got != c.want {
			t.Errorf("listening on %s: %s, want %s", c.addr, got, c.want)
		}
	}
}
