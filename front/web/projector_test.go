package web

import (
	"context"
	"net"
	"os"
	"testing"
	"time"

	"gridlag/client"
	"gridlag/client/tcp"
	"gridlag/grid"
	"gridlag/server"
)

// The projector in a real browser: headless Chromium at 1920x1080
// (front/web/e2e/projector.js) watches room 3b, where stud2 (on a round
// trip of a second) and stud3 play and a teacher teaches: the page's
// font grows until its terminal is about 160x45, the board fills at
// least half the window, the round's clock and the scoreboard beside
// it; when the teacher follows stud2, the page says so, and stud2's
// press of RIGHT shows as its avatar a cell on and #1 → in its ledger.
// The screenshots go to $GRIDLAG_SHOTS if set (a test's directory
// otherwise).
func TestBrowserProjector(t *testing.T) {
	t.Parallel() // a browser mostly waited on; the heap-measuring tests run before, alone
	s, g := startGameWeb(t, Options{})
	ctx := context.Background()
	addr := g.Addr().String()
	stud2, err := tcp.Dial(ctx, addr, tcp.Options{Options: client.Options{Name: "stud2", Room: "3b", Latency: time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	defer stud2.Close()
	stud3, err := tcp.Dial(ctx, addr, tcp.Options{Options: client.Options{Name: "stud3", Room: "3b"}})
	if err != nil {
		t.Fatal(err)
	}
	defer stud3.Close()
	teacher := teach(t, g, addr, "3b")
	shots := os.Getenv("GRIDLAG_SHOTS")
	if shots == "" {
		shots = t.TempDir()
	}
	runBrowser(t, s, "projector.js", []string{"http://" + s.Addr().String(), shots}, nil, func(do string) string {
		switch do {
		case "follow":
			teacher.Follow(stud2.View().Me)
		case "press":
			stud2.Press(grid.Right)
		default:
			t.Errorf("projector.js asked for %q", do)
		}
		return "done"
	})
	t.Logf("the screenshots are in %s", shots)
}

// teach connects hopper, the teacher of room, to game server g at addr,
// as the server's own teacher; it says Bye when the test ends.
func teach(t *testing.T, g *server.Server, addr, room string) *tcp.Watch {
	t.Helper()
	teacher, err := tcp.ConnectSpectator(context.Background(), addr, tcp.Options{
		Options: client.Options{Name: "hopper", Room: room, Teach: true},
		Dial:    func(ctx context.Context, _ string) (net.Conn, error) { return g.DialTeacher(ctx, server.Own) },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { teacher.Close() })
	return teacher
}
