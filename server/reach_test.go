package server

import (
	"strings"
	"testing"

	"gridlag/protocol"
	"gridlag/server/hub"
	"gridlag/server/world"
	"gridlag/server/world/worldtest"
)

// TestServerLogsTheUnreachableFloorOnce: a server on such a map says
// once how much of its floor nobody can reach, however many rooms open.
func TestServerLogsTheUnreachableFloorOnce(t *testing.T) {
	ts := startServer(t, Options{Hub: hub.Options{Config: world.Config{Rate: 20, Map: worldtest.SealedMap(t)}}})
	ts.waitLog(t, "unreachable=132 floor=324")
	c := dial(t, ts)
	c.send(&protocol.Hello{Version: protocol.Version, Name: "ada", Room: "kitchen"})
	c.until("the Welcome", func(m protocol.Message) bool { _, ok := m.(*protocol.Welcome); return ok })
	if n := strings.Count(ts.logs.String(), "no player can reach"); n != 1 {
		t.Errorf("the unreachable floor was logged %d times, want once:\n%s", n, ts.logs)
	}
	quiet := startServer(t, Options{Hub: hub.Options{Config: world.Config{Rate: 20}}})
	dial(t, quiet).join("ada")
	if strings.Contains(quiet.logs.String(), "no player can reach") {
		t.Errorf("the default map has unreachable floor:\n%s", quiet.logs)
	}
}
