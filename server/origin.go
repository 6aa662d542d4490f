package server

import (
	"net"
	"net/netip"

	"gridlag/server/admit"
)

// ownHost is the host of the server's own players (Own): the key that no
// per-address cap applies to.
const ownHost = ""

// hostOf is the key of the per-address caps of a remote address
// (admit.Key: an IPv4 address, an IPv6 /64); ownHost for Own.
func hostOf(a net.Addr) string {
	if t, ok := a.(teacherAddr); ok {
		a = t.Addr
	}
	if a == Own {
		return ownHost
	}
	host := admit.Key(a)
	if host == ownHost {
		return "unnamed" // an unnamed peer (a Unix socket's) is not the server's own
	}
	return host
}

// botAddr reports whether a Hello from a may say it is a bot
// (Options.BotAddrs).
func (s *Server) botAddr(a net.Addr) bool {
	if len(s.opts.BotAddrs) == 0 {
		return false
	}
	if t, ok := a.(teacherAddr); ok {
		a = t.Addr
	}
	ip, err := netip.ParseAddr(admit.Host(a))
	if err != nil {
		return false
	}
	ip = ip.Unmap()
	for _, p := range s.opts.BotAddrs {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// isTeacher reports whether a is the origin of a teacher's in-process
// connection (DialTeacher).
func isTeacher(a net.Addr) bool {
	_, ok := a.(teacherAddr)
	return ok
}
