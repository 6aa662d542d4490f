package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"gridlag/server/admit/admittest"
)

// webNotice is what the page is told besides the screen (web's notice).
type webNotice struct {
	Joined *struct {
		Player int `json:"player"`
	} `json:"joined"`
	End *struct {
		Reason string `json:"reason"`
	} `json:"end"`
}

// webPlay opens the page's WebSocket at addr from the loopback address
// from, says hello as the page does, and returns the first notice: who
// the player is, or why the session ended.
func webPlay(t *testing.T, addr, from, name string) webNotice {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	nd := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
	c, _, err := websocket.Dial(ctx, "ws://"+addr+"/ws", &websocket.DialOptions{
		HTTPHeader: http.Header{"Origin": {"http://" + addr}},
		HTTPClient: &http.Client{Transport: &http.Transport{DialContext: nd.DialContext}},
	})
	if err != nil {
		t.Fatalf("websocket from %s: %v", from, err)
	}
	t.Cleanup(func() { c.CloseNow() })
	id := sha256.Sum256([]byte(name)) // one browser a name
	hello := `{"name":"` + name + `","id":"` + hex.EncodeToString(id[:16]) + `","path":"/","cols":100,"rows":40}`
	if err := c.Write(ctx, websocket.MessageText, []byte(hello)); err != nil {
		t.Fatal(err)
	}
	for {
		typ, data, err := c.Read(ctx)
		if err != nil {
			t.Fatalf("websocket from %s: %v", from, err)
		}
		var n webNotice
		if typ == websocket.MessageText && json.Unmarshal(data, &n) == nil && (n.Joined != nil || n.End != nil) {
			return n
		}
	}
}

// TestWebPlayersCountAsTheirAddresses: gridlag -server -web serves the
// page and runs each browser's session in the game, through the server
// itself: a web player counts against -max-players-per-addr as its own
// address, not the loopback one every session would share, and the
// start line names the web address and its settings.
func TestWebPlayersCountAsTheirAddresses(t *testing.T) {
	f := parseGame(t, "-server", "-addr", "", "-web", "127.0.0.1:0", "-web-idle", "1m", "-max-players-per-addr", "1", "-summary", "0", "-drain", "0s")
	logs := &admittest.Log{}
	g, err := startGame(f, logs, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	admittest.Eventually(t, func() bool { return g.Web().Addr() != nil }, // Serve has begun
		func() string { return "the web front end never served" })
	addr := g.Web().Addr().String()
	if start := logs.String(); !strings.Contains(start, "web="+addr) || !strings.Contains(start, "web-idle=1m0s") {
		t.Errorf("the start line does not name the web address and -web-idle:\n%s", start)
	}
	code, body, err := probe("http://" + addr + "/")
	if err != nil || (code != http.StatusOK && code != http.StatusServiceUnavailable) || !strings.Contains(body, "gridlag") {
		t.Fatalf("GET /: %d %v\n%s", code, err, body)
	}

	if n := webPlay(t, addr, "127.0.0.2", "ada"); n.Joined == nil {
		t.Fatalf("ada from 127.0.0.2: %+v, want to play", n)
	}
	if n := webPlay(t, addr, "127.0.0.3", "bob"); n.Joined == nil {
		t.Fatalf("bob from 127.0.0.3: %+v, want to play: another address", n)
	}
	n := webPlay(t, addr, "127.0.0.2", "eve")
	if n.End == nil || !strings.Contains(n.End.Reason, "too many players from your address") {
		t.Errorf("eve, ada's second from 127.0.0.2: %+v, want refused by -max-players-per-addr 1", n)
	}
}

// TestWebFlags: -addr "" needs a front end, -web one among them; -web is
// a server's, not -connect's; a busy
// -web address stops the start, naming the flag; -web-trusted-proxy takes
// addresses and networks only, -web-host names and addresses without
// ports, -web-stall a second or more.
func TestWebFlags(t *testing.T) {
	if err := run([]string{"-server", "-addr", ""}, io.Discard); err == nil || !strings.Contains(err.Error(), `-addr "" needs -ssh or -web`) {
		t.Errorf("-addr \"\" alone: %v", err)
	}
	parseGame(t, "-server", "-addr", "", "-web", ":0", "-web-trusted-proxy", "127.0.0.1, 10.0.0.0/8,::1")
	if err := run([]string{"-server", "-web", ":0", "-web-trusted-proxy", "proxy.example"}, io.Discard); err == nil || !strings.Contains(err.Error(), "-web-trusted-proxy") {
		t.Errorf("-web-trusted-proxy proxy.example: %v", err)
	}
	if f := parseGame(t, "-server", "-web", ":0", "-web-host", "Game.Example, 203.0.113.7", "-web-stall", "10s"); strings.Join(f.Web.Hosts, " ") != "game.example 203.0.113.7" || f.Web.StallTimeout != 10*time.Second {
		t.Errorf("-web-host Game.Example, 203.0.113.7 -web-stall 10s: %q, %v", f.Web.Hosts, f.Web.StallTimeout)
	}
	if err := run([]string{"-server", "-web", ":0", "-web-host", "game.example:443"}, io.Discard); err == nil || !strings.Contains(err.Error(), "-web-host") || !strings.Contains(err.Error(), "without a port") {
		t.Errorf("-web-host game.example:443: %v", err)
	}
	if err := run([]string{"-server", "-web", ":0", "-web-stall", "10ms"}, io.Discard); err == nil || !strings.Contains(err.Error(), "-web-stall") {
		t.Errorf("-web-stall 10ms: %v", err)
	}
	if err := run([]string{"-connect", "127.0.0.1:1", "-web", ":0"}, io.Discard); err == nil || !strings.Contains(err.Error(), "-web serves a server's players") {
		t.Errorf("-connect with -web: %v", err)
	}
	if err := run([]string{"-server", "-web", ":0", "-web-message", "100"}, io.Discard); err == nil || !strings.Contains(err.Error(), "-web-message 100: out of range (512 to 1048576)") {
		t.Errorf("-web-message 100: %v", err)
	}
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	f := parseGame(t, "-server", "-web", busy.Addr().String())
	if _, err := startGame(f, io.Discard, nil); err == nil || !strings.HasPrefix(err.Error(), "-web "+busy.Addr().String()+": ") {
		t.Errorf("startGame with a busy -web: %v", err)
	}
}

// go install with no npm anywhere on PATH (only go's own directory)
// builds a binary whose -web serves the page that plays: its bundle is
// committed (front/web/dist), not built at install time. Chromium plays
// on it (front/web/e2e/smoke.js): a name, the game, ArrowRight moves.
func TestGoInstallServesThePage(t *testing.T) {
	t.Parallel() // the binary in a process of its own, mostly waited on: see TestMain
	if testing.Short() {
		t.Skip("end-to-end")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH")
	}
	node, err := exec.LookPath("node")
	e2e := filepath.Join("..", "..", "front", "web", "e2e")
	switch {
	case err != nil:
		t.Skip("node is not installed (.ci/run installs Node.js)")
	case !fileExistsAt("/usr/bin/chromium"):
		t.Skip("/usr/bin/chromium is not installed (.ci/run installs Debian's chromium)")
	case !fileExistsAt(filepath.Join(e2e, "node_modules", "playwright-core", "package.json")):
		t.Skip("playwright-core is not installed in front/web/e2e (.ci/run runs npm ci there)")
	}
	goDir, _ := filepath.EvalSymlinks(filepath.Dir(goBin))
	gobin := t.TempDir()
	install := exec.Command(goBin, "install", ".")
	install.Env = append(os.Environ(), "PATH="+goDir, "GOBIN="+gobin, "CGO_ENABLED=0")
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("go install with PATH=%s: %v\n%s", goDir, err, out)
	}
	if _, err := exec.LookPath(filepath.Join(goDir, "npm")); err == nil {
		t.Fatalf("npm is in %s, beside go: the test cannot hide it", goDir)
	}
	bin := filepath.Join(gobin, "gridlag")
	addr, web := freeAddr(t), freeAddr(t)
	startServerBinary(t, bin, addr, "-web", web)
	cmd := exec.Command(node, "smoke.js", "http://"+web)
	cmd.Dir = e2e
	out, err := cmd.CombinedOutput()
	t.Logf("smoke.js:\n%s", out)
	if err != nil {
		t.Fatalf("the page of a binary from go install does not play: %v", err)
	}
}

func fileExistsAt(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// The page's URL is on the screens of those who host: a player's own
// server with -ssh and -web shows both ways in ("friends: ssh -p P
// localhost  or  http://localhost:W/"), and the teacher's screen the
// room's ("students join: ssh -t -p P localhost room 3b  or
// http://localhost:W/room/3b").
func TestWebURLOnHostScreens(t *testing.T) {
	t.Parallel() // the binary in a process of its own, mostly waited on: see TestMain
	if testing.Short() {
		t.Skip("end-to-end")
	}
	bin := buildBinary(t)
	ssh, web := freeAddr(t), freeAddr(t)
	_, sshPort, _ := net.SplitHostPort(ssh)
	_, webPort, _ := net.SplitHostPort(web)
	state := t.TempDir()
	tm := newTmux(t, 120, 30, fmt.Sprintf("XDG_STATE_HOME=%s %s play -ssh %s -web %s -name ada -log %s; sleep 60",
		state, bin, ssh, web, filepath.Join(state, "play.log")))
	tm.waitFor("friends: ssh -p "+sshPort+" localhost  or  http://localhost:"+webPort+"/", "you (")
	tm.keys("q")

	ssh, web = freeAddr(t), freeAddr(t)
	_, sshPort, _ = net.SplitHostPort(ssh)
	_, webPort, _ = net.SplitHostPort(web)
	teach := newTmux(t, 160, 40, fmt.Sprintf("XDG_STATE_HOME=%s %s teach -ssh %s -web %s -drain 0s -log %s 3b; sleep 60",
		state, bin, ssh, web, filepath.Join(state, "teach.log")))
	teach.waitFor("students join: ssh -t -p " + sshPort + " localhost room 3b  or  http://localhost:" + webPort + "/room/3b")
	teach.keys("q")
}
