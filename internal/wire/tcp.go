package wire

import (
	"errors"
	"net"
)

// TCP is what the kernel counted on one TCP socket: its payload bytes
// and segments each way (Flow's units are segments, pure acknowledgements
// included), the segments that carried data, and the header each segment
// carries.
type TCP struct {
	Flow
	UpData, DownData int64  // segments that carried payload, each way
	Header           int    // bytes of IP and TCP header on each segment (IPv4 20 or IPv6 40, TCP 20 plus its options)
	Retrans          int64  // segments sent again
	Why              string // why there are no counters ("" when read)
}

// OK reports whether the counters were read.
func (t TCP) OK() bool { return t.Why == "" }

// Acks is the segments each way that carried no payload: pure
// acknowledgements (and window updates).
func (t TCP) Acks() (up, down int64) { return t.UpOps - t.UpData, t.DownOps - t.DownData }

// Wire is what went on the wire each way: payload plus a header per
// segment; its units are segments.
func (t TCP) Wire() Flow {
	h := int64(t.Header)
	return Flow{Up: t.Up + t.UpOps*h, Down: t.Down + t.DownOps*h, UpOps: t.UpOps, DownOps: t.DownOps}
}

// Sub is t minus u: what the socket carried between two readings. A
// reading without counters makes one without.
func (t TCP) Sub(u TCP) TCP {
	if !t.OK() || !u.OK() {
		return TCP{Why: t.Why + u.Why}
	}
	return TCP{Flow: t.Flow.Sub(u.Flow), UpData: t.UpData - u.UpData, DownData: t.DownData - u.DownData,
		Header: t.Header, Retrans: t.Retrans - u.Retrans}
}

// errNoSocket is ReadTCP's error for a connection with no TCP socket
// under it (an in-process socket pair, a pipe).
var errNoSocket = errors.New("not a TCP socket")

// ReadTCP reads the kernel's counters of the TCP socket under c,
// unwrapping connections that say what they wrap (NetConn, as
// crypto/tls and Conn do); side is ServerSide or PlayerSide, which way is
// up. Where the kernel has no such counters (outside Linux), or c is no
// TCP socket, Why says so.
func ReadTCP(c net.Conn, side bool) TCP {
	for {
		if tc, ok := c.(*net.TCPConn); ok {
			t, err := readTCP(tc, side)
			if err != nil {
				return TCP{Why: err.Error()}
			}
			return t
		}
		u, ok := c.(interface{ NetConn() net.Conn })
		if !ok {
			return TCP{Why: errNoSocket.Error()}
		}
		c = u.NetConn()
	}
}

// ipHeader is the bytes of the IP header of c's packets: 20 for IPv4
// (an IPv4-mapped IPv6 address included), 40 for IPv6.
func ipHeader(c net.Conn) int {
	if a, ok := c.RemoteAddr().(*net.TCPAddr); ok && a.IP.To4() == nil {
		return 40
	}
	return 20
}
