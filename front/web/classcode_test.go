package web

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"testing"

	"gridlag/client"
	"gridlag/client/tcp"
	"gridlag/server"
	"gridlag/server/admit/admittest"
)

// A class behind one address in a real browser (front/web/e2e/class.js),
// with the server's defaults (32 players and 16 web sessions from one
// address): 40 pages from one address with the teacher's class code all
// join the teacher's room and each moves; the teacher's new code refuses
// the old one ("unknown class code") while the 40 play on; a wrong code is
// refused and the page asks for the code again; the same 40 pages
// without the code are held to the address's 16 sessions, each refused
// page saying why.
func TestBrowserClassCode(t *testing.T) {
	g, addr := startGame(t, server.Options{})
	s := startWeb(t, Options{GameAddr: addr, Dial: g.Dial, ClassCode: g.ClassCode})
	teacher := teacherOf(t, g, addr)
	code := classCodeOf(t, teacher, "")
	players := func() int {
		for _, r := range g.Rooms() {
			if r.Name == "" {
				return r.Stats.Players
			}
		}
		return -1
	}
	runBrowser(t, s, "class.js", []string{"http://" + s.Addr().String(), code}, nil, func(do string) string {
		switch do {
		case "players":
			return strconv.Itoa(players())
		case "new code":
			teacher.NewCode()
			code = classCodeOf(t, teacher, code)
			return code
		}
		t.Fatalf("class.js asks for %q", do)
		return ""
	})
}

// teacherOf connects a teacher of g's default room, from an address of
// its own, as the teacher's screen does.
func teacherOf(t *testing.T, g *server.Server, addr string) *tcp.Watch {
	t.Helper()
	from := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 9)}
	w, err := tcp.ConnectSpectator(context.Background(), addr, tcp.Options{
		Options: client.Options{Name: "hopper", Teach: true},
		Dial:    func(ctx context.Context, _ string) (net.Conn, error) { return g.DialTeacher(ctx, from) },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w
}

// classCodeOf waits until the teacher is told a class code other than
// old, and returns it.
func classCodeOf(t *testing.T, w *tcp.Watch, old string) string {
	t.Helper()
	admittest.Eventually(t, func() bool { c := w.View().ClassCode; return c != "" && c != old },
		func() string {
			return fmt.Sprintf("the teacher was never told a class code (other than %q): %+v", old, w.View().Err)
		})
	return w.View().ClassCode
}
