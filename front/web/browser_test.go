package web

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
	node := requireBrowser(t)
	s, _ := startGameWeb(t, Options{})
	if !s.page.built {
		t.Skip("the web page is not built into this test binary: make test builds it (npm)")
	}
	runScript(t, node, []string{"play.js", "http://" + s.Addr().String()}, func(line string) {
		if line == "cut" { // the script asks for the connection to drop
			s.cutSessions()
		}
	})
}

// requireBrowser skips the test without node, Debian's chromium and
// playwright-core in e2e, and returns node's path.
func requireBrowser(t *testing.T) string {
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
	}
	return node
}

// runScript runs node with args in e2e, logging what the script prints;
// a line it prints that is no "ok: ..." is a request, which do does
// before the script is told it is done.
func runScript(t *testing.T, node string, args []string, do func(line string)) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Dir = "e2e"
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
		t.Logf("%s: %s", args[0], sc.Text())
		if !strings.HasPrefix(sc.Text(), "ok: ") {
			do(sc.Text())
			io.WriteString(stdin, "done\n")
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%s: %v", args[0], err)
	}
}

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
