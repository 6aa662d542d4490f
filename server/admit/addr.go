package admit

import "net"

// Key is the key of the per-address caps for a remote address: its IP for
// IPv4, its /64 prefix for IPv6 (one host commonly holds a whole /64:
// counting its addresses one by one would give it thousands of shares).
// An address without an IP (a Unix socket's) is its Host.
func Key(a net.Addr) string {
	ip := hostIP(a)
	if ip == nil {
		return Host(a)
	}
	if v4 := ip.To4(); v4 != nil {
		return v4.String()
	}
	return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
}

// hostIP is the IP of a remote address, nil if it has none.
func hostIP(a net.Addr) net.IP {
	if tcp, ok := a.(*net.TCPAddr); ok {
		return tcp.IP
	}
	return net.ParseIP(Host(a))
}

// Host is the IP part of a remote address (the whole of one that has
// none), for the log.
func Host(a net.Addr) string {
	if tcp, ok := a.(*net.TCPAddr); ok {
		return tcp.IP.String()
	}
	host, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	return host
}
