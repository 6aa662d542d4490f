package web

import (
	"net"
	"net/http"
	"time"

	"gridlag/server/admit"
)

// The open connections of an address (its cap: four a session) are its
// page's requests, its keep-alive connections between them, and its
// WebSockets until they are upgraded. A WebSocket, once upgraded, leaves
// the cap on connections: the session caps hold it (an address's, or a
// class's when it presents a class code), so that a class behind one
// address, 40 sessions of a code, is not refused its page's requests. A
// keep-alive connection idle between requests gives its place to a new
// connection from its address when the address has none left (the
// browser opens another when it needs one): a class loading its pages at
// once is not refused for the connections its browsers keep.

// connState follows each connection's state for the caps: an upgraded
// WebSocket gives its place back; an idle one may be evicted.
func (s *Server) connState(c net.Conn, st http.ConnState) {
	cc, ok := c.(*countedConn)
	if !ok {
		return
	}
	s.idleMu.Lock()
	defer s.idleMu.Unlock()
	switch st {
	case http.StateIdle:
		if s.idle[cc.key] == nil {
			s.idle[cc.key] = make(map[*countedConn]time.Time)
		}
		s.idle[cc.key][cc] = time.Now()
		return
	case http.StateHijacked:
		cc.release() // a WebSocket: its session's slot holds it
	}
	s.forgetIdleLocked(cc)
}

// forgetIdleLocked forgets cc among the idle connections.
func (s *Server) forgetIdleLocked(cc *countedConn) {
	if m := s.idle[cc.key]; m != nil {
		delete(m, cc)
		if len(m) == 0 {
			delete(s.idle, cc.key)
		}
	}
}

// evictIdle closes the connection of key (an address's) idle the
// longest, if it has one idle, and reports whether it did.
func (s *Server) evictIdle(key string) bool {
	s.idleMu.Lock()
	var oldest *countedConn
	var since time.Time
	for cc, t := range s.idle[key] {
		if oldest == nil || t.Before(since) {
			oldest, since = cc, t
		}
	}
	if oldest != nil {
		s.forgetIdleLocked(oldest)
	}
	s.idleMu.Unlock()
	if oldest == nil {
		return false
	}
	oldest.Close() // its place is free at once
	return true
}

// takeConn takes a place for a new connection from key: one of key's
// idle keep-alive connections gives its place if key has none left.
func (s *Server) takeConn(key string, trusted bool) (release func(), v admit.Verdict, refusal string) {
	release, v, refusal = s.conns.Take(key, trusted)
	for release == nil && v != admit.PoolFull && s.evictIdle(key) {
		release, v, refusal = s.conns.Take(key, trusted)
	}
	return release, v, refusal
}
