package sshd

import (
	"net"
	"strconv"

	"gridlag/admit"
)

// Invites returns what a host gives friends to join its game over SSH on
// addr (the SSH listener's address): `ssh -p PORT HOST` (`ssh HOST` on
// port 22) for each of the machine's addresses others can reach, IPv4
// first (admit.Hosts; ifaddrs are the machine's interface addresses,
// net.InterfaceAddrs).
func Invites(addr net.Addr, ifaddrs []net.Addr) []string {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		return nil
	}
	port := ""
	if tcp.Port != 22 {
		port = "-p " + strconv.Itoa(tcp.Port) + " "
	}
	var invites []string
	for _, h := range admit.Hosts(tcp, ifaddrs) {
		invites = append(invites, "ssh "+port+h)
	}
	return invites
}
