package web

import (
	"net"
	"strconv"

	"gridlag/admit"
)

// Invites returns the page's addresses a host gives friends to play in a
// browser served on addr, http://HOST:PORT/, one for each of the
// machine's addresses others can reach (admit.Hosts), as sshd.Invites.
func Invites(addr net.Addr, ifaddrs []net.Addr) []string {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		return nil
	}
	var urls []string
	for _, h := range admit.Hosts(tcp, ifaddrs) {
		urls = append(urls, "http://"+net.JoinHostPort(h, strconv.Itoa(tcp.Port))+"/")
	}
	return urls
}
