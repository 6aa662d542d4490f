package metrics

import (
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

// TestScrapeSSHRefusals: every kind of the SSH front end's refusals has
// its series from the start, at 0, and follows the counts.
func TestScrapeSSHRefusals(t *testing.T) {
	exp := New()
	var evicted atomic.Uint64
	exp.WatchSSH([]string{"handshake_evicted", "banner_timeout"}, func() map[string]uint64 {
		return map[string]uint64{"handshake_evicted": evicted.Load()}
	})
	web := httptest.NewServer(exp.Handler())
	defer web.Close()
	s := get(t, web.URL, "/metrics")
	for _, series := range []string{`gridlag_ssh_refusals_total{reason="handshake_evicted"}`, `gridlag_ssh_refusals_total{reason="banner_timeout"}`} {
		if v := value(s, series); v != 0 {
			t.Errorf("%s = %v before any refusal, want 0", series, v)
		}
	}
	evicted.Store(3)
	s = get(t, web.URL, "/metrics")
	if v := value(s, `gridlag_ssh_refusals_total{reason="handshake_evicted"}`); v != 3 {
		t.Errorf("evictions = %v after 3, want 3", v)
	}
}

// TestScrapeAbandonedSessions: each front end's sessions left behind at
// Close have their series, at 0 from the start.
func TestScrapeAbandonedSessions(t *testing.T) {
	exp := New()
	var ssh, web atomic.Uint64
	exp.WatchAbandoned("ssh", ssh.Load)
	exp.WatchAbandoned("web", web.Load)
	srv := httptest.NewServer(exp.Handler())
	defer srv.Close()
	s := get(t, srv.URL, "/metrics")
	for _, series := range []string{`gridlag_sessions_abandoned_total{front="ssh"}`, `gridlag_sessions_abandoned_total{front="web"}`} {
		if v := value(s, series); v != 0 {
			t.Errorf("%s = %v at the start, want 0", series, v)
		}
	}
	web.Store(2)
	if v := value(get(t, srv.URL, "/metrics"), `gridlag_sessions_abandoned_total{front="web"}`); v != 2 {
		t.Errorf("web's abandoned sessions = %v after 2, want 2", v)
	}
}
