package remote

import (
	"errors"
	"testing"

	"gridlag/client"
)

// EndReason puts the watchdog's word first, then a stop, then a quit,
// then a lost connection, then the handler's error.
func TestEndReason(t *testing.T) {
	boom := errors.New("boom")
	for _, c := range []struct {
		killed  string
		err     error
		closing bool
		gone    bool
		reason  string
		status  int
	}{
		{"disconnected after 30m0s without a key press", boom, true, true, "disconnected after 30m0s without a key press", 1},
		{"", client.ErrServerStopped, false, true, "server stopped", 0},
		{"", boom, true, false, "server stopped", 0},
		{"", nil, false, false, "", 0},
		{"", boom, false, true, "connection closed", 1},
		{"", boom, false, false, "boom", 1},
	} {
		if reason, status := EndReason(c.killed, c.err, c.closing, c.gone); reason != c.reason || status != c.status {
			t.Errorf("EndReason(%q, %v, %v, %v) = %q, %d; want %q, %d", c.killed, c.err, c.closing, c.gone, reason, status, c.reason, c.status)
		}
	}
}
