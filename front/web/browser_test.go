package web

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"gridlag/internal/perception"
	"gridlag/server"
	"gridlag/server/admit/admittest"
)

// chromium is Debian's chromium, which the end-to-end test drives.
const chromium = "/usr/bin/chromium"

// The page in a real browser: headless Chromium, driven by
// playwright-core (front/web/e2e/play.js), loads the page, chooses a name,
// sees the game at (10,10), moves to (11,10) with ArrowRight, sets the
// latency with a click on the slider, sees the board laid out anew when
// the window shrinks, and comes back as the same player after a reload;
// the page reports no error, its Content-Security-Policy included. The
// same page on a name the server does not answer to (evil.example,
// pointed at it) says why it cannot play.
func TestBrowserPlays(t *testing.T) {
	t.Parallel() // a browser mostly waited on; the heap-measuring tests run before, alone
	s, _ := startGameWeb(t, Options{})
	runBrowser(t, s, "play.js", []string{"http://" + s.Addr().String()}, nil, func(do string) string {
		if do == "cut" { // the script asks for the connection to drop
			s.cutSessions()
			return "done"
		}
		t.Fatalf("play.js asks for %q", do)
		return ""
	})
}

// The page's second part (issue 34) in a real browser
// (front/web/e2e/web2.js): a page refused for a cap (close 1013) says why
// and makes no attempt before the wait the server asked, then joins by
// itself once there is room; a server that stops (1001) is said to have
// gone away; a page refused for a policy (1008, a flood) says why and
// never tries again; a name with markup comes back as text; a frozen tab
// holds at most 64 KB in flight at the server and shows the present once
// it resumes; a socket the network drops silently is said to be lost
// after the keepalive time, and the server ends its session; on a
// 390x844 touch screen the whole board shows and the touch controls play.
func TestBrowserWebII(t *testing.T) {
	t.Parallel() // a browser mostly waited on; the heap-measuring tests run before, alone
	const retry, keepalive = 3 * time.Second, 3 * time.Second
	// A window of 4 KB, which bob's steps fill while the tab is frozen
	// (the default, 32 KB, is a frame or two of a large screen).
	playS, _ := startGameWeb(t, Options{FlowWindow: 4 << 10})
	refuseS, _ := startGameWeb(t, Options{MaxPerAddr: 1, RetryAfter: retry})
	floodS, _ := startGameWeb(t, Options{MessageRate: 5})
	deadS, _ := startGameWeb(t, Options{StallTimeout: keepalive})
	proxy := newBlackhole(t, deadS.Addr().String())
	var holed time.Time
	var held *tab
	env := []string{fmt.Sprintf("RETRY=%d", int(retry/time.Second)), fmt.Sprintf("KEEPALIVE=%d", int(keepalive/time.Second))}
	args := []string{"http://" + playS.Addr().String(), "http://" + refuseS.Addr().String(), "http://" + floodS.Addr().String(), "http://" + proxy.addr}
	runBrowser(t, playS, "web2.js", args, env, func(do string) string {
		switch do {
		case "hold": // a session from the address, which its cap allows alone
			held = openTab(t, refuseS, dialer{}, "ada", testID(76), "/")
			held.waitJoined()
			return "done"
		case "release":
			held.send("q")
			held.waitEnd()
			return "done"
		case "close-refuse":
			go refuseS.Close()
			return "done"
		case "bob":
			// bob joins and walks, so that the frozen tab's screen
			// changes more than its window holds.
			tb := openTab(t, playS, dialer{}, "bob", testID(77), "/")
			tb.waitJoined()
			steps, skipped := 0, playS.Stats().Skipped
			for ; steps < 400 && playS.Stats().Skipped < skipped+5; steps++ {
				tb.send([]string{"\x1b[C", "\x1b[D"}[steps%2])
				time.Sleep(15 * time.Millisecond) // within the page's allowance of messages, not a timing
			}
			return fmt.Sprintf("bob joined and took %d steps", steps)
		case "stats":
			b, _ := json.Marshal(playS.Stats())
			return string(b)
		case "blackhole":
			holed = time.Now()
			proxy.hole()
			return "done"
		case "dead-session-gone":
			admittest.Eventually(t, func() bool { return deadS.Stats().Sessions == 0 }, func() string { return "the server never ended the session of a socket that answers nothing" })
			return fmt.Sprintf("%.1f", time.Since(holed).Seconds())
		}
		t.Fatalf("web2.js asks for %q", do)
		return ""
	})
}

// runBrowser runs the e2e script with args (and env) in node, its
// lines logged; a line "do WHAT" is answered with do(WHAT). It skips
// without node, chromium or playwright-core, or a page built into s.
func runBrowser(t *testing.T, s *Server, script string, args, env []string, do func(string) string) {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a browser")
	}
	node, err := exec.LookPath("node")
	switch {
	case err != nil:
		t.Skip("node is not installed (.ci/run installs Node.js)")
	case !fileExists(chromium):
		t.Skip(chromium + " is not installed (.ci/run installs Debian's chromium)")
	case !fileExists(filepath.Join("e2e", "node_modules", "playwright-core", "package.json")):
		t.Skip("playwright-core is not installed in front/web/e2e (.ci/run runs npm ci there)")
	case !s.page.built:
		t.Fatal("the web page is not built into this test binary: its bundle is committed in front/web/dist")
	}
	// A hang guard, not a speed bound: a script of many pages on a
	// busy machine takes minutes.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, append([]string{script}, args...)...)
	cmd.Dir = "e2e"
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = admittest.Writer(t)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		t.Logf("%s: %s", script, sc.Text())
		if what, ok := strings.CutPrefix(sc.Text(), "do "); ok {
			io.WriteString(stdin, do(what)+"\n")
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%s: %v", script, err)
	}
}

// blackhole is a TCP proxy to a server that, once holed, passes nothing
// either way and closes nothing: a NAT or a proxy that dropped the
// connection silently.
type blackhole struct {
	addr  string
	holed atomic.Bool
}

func newBlackhole(t *testing.T, to string) *blackhole {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	b := &blackhole{addr: ln.Addr().String()}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var conns []net.Conn
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	pass := func(dst, src net.Conn) {
		defer wg.Done()
		buf := make([]byte, 32<<10)
		for {
			n, err := src.Read(buf)
			if n > 0 && !b.holed.Load() {
				dst.Write(buf[:n])
			}
			if err != nil {
				return
			}
		}
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", to)
			if err != nil {
				c.Close()
				continue
			}
			mu.Lock()
			conns = append(conns, c, up)
			mu.Unlock()
			wg.Add(2)
			go pass(up, c)
			go pass(c, up)
		}
	}()
	return b
}

func (b *blackhole) hole() { b.holed.Store(true) }

// cutSessions closes every session's socket under it, as a network that
// drops does.
func (s *Server) cutSessions() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for so := range s.live {
		so.cut()
	}
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// The perception test's rounds on the page (issue 35), in a real
// browser (front/web/e2e/perceive.js): a teacher's room 3b, its run
// started from here through the teacher's connection; ada on a phone
// sees each round's question and no round trip, answers laggy with a tap
// on the touch controls, fine with a click on the terminal's button,
// laggy with the y key; the CSV the server saved has exactly those
// answers, in the order of the rounds.
func TestBrowserPerception(t *testing.T) {
	t.Parallel() // a browser mostly waited on; the heap-measuring tests run before, alone
	dir := t.TempDir()
	g, addr := startGame(t, server.Options{PerceptionDir: dir})
	s := startWeb(t, Options{GameAddr: addr, Dial: g.Dial})
	teacher := teach(t, g, addr, "3b")
	settings, err := perception.ParseSettings("levels=0,300 repeats=1 controls=1 play=2s answer=60s")
	if err != nil {
		t.Fatal(err)
	}
	runBrowser(t, s, "perceive.js", []string{"http://" + s.Addr().String()}, nil, func(do string) string {
		if do != "start" {
			t.Fatalf("perceive.js asks for %q", do)
		}
		if err := teacher.Perceive(&settings); err != nil {
			t.Fatal(err)
		}
		return "done"
	})
	var files []string
	admittest.Eventually(t, func() bool {
		files, _ = filepath.Glob(filepath.Join(dir, "perception-3b-*.csv"))
		return len(files) == 1
	}, func() string { return fmt.Sprintf("no CSV of room 3b in %s: %v", dir, files) })
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(strings.NewReader(string(data))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"laggy", "fine", "laggy"} // a tap, a click, a key
	if len(rows) != 1+len(want) || !slices.Equal(rows[0], perception.CSVHeader) {
		t.Fatalf("the CSV:\n%s\nwant the header and %d rows of ada", data, len(want))
	}
	for i, row := range rows[1:] {
		if row[1] != fmt.Sprint(i+1) || row[3] != "ada" || row[6] != want[i] {
			t.Errorf("row %d of the CSV %q: want round %d, ada, %s", i+1, row, i+1, want[i])
		}
	}
	t.Logf("the CSV the server saved:\n%s", data)
}
