package web

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strings"
	"sync"
	"time"
)

// The WebSocket is the game's to the page the server served, and to no
// other. A browser sends the page's origin with it (Origin), which must
// be the host the socket was asked of (Host); but a page on a name whose
// DNS its owner points at this server's address (DNS rebinding) has that
// name for both, and would play for its visitor, who may be on the
// server's network (a class's). So the host must also be one of the
// names the server is reached by (hostSet): the addresses it listens on,
// localhost and the loopback addresses, the machine's own addresses and
// name, and the names its operator gives (Options.Hosts: a public name,
// the name a reverse proxy serves it under).

// hostSet is what the server answers to as a page's host.
type hostSet struct {
	names map[string]bool // lower case, no final dot: Options.Hosts' names and the machine's
	addrs []netip.Addr    // Options.Hosts' addresses

	mu      sync.Mutex
	listens []netip.Addr // the addresses the server serves on (Serve)
	ifaddrs []netip.Addr // the machine's, as last read
	read    time.Time    // when ifaddrs were read
}

// ifaddrsFresh is how long the machine's addresses are taken as read: a
// laptop's change as it moves, and a socket's check reads them at most
// this often.
const ifaddrsFresh = 5 * time.Second

// newHostSet is the set of the names and addresses given (as ParseHosts
// reads them) and the machine's own name.
func newHostSet(given []string) *hostSet {
	hs := &hostSet{names: make(map[string]bool)}
	for _, h := range given {
		if a, err := netip.ParseAddr(strings.Trim(h, "[]")); err == nil {
			hs.addrs = append(hs.addrs, a.Unmap())
		} else {
			hs.names[canonicalName(h)] = true
		}
	}
	if name, err := os.Hostname(); err == nil && name != "" {
		name = canonicalName(name)
		hs.names[name] = true
		if !strings.Contains(name, ".") {
			hs.names[name+".local"] = true // its name on the network's multicast DNS
		}
	}
	return hs
}

// listen adds an address the server serves on.
func (hs *hostSet) listen(a net.Addr) {
	if tcp, ok := a.(*net.TCPAddr); ok {
		if ip, ok := netip.AddrFromSlice(tcp.IP); ok {
			hs.mu.Lock()
			hs.listens = append(hs.listens, ip.Unmap())
			hs.mu.Unlock()
		}
	}
}

// allows reports whether hostport (a Host header: a name or an address,
// perhaps a port) is one the server answers to.
func (hs *hostSet) allows(hostport string) bool {
	host, ok := splitHost(hostport)
	if !ok {
		return false
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		name := canonicalName(host)
		return name == "localhost" || strings.HasSuffix(name, ".localhost") || hs.names[name]
	}
	a = a.Unmap().WithZone("")
	if a.IsLoopback() || hs.has(hs.addrs, a) {
		return true
	}
	hs.mu.Lock()
	defer hs.mu.Unlock()
	if hs.has(hs.listens, a) {
		return true
	}
	if time.Since(hs.read) > ifaddrsFresh {
		hs.ifaddrs, hs.read = machineAddrs(), time.Now()
	}
	return hs.has(hs.ifaddrs, a)
}

func (hs *hostSet) has(list []netip.Addr, a netip.Addr) bool {
	for _, b := range list {
		if b == a {
			return true
		}
	}
	return false
}

// machineAddrs are the addresses of the machine's interfaces.
func machineAddrs() []netip.Addr {
	ifaddrs, _ := net.InterfaceAddrs()
	var as []netip.Addr
	for _, ia := range ifaddrs {
		if n, ok := ia.(*net.IPNet); ok {
			if a, ok := netip.AddrFromSlice(n.IP); ok {
				as = append(as, a.Unmap())
			}
		}
	}
	return as
}

// splitHost reads a Host header: a name, an IPv4 address or a bracketed
// IPv6 one (its zone, percent-encoded or not, dropped), then perhaps a
// port.
func splitHost(hostport string) (string, bool) {
	host, port := hostport, ""
	if rest, ok := strings.CutPrefix(hostport, "["); ok {
		var found bool
		if host, port, found = strings.Cut(rest, "]"); !found {
			return "", false
		}
		if port != "" {
			var ok bool
			if port, ok = strings.CutPrefix(port, ":"); !ok {
				return "", false
			}
		}
		host, _, _ = strings.Cut(host, "%") // a zone: fe80::1%25eth0
		if _, err := netip.ParseAddr(host); err != nil {
			return "", false
		}
	} else if h, p, found := strings.Cut(hostport, ":"); found {
		if strings.Contains(p, ":") {
			return "", false // an IPv6 address needs its brackets
		}
		host, port = h, p
	}
	if host == "" || len(port) > 5 || strings.Trim(port, "0123456789") != "" {
		return "", false
	}
	return host, true
}

// canonicalName is a host name as the set keeps it: lower case, without
// the final dot of a fully qualified one.
func canonicalName(name string) string {
	return strings.TrimSuffix(strings.ToLower(name), ".")
}

// ParseHosts reads a list of the names (and addresses) a server is
// reached by besides its own, for Options.Hosts: names or IP addresses,
// without ports, separated by commas.
func ParseHosts(s string) ([]string, error) {
	var hosts []string
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if a, err := netip.ParseAddr(strings.Trim(f, "[]")); err == nil {
			hosts = append(hosts, a.String())
			continue
		}
		if err := checkName(f); err != nil {
			return nil, fmt.Errorf("%q: %v", f, err)
		}
		hosts = append(hosts, canonicalName(f))
	}
	return hosts, nil
}

// checkName checks a host name: dot-separated labels of letters, digits,
// hyphens and underscores, none empty or longer than 63, in all at most
// 253.
func checkName(name string) error {
	if strings.Contains(name, ":") {
		return errors.New("a name without a port (the port is the one -web listens on, or the proxy's)")
	}
	name = strings.TrimSuffix(name, ".")
	if name == "" || len(name) > 253 {
		return errors.New("not a host name")
	}
	for _, label := range strings.Split(name, ".") {
		if label == "" || len(label) > 63 || strings.Trim(strings.ToLower(label), "abcdefghijklmnopqrstuvwxyz0123456789-_") != "" {
			return errors.New("not a host name (letters, digits, hyphens, dots)")
		}
	}
	return nil
}

// browserHost is the host a request was sent to as the browser wrote
// it: its Host, or, from a trusted proxy, the host the proxy says it
// forwarded (X-Forwarded-Host; of a list, the nearest proxy's word).
func (s *Server) browserHost(r *http.Request) string {
	if peer, ok := peerOf(r); ok && s.trusted(peer.Addr()) {
		vs := r.Header.Values("X-Forwarded-Host")
		if len(vs) > 0 {
			hops := strings.Split(vs[len(vs)-1], ",")
			if fwd := strings.TrimSpace(hops[len(hops)-1]); fwd != "" {
				return fwd
			}
		}
	}
	return r.Host
}
