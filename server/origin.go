package server

import (
	"net"
	"net/netip"
)

// ownHost is the host of the server's own players (Own): the key that no
// per-address cap applies to.
const ownHost = ""

// hostOf is the IP part of a remote address, the key of the per-address
// caps; ownHost for Own.
func hostOf(a net.Addr) string {
	if t, ok := a.(teacherAddr); ok {
		a = t.Addr
	}
	if a == Own {
		return ownHost
	}
	if tcp, ok := a.(*net.TCPAddr); ok {
		return tcp.IP.String()
	}
	host, _, err := net.SplitHostPort(a.String())
	if err != nil {
		host = a.String()
	}
	if host == ownHost {
		return "unnamed" // an unnamed peer (a Unix socket's) is not the server's own
	}
	return host
}

// botAddr reports whether a Hello from host may say it is a bot
// (Options.BotAddrs).
func (s *Server) botAddr(host string) bool {
	if len(s.opts.BotAddrs) == 0 {
		return false
	}
	ip, err := netip.ParseAddr(host)
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
