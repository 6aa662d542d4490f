package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/log"
	"github.com/coder/websocket"

	"gridlag/front/remote"
	"gridlag/front/remote/remotetest"
	"gridlag/server/admit"
	"gridlag/server/admit/admittest"
	"gridlag/tui"
)

// sizeHandler is a session that draws "hello NAME size WxH" and ends at q
// or when its screen fails; seen, if not nil, is told of each player
// (remotetest.Echo).
func sizeHandler(seen chan<- *remote.Player) remote.Handler {
	return remotetest.Echo(seen, func(p *remote.Player, w, h int, _ string) string {
		return fmt.Sprintf("hello %s size %dx%d", p.User, w, h)
	})
}

// A browser plays the same game an SSH player does: it sees its cell,
// (10,10), moves with the arrow keys as a terminal sends them, is told
// its player ID, and q ends the session, which the page is told of.
func TestPlayOverWebSocket(t *testing.T) {
	s, _ := startGameWeb(t, Options{})
	tb := openTab(t, s, dialer{}, "ada", testID(1), "/")
	tb.waitText("you (10,10)", "server (10,10)", Title)
	if j := tb.waitJoined(); j.Player == 0 || j.Name != "ada" || j.Resumed || j.Resume != 30 {
		t.Errorf("joined %+v, want a player ID, ada, not resumed, kept 30 s after a drop", j)
	}
	tb.send("\x1b[C")
	tb.waitText("you (11,10)", "server (11,10)")
	tb.send("q")
	e, code := tb.waitEnd()
	if e.Reason != "" || e.Status != 0 || code != websocket.StatusNormalClosure {
		t.Errorf("after q: end %+v, close %v; want a quit (no reason, status 0) and a normal close", e, code)
	}
}

// A reload (the socket drops, the page comes back with the identity it
// keeps) resumes the same player, where it was, within -resume.
func TestReloadResumesThePlayer(t *testing.T) {
	s, _ := startGameWeb(t, Options{})
	tb := openTab(t, s, dialer{}, "ada", testID(1), "/")
	first := tb.waitJoined()
	tb.waitText("you (10,10)")
	tb.send("\x1b[C")
	tb.waitText("server (11,10)")
	tb.c.CloseNow() // the page goes, without a word

	again := openTab(t, s, dialer{}, "ada", testID(1), "/")
	back := again.waitJoined()
	if back.Player != first.Player || !back.Resumed {
		t.Errorf("after the reload: %+v, want player %d resumed", back, first.Player)
	}
	again.waitText("you (11,10)")

	// Another browser (another identity) is another player.
	other := openTab(t, s, dialer{}, "bob", testID(2), "/")
	if j := other.waitJoined(); j.Player == first.Player || j.Resumed {
		t.Errorf("another browser: %+v, want a new player", j)
	}
}

// The same browser in a second window takes the avatar over: the first
// window is told why it ended, and does not come back by itself.
func TestSecondWindowTakesTheAvatarOver(t *testing.T) {
	s, _ := startGameWeb(t, Options{})
	one := openTab(t, s, dialer{}, "ada", testID(1), "/")
	first := one.waitJoined()
	two := openTab(t, s, dialer{}, "ada", testID(1), "/")
	if e, _ := one.waitEnd(); e.Reason != "playing in another window" || e.Status != 1 {
		t.Errorf("first window: end %+v, want playing in another window", e)
	}
	if j := two.waitJoined(); j.Player != first.Player || !j.Resumed {
		t.Errorf("second window: %+v, want player %d resumed", j, first.Player)
	}
}

// Only the game's own page opens a socket: a foreign Origin is refused
// with 403 before anything is upgraded, and so is a socket without one.
func TestForeignOriginIsRefused(t *testing.T) {
	s := startWeb(t, Options{Handler: sizeHandler(nil)})
	for _, origin := range []string{"http://evil.example", "-", "null", "http://" + s.Addr().String() + ".evil.example", "file://" + s.Addr().String()} {
		ctx, cancel := context.WithTimeout(context.Background(), waitLong)
		c, resp, err := dialer{origin: origin}.dial(ctx, s)
		cancel()
		if err == nil {
			c.CloseNow()
			t.Errorf("Origin %q: the socket opened", origin)
			continue
		}
		if resp == nil || resp.StatusCode != http.StatusForbidden {
			t.Errorf("Origin %q: %v, want 403", origin, err)
		}
	}
	openTab(t, s, dialer{}, "ada", testID(1), "/").waitText("hello ada")
	// Behind a trusted proxy the page's origin is the host it forwarded,
	// a name the server is reached by.
	p := startWeb(t, Options{Handler: sizeHandler(nil), TrustedProxies: mustProxies(t, "127.0.0.1"), Hosts: []string{"game.example"}})
	fwd := dialer{origin: "https://game.example", headers: http.Header{"X-Forwarded-Host": {"game.example"}, "X-Forwarded-For": {"198.51.100.4"}}}
	openTab(t, p, fwd, "ada", testID(1), "/").waitText("hello ada")
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	if c, _, err := (dialer{origin: "https://game.example", headers: http.Header{"X-Forwarded-Host": {"game.example"}}}).dial(ctx, s); err == nil {
		c.CloseNow()
		t.Error("X-Forwarded-Host from an untrusted address opened a socket")
	}
}

func mustProxies(t testing.TB, s string) []netip.Prefix {
	t.Helper()
	ps, err := ParseProxies(s)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// 100 sockets from one address get -web-per-addr sessions, as SSH
// connections do -ssh-per-addr: the others are refused, saying why (the
// cap, or, past the default -web-attempts-burst of 60, the rate of new
// ones), or, past the connections' cap, closed at once; and a player
// from another address still plays.
func TestHundredSocketsFromOneAddressAreCapped(t *testing.T) {
	const perAddr = 16
	s := startWeb(t, Options{Handler: sizeHandler(nil), MaxPerAddr: perAddr})
	var (
		mu                             sync.Mutex
		playing, refused, closedAtOnce int
		wg                             sync.WaitGroup
	)
	for i := range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), waitLong)
			defer cancel()
			c, resp, err := dialer{from: "127.0.0.1"}.dial(ctx, s)
			if err != nil {
				mu.Lock()
				defer mu.Unlock()
				if resp != nil {
					t.Errorf("socket %d: %v", i, err) // an answer, not a closed connection
				}
				closedAtOnce++
				return
			}
			t.Cleanup(func() { c.CloseNow() })
			b, _ := json.Marshal(hello{Name: "ada", ID: testID(i), Path: "/", Cols: 80, Rows: 24})
			c.Write(ctx, websocket.MessageText, b)
			for {
				typ, data, err := c.Read(ctx)
				if err != nil {
					t.Errorf("socket %d: %v", i, err)
					return
				}
				mu.Lock()
				switch {
				case typ == websocket.MessageBinary && strings.Contains(string(data), "hello ada"):
					playing++
				case typ == websocket.MessageText && (strings.Contains(string(data), fmt.Sprintf("too many sessions from your address (%d)", perAddr)) ||
					strings.Contains(string(data), "too many new connections from your address")):
					refused++
				default:
					mu.Unlock()
					continue
				}
				mu.Unlock()
				return
			}
		}()
	}
	wg.Wait()
	t.Logf("100 sockets from one address: %d play, %d refused with the reason, %d closed at once (over the connections' cap)", playing, refused, closedAtOnce)
	if playing != perAddr || refused+closedAtOnce != 100-perAddr {
		t.Errorf("%d play, %d refused, %d closed at once; want %d, and the rest refused", playing, refused, closedAtOnce, perAddr)
	}
	if all, mine := s.sessions.Held("127.0.0.1"); all != perAddr || mine != perAddr {
		t.Errorf("sessions held: %d, %d from the address; want %d", all, mine, perAddr)
	}
	openTab(t, s, dialer{from: "127.0.0.2"}, "bob", testID(200), "/").waitText("hello bob")
}

// A player who presses no key for -web-idle is disconnected, and told
// why, as over SSH. The idle time counts from the session's start, on the
// real clock: 5 s, so that a busy machine shows the game well before it
// (at 300 ms, six busy loops on one core cut the session first).
func TestIdleSessionEndsWithAReason(t *testing.T) {
	const idle = 5 * time.Second
	s, _ := startGameWeb(t, Options{IdleTimeout: idle})
	start := time.Now()
	tb := openTab(t, s, dialer{}, "ada", testID(1), "/")
	tb.waitText("you (10,10)")
	e, code := tb.waitEnd()
	if took := time.Since(start); took < idle {
		t.Errorf("ended after %s, before the idle time %s", took, idle)
	}
	if want := "disconnected after 5s without a key press"; e.Reason != want || e.Status != 1 || code != websocket.StatusNormalClosure {
		t.Errorf("end %+v, close %v; want %q, status 1, a normal close", e, code, want)
	}
}

// A socket that says nothing is told, at the handshake time, that it said
// nothing, and closed.
func TestSilentSocketIsClosedAtTheHandshakeTime(t *testing.T) {
	const hs = 300 * time.Millisecond
	s := startWeb(t, Options{Handler: sizeHandler(nil), HandshakeTimeout: hs})
	start := time.Now()
	tb := connectTab(t, s, dialer{})
	e, _ := tb.waitEnd()
	if took := time.Since(start); took < hs {
		t.Errorf("closed after %s, before the handshake time %s", took, hs)
	}
	if want := "no hello within 300ms of connecting"; e.Reason != want {
		t.Errorf("end %+v, want %q", e, want)
	}
}

// The server takes only what the page sends: a hello first (a valid
// name, a 32-digit identity, a page's address, a size), then input and
// sizes, within the size and rate allowed. Anything else ends the
// session with a reason.
func TestOnlyWhatThePageSendsIsTaken(t *testing.T) {
	s := startWeb(t, Options{Handler: sizeHandler(nil), MaxMessage: 512, MessageRate: 50})
	good := hello{Name: "ada", ID: testID(1), Path: "/", Cols: 80, Rows: 24}
	for _, c := range []struct {
		name  string
		first func(tb *tab)
		want  string
		code  websocket.StatusCode
		badID bool
	}{
		{"input before the hello", func(tb *tab) { tb.send("x") }, "the first message is not the page's hello", websocket.StatusPolicyViolation, false},
		{"not JSON", func(tb *tab) { tb.c.Write(context.Background(), websocket.MessageText, []byte("hi")) }, "the page's hello: invalid character", websocket.StatusPolicyViolation, false},
		{"a field the page has not", func(tb *tab) {
			tb.c.Write(context.Background(), websocket.MessageText, []byte(`{"name":"ada","id":"`+testID(1)+`","path":"/","cols":80,"rows":24,"admin":true}`))
		}, `unknown field "admin"`, websocket.StatusPolicyViolation, false},
		{"a short identity", func(tb *tab) { h := good; h.ID = "abc"; tb.sendJSON(h) }, "the identity is not 32 hex digits", websocket.StatusPolicyViolation, false},
		{"no size", func(tb *tab) { h := good; h.Cols = 0; tb.sendJSON(h) }, "a terminal of 0x24", websocket.StatusPolicyViolation, false},
		{"no such page", func(tb *tab) { h := good; h.Path = "/admin"; tb.sendJSON(h) }, "no such page", websocket.StatusPolicyViolation, false},
		{"a bot's name", func(tb *tab) { h := good; h.Name = "bot-1"; tb.sendJSON(h) }, `name "bot-1"`, websocket.StatusNormalClosure, true},
		{"an empty name", func(tb *tab) { h := good; h.Name = ""; tb.sendJSON(h) }, `name ""`, websocket.StatusNormalClosure, true},
		{"a message the page never sends", func(tb *tab) {
			tb.sendJSON(good)
			tb.waitText("hello ada")
			tb.sendJSON(map[string]any{"cols": 80, "rows": 24, "eval": "x"})
		}, "the page sent a message it never sends", websocket.StatusPolicyViolation, false},
		{"too many messages", func(tb *tab) {
			tb.sendJSON(good)
			tb.waitText("hello ada")
			for range 200 {
				if tb.c.Write(context.Background(), websocket.MessageBinary, []byte("x")) != nil {
					return
				}
			}
		}, "the page sent more than 50 messages a second", websocket.StatusPolicyViolation, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := connectTab(t, s, dialer{})
			c.first(tb)
			e, code := tb.waitEnd()
			if !strings.Contains(e.Reason, c.want) || e.Status != 1 || e.Name != c.badID || code != c.code {
				t.Errorf("end %+v, close %v; want %q, status 1, name %v, close %v", e, code, c.want, c.badID, c.code)
			}
		})
	}
	t.Run("a message too big", func(t *testing.T) {
		tb := connectTab(t, s, dialer{})
		tb.sendJSON(good)
		tb.waitText("hello ada")
		tb.send(strings.Repeat("x", 513))
		if code := tb.waitClosed(); code != websocket.StatusMessageTooBig {
			t.Errorf("close %v, want %v", code, websocket.StatusMessageTooBig)
		}
	})
}

// The page's sizes resize the screen, clamped and centred as an SSH
// window is: a terminal larger than the interface can use shows the
// largest screen in its middle. A flood of sizes is applied as an SSH
// flood of window changes is: a burst, then at remote.WindowChanges, the
// latest last.
func TestSizesResizeTheScreen(t *testing.T) {
	s := startWeb(t, Options{Handler: sizeHandler(nil)})
	tb := openTab(t, s, dialer{}, "ada", testID(1), "/")
	tb.waitText("hello ada size 100x40")
	tb.resize(120, 50)
	tb.waitText("size 120x50")

	cols, rows := tui.MaxWidth+40, tui.MaxHeight+10
	tb.resize(cols, rows)
	screen := tb.waitText(fmt.Sprintf("size %dx%d", tui.MaxWidth, tui.MaxHeight))
	if line := strings.Split(screen, "\n")[5]; !strings.HasPrefix(line, strings.Repeat(" ", 20)+"hello ada") {
		t.Errorf("a screen clamped on a %dx%d terminal is not centred: its line 6 is %q", cols, rows, line)
	}
	if n := s.resizes.Load(); n != 2 {
		t.Errorf("%d resizes, want 2", n)
	}
	tb.sendJSON(size{Cols: cols + 1, Rows: rows}) // the same screen, the same margins
	tb.sendJSON(size{Cols: 99999, Rows: 1})       // not a size the page sends
	if code := tb.waitClosed(); code != websocket.StatusPolicyViolation {
		t.Fatalf("close %v after a size over %d, want %v", code, maxTermSide, websocket.StatusPolicyViolation)
	}
	if n := s.resizes.Load(); n != 2 {
		t.Errorf("a size that leaves the screen as it is resized it: %d resizes, want 2", n)
	}

	tb = openTab(t, s, dialer{}, "ada", testID(1), "/")
	tb.waitText("hello ada size 100x40")
	before := s.resizes.Load()
	tb.vt.Resize(100, 30)
	start := time.Now()
	tick := time.NewTicker(20 * time.Millisecond) // faster than frames, slower than the page's message rate
	defer tick.Stop()
	for i := range 40 {
		tb.sendJSON(size{Cols: 61 + i%2*39, Rows: 30 - i%2*5}) // 61x30, 100x25, ...
		<-tick.C
	}
	tb.resize(100, 30)
	tb.waitText("size 100x30")
	took := time.Since(start)
	w := remote.WindowChanges
	applied := s.resizes.Load() - before
	if limit := uint64(w.Burst) + uint64(took/w.Every) + 1; applied > limit {
		t.Errorf("a flood of 41 sizes over %s resized the screen %d times, want at most %d", took, applied, limit)
	}
}

// Behind a trusted reverse proxy a player counts as the address the proxy
// forwarded; from anywhere else, as its connection's, whatever its
// headers claim.
func TestClientAddressFromATrustedProxyOnly(t *testing.T) {
	seen := make(chan *remote.Player, 1)
	for _, c := range []struct {
		name    string
		trusted string
		xff     string
		want    string
	}{
		{"untrusted", "", "203.0.113.9", "127.0.0.1"},
		{"trusted proxy", "127.0.0.1", "203.0.113.9", "203.0.113.9"},
		{"a chain of trusted proxies", "127.0.0.1,10.0.0.0/8", "203.0.113.9, 10.1.2.3", "203.0.113.9"},
		{"a client's own header before the proxy's", "127.0.0.1", "192.0.2.1, 203.0.113.9", "203.0.113.9"},
		{"garbage", "127.0.0.1", "203.0.113.9, not-an-ip", "127.0.0.1"},
		{"no header", "127.0.0.1", "", "127.0.0.1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := startWeb(t, Options{Handler: sizeHandler(seen), TrustedProxies: mustProxies(t, c.trusted)})
			d := dialer{headers: http.Header{}}
			if c.xff != "" {
				d.headers.Set("X-Forwarded-For", c.xff)
			}
			openTab(t, s, d, "ada", testID(1), "/")
			p := <-seen
			if got := admit.Host(p.RemoteAddr); got != c.want {
				t.Errorf("the player counts as %s, want %s", got, c.want)
			}
		})
	}
}

// The page's address picks the session: /spectate watches the game.
func TestSpectatePageWatches(t *testing.T) {
	s, _ := startGameWeb(t, Options{})
	player := openTab(t, s, dialer{}, "ada", testID(1), "/")
	player.waitText("you (10,10)")
	tb := openTab(t, s, dialer{}, "teacher", testID(2), "/spectate")
	tb.waitText("spectating", "ada")
}

// Closing the server tells every player it stopped, status 0, as SSH
// players are told.
func TestCloseTellsThePlayers(t *testing.T) {
	s, _ := startGameWeb(t, Options{})
	tb := openTab(t, s, dialer{}, "ada", testID(1), "/")
	tb.waitText("you (10,10)")
	closed := make(chan struct{})
	go func() {
		defer close(closed)
		s.Close()
	}()
	if e, _ := tb.waitEnd(); e.Reason != "server stopped" || e.Status != 0 {
		t.Errorf("end %+v, want server stopped, status 0", e)
	}
	<-closed
}

// A session that will not end does not hold Close
// (remotetest.CloseLeavesTheStuckBehind): the honest page beside it is
// told the server stopped.
func TestCloseStopsWaitingForAStuckSession(t *testing.T) {
	remotetest.CloseLeavesTheStuckBehind(t, func(logger *log.Logger, stuck *remotetest.Stuck) remotetest.StuckFront {
		s := startWeb(t, Options{Logger: logger, Handler: stuck.Or(sizeHandler(nil))})
		tb := openTab(t, s, dialer{}, "ada", testID(1), "/")
		tb.waitText("hello ada")
		openTab(t, s, dialer{}, "stuck", testID(2), "/")
		return remotetest.StuckFront{Close: s.Close, Hurry: s.Hurry, Abandoned: func() uint64 { return s.Stats().Abandoned },
			Told: func() {
				if e, _ := tb.waitEnd(); e.Reason != "server stopped" {
					t.Errorf("the honest page's end %+v, want server stopped", e)
				}
			}}
	})
}

// A session's lines are summarised by address, as over SSH: five
// sessions from one address, each started and quit, write one start
// line and one end line, the others counted for the summary.
func TestSessionLinesSummarisedByAddress(t *testing.T) {
	var lb admittest.Log
	s := startWeb(t, Options{Handler: sizeHandler(nil), Logger: log.New(&lb)})
	for i := range 5 {
		tb := openTab(t, s, dialer{}, fmt.Sprintf("mob%d", i), testID(i+1), "/")
		tb.waitText("hello mob")
		tb.send("q")
		tb.waitEnd()
	}
	for _, msg := range []string{"web session start", "web session end"} {
		if n := lb.Count(msg, "remote=127.0.0.1:"); n != 1 {
			t.Errorf("%d %q lines from 127.0.0.1, want 1", n, msg)
		}
	}
}

// A session that ends while the server's keepalive ping to its page is
// on its way (being written, or waiting for its answer: a slow link) still
// tells the page why it ended before the socket closes: the ping's write
// is not the session's to cancel (coder/websocket closes a socket under
// a write whose context ends). Each session here ends the moment its
// first ping goes.
func TestSessionEndingDuringAPingTellsWhy(t *testing.T) {
	const sessions = 8
	var s *Server
	pinging := func(identity string) bool { // a ping to the player's page is on its way
		s.mu.Lock()
		defer s.mu.Unlock()
		so := s.players[identity]
		return so != nil && so.pinged.Load() != 0
	}
	handler := func(ctx context.Context, p *remote.Player) error {
		for !pinging(p.Fingerprint) && ctx.Err() == nil {
			time.Sleep(100 * time.Microsecond) // a poll for the ping, not a timing
		}
		return errors.New("the lesson is over")
	}
	// A ping every 100 ms (a sixth of the stall time).
	s = startWeb(t, Options{Handler: handler, StallTimeout: 600 * time.Millisecond})
	for i := range sessions {
		tb := openTab(t, s, dialer{}, "ada", testID(100+i), "/")
		if e, code := tb.waitEnd(); !strings.Contains(e.Reason, "the lesson is over") || code != websocket.StatusNormalClosure {
			t.Errorf("session %d: end %+v, close %v; want the reason and a normal close", i, e, code)
		}
	}
}
