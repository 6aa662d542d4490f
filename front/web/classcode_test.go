package web

import (
	"context"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
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
//
// The class of 40 at the server's defaults is `make class`
// (GRIDLAG_CLASS=full): a minute or more of 80 browsers on a small
// machine. Under `make test` the same runs with a class of 5 past an
// address's 2 web sessions.
func TestBrowserClassCode(t *testing.T) {
	t.Parallel() // a browser mostly waited on; the heap-measuring tests run before, alone
	size, perAddr := classSize()
	g, addr := startGame(t, server.Options{})
	s := startWeb(t, Options{GameAddr: addr, Dial: g.Dial, ClassCode: g.ClassCode, MaxPerAddr: perAddr})
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
	env := []string{"CLASS_SIZE=" + strconv.Itoa(size), "PER_ADDR=" + strconv.Itoa(s.opts.MaxPerAddr)}
	runBrowser(t, s, "class.js", []string{"http://" + s.Addr().String(), code}, env, func(do string) string {
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

// TestClassCodeSessions: with the front end's and the game's defaults (16
// sessions and 64 connections, 32 players from one address; under make
// test 2 sessions and a class of 5, see classSize), an address holding
// its 16 sessions is refused a 17th (close 1013, saying why), and yet 40
// more sockets from it that present the teacher's class code all play, in the teacher's room whatever room they ask for, their
// upgraded sockets counted in their sessions' cap and not in the
// address's connections; a wrong code is refused by the game server,
// "unknown class code" (from another address: from this one it takes
// the address's session, which it has not), and a string that is no
// code at once (1008).
func TestClassCodeSessions(t *testing.T) {
	size, perAddr := classSize()
	g, addr := startGame(t, server.Options{})
	s := startWeb(t, Options{GameAddr: addr, Dial: g.Dial, ClassCode: g.ClassCode, MaxPerAddr: perAddr})
	perAddr = s.opts.MaxPerAddr
	code := classCodeOf(t, teacherOf(t, g, addr), "")
	for i := range perAddr {
		openTab(t, s, dialer{}, fmt.Sprintf("n%02d", i+1), testID(200+i), "/").waitJoined()
	}
	e, status := openTab(t, s, dialer{}, "n-past", testID(300), "/").waitEnd()
	if want := fmt.Sprintf("too many sessions from your address (%d): close one and try again", perAddr); status != closeTryLater || e.Reason != want {
		t.Errorf("one past the address's %d without the code: %+v, close %d; want the address's cap, 1013", perAddr, e, status)
	}
	for i := range size {
		openTab(t, s, dialer{code: code}, fmt.Sprintf("s%02d", i+1), testID(100+i), "/room/elsewhere").waitJoined()
	}
	admittest.Eventually(t, func() bool {
		for _, r := range g.Rooms() {
			if r.Name == "" && r.Stats.Players == perAddr+size {
				return true
			}
		}
		return false
	}, func() string {
		return fmt.Sprintf("the teacher's room never had the %d and the class of %d: %+v", perAddr, size, g.Rooms())
	})
	e, _ = openTab(t, s, dialer{from: "127.0.0.2", code: "class-ZZZZZZ"}, "guess", testID(301), "/").waitEnd()
	if !strings.HasPrefix(e.Reason, "unknown class code") {
		t.Errorf("a wrong code: %+v, want unknown class code", e)
	}
	e, status = openTab(t, s, dialer{code: "3b K7"}, "bad", testID(302), "/").waitEnd()
	if status != closePolicy || !strings.Contains(e.Reason, "not a class code") {
		t.Errorf("no code at all: %+v, close %d; want a policy refusal", e, status)
	}
}

// classSize is the class a class-code test runs and the web sessions an
// address may hold meanwhile: 40 at the server's defaults (0: its
// default) with GRIDLAG_CLASS=full (`make class`), or 5 past 2 a test
// run can afford under -race on a small machine.
func classSize() (size, perAddr int) {
	if os.Getenv("GRIDLAG_CLASS") == "full" {
		return 40, 0
	}
	return 5, 2
}
