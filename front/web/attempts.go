package web

import (
	"net/http"

	"github.com/coder/websocket"
)

// refuseAttempt checks a new WebSocket against the rate of its address's
// attempts (admit.Attempts) before a session is spent on it, and reports
// whether it refused it: one past the rate is upgraded only to be told
// why and how long to wait (close 1013, which the page obeys; a refusal
// before the upgrade reads to it as a drop, tried again at once), its
// refusal logged, summarised per address.
func (s *Server) refuseAttempt(so *socket, w http.ResponseWriter, r *http.Request) bool {
	refusal, wait := s.attempts.Allow(so.key)
	if !refusal.Refused() {
		return false
	}
	s.warn.Warn("refused "+so.key+" "+refusal.Kind, "web socket refused", "remote", so.host, "reason", refusal.Text)
	c, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
	if err != nil {
		return true
	}
	so.c = c
	so.finish(ending{Reason: refusal.Text, Status: 1, Again: true, Retry: retrySeconds(wait)}, closeTryLater)
	return true
}
