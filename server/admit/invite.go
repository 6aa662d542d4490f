package admit

import (
	"net"
	"slices"
)

// Invites returns what a host gives friends to reach a listener on addr,
// one for each host others may reach it by (Hosts), in the front end's
// words: say(host, port), e.g. "ssh -p 2222 192.168.1.5". ifaddrs are the
// machine's interface addresses (net.InterfaceAddrs).
func Invites(addr net.Addr, ifaddrs []net.Addr, say func(host string, port int) string) []string {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		return nil
	}
	var invites []string
	for _, h := range Hosts(tcp, ifaddrs) {
		invites = append(invites, say(h, tcp.Port))
	}
	return invites
}

// Hosts returns the hosts others may reach a listener on tcp by, for the
// invites a host gives friends: the machine's addresses others can reach,
// IPv4 first (ifaddrs are its interface addresses, net.InterfaceAddrs),
// or the one address the listener is bound to, or localhost for a
// loopback one or a machine with no address but loopback and link-local
// ones.
func Hosts(tcp *net.TCPAddr, ifaddrs []net.Addr) []string {
	var hosts []net.IP
	switch {
	case tcp.IP.IsLoopback():
	case !tcp.IP.IsUnspecified():
		hosts = append(hosts, tcp.IP)
	default:
		for _, a := range ifaddrs {
			if n, ok := a.(*net.IPNet); ok && reachable(n.IP) {
				hosts = append(hosts, n.IP)
			}
		}
	}
	// IPv4 first, each family in the interfaces' order.
	slices.SortStableFunc(hosts, func(a, b net.IP) int {
		return boolInt(a.To4() == nil) - boolInt(b.To4() == nil)
	})
	names := make([]string, 0, len(hosts))
	for _, ip := range hosts {
		names = append(names, ip.String())
	}
	if len(names) == 0 {
		names = []string{"localhost"}
	}
	return names
}

// reachable says whether others may reach ip: not loopback, not
// link-local (which needs a zone ssh would have to be told), not
// multicast or unspecified.
func reachable(ip net.IP) bool {
	return !ip.IsLoopback() && !ip.IsLinkLocalUnicast() && !ip.IsMulticast() && !ip.IsUnspecified()
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
