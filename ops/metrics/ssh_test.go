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

// TestScrapeFrontCounters: each front end's sessions left behind at
// Close, and its attempts refused for their address's rate, have their
// series, at 0 from the start.
func TestScrapeFrontCounters(t *testing.T) {
	for _, c := range []struct {
		name  string
		watch func(*Exporter, string, func() uint64)
	}{
		{"gridlag_sessions_abandoned_total", (*Exporter).WatchAbandoned},
		{"gridlag_attempts_refused_total", (*Exporter).WatchAttempts},
	} {
		exp := New()
		var ssh, web atomic.Uint64
		c.watch(exp, "ssh", ssh.Load)
		c.watch(exp, "web", web.Load)
		srv := httptest.NewServer(exp.Handler())
		s := get(t, srv.URL, "/metrics")
		for _, front := range []string{"ssh", "web"} {
			if series := c.name + `{front="` + front + `"}`; value(s, series) != 0 {
				t.Errorf("%s = %v at the start, want 0", series, value(s, series))
			}
		}
		web.Store(2)
		if v := value(get(t, srv.URL, "/metrics"), c.name+`{front="web"}`); v != 2 {
			t.Errorf("%s{front=\"web\"} = %v after 2, want 2", c.name, v)
		}
		srv.Close()
	}
}
