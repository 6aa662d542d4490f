package metrics

import (
	"net/http/httptest"
	"sync"
	"testing"

	"gridlag/server"
)

// TestGateGauges: /metrics shows how many newcomers the loop holds and
// whether it takes no join because the ticks are late, as the server
// says at each scrape.
func TestGateGauges(t *testing.T) {
	var mu sync.Mutex
	now := server.GateNow{Held: 312, Behind: true}
	exp := New()
	exp.WatchGate(func() server.GateNow { mu.Lock(); defer mu.Unlock(); return now })
	web := httptest.NewServer(Routes{Metrics: exp}.Handler())
	defer web.Close()

	s := get(t, web.URL, "/metrics")
	if value(s, "gridlag_joins_held") != 312 || value(s, "gridlag_joins_stopped") != 1 {
		t.Errorf("312 held, joins stopped for the ticks, scraped:\n%s", s)
	}
	mu.Lock()
	now = server.GateNow{}
	mu.Unlock()
	s = get(t, web.URL, "/metrics")
	if value(s, "gridlag_joins_held") != 0 || value(s, "gridlag_joins_stopped") != 0 {
		t.Errorf("none held, joins taken, scraped:\n%s", s)
	}
}
