package sshd

import (
	"net"
	"strconv"

	"gridlag/server/admit"
)

// Invites returns what a host gives friends to join its game over SSH on
// addr (the SSH listener's address): `ssh -p PORT HOST` (`ssh HOST` on
// port 22) for each of the machine's addresses others can reach, IPv4
// first (admit.Invites).
func Invites(addr net.Addr, ifaddrs []net.Addr) []string {
	return admit.Invites(addr, ifaddrs, func(host string, port int) string {
		if port == 22 {
			return "ssh " + host
		}
		return "ssh -p " + strconv.Itoa(port) + " " + host
	})
}
