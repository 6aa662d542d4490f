package web

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// trusted reports whether a is one of the trusted reverse proxies.
func (s *Server) trusted(a netip.Addr) bool {
	a = a.Unmap()
	for _, p := range s.opts.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// peerOf is the address of a request's connection.
func peerOf(r *http.Request) (netip.AddrPort, bool) { return parsePeer(r.RemoteAddr) }

// parsePeer reads a connection's address, "host:port".
func parsePeer(s string) (netip.AddrPort, bool) {
	ap, err := netip.ParseAddrPort(s)
	if err != nil {
		return netip.AddrPort{}, false
	}
	return netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port()), true
}

// clientAddr is the address a request counts as: its connection's, or,
// when that is a trusted proxy, the client's as the proxy's
// X-Forwarded-For says, read from the right (what the nearest proxy saw)
// past the trusted proxies; forwarded says it came from the header. A
// header that names no address leaves the proxy's own.
func (s *Server) clientAddr(r *http.Request) (a net.Addr, forwarded bool) {
	peer, ok := peerOf(r)
	if !ok {
		return &net.TCPAddr{}, false
	}
	addr := &net.TCPAddr{IP: peer.Addr().AsSlice(), Port: int(peer.Port())}
	if !s.trusted(peer.Addr()) {
		return addr, false
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		ip, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			return addr, false // a hop the proxies did not write: trust nothing before it
		}
		if ip = ip.Unmap(); !s.trusted(ip) {
			return &net.TCPAddr{IP: ip.AsSlice()}, true
		}
	}
	return addr, false
}

// originAllowed reports whether a WebSocket request comes from the game's
// own page: a browser names the page's origin, whose host must be the
// host the request was sent to as the browser wrote it (host, see
// browserHost). A request without an Origin is not from a browser's
// page, and is refused too.
func originAllowed(r *http.Request, host string) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return false
	}
	scheme, oh, ok := strings.Cut(origin, "://")
	if !ok || (scheme != "http" && scheme != "https") || oh == "" || strings.ContainsAny(oh, "/?#@") {
		return false
	}
	return strings.EqualFold(oh, host)
}
