package web

import (
	"net"
	"strconv"

	"gridlag/server/admit"
)

// Invites returns the page's addresses a host gives friends to play in a
// browser served on addr, http://HOST:PORT/, one for each of the
// machine's addresses others can reach (admit.Invites), as sshd.Invites.
func Invites(addr net.Addr, ifaddrs []net.Addr) []string {
	return admit.Invites(addr, ifaddrs, func(host string, port int) string {
		return "http://" + net.JoinHostPort(host, strconv.Itoa(port)) + "/"
	})
}
