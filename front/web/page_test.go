package web

import (
	"crypto/sha256"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"gridlag/front"
	"gridlag/server/admit/admittest"
	"gridlag/tui"
)

// get asks p for path as a browser would and returns the answer and its
// body.
func get(t *testing.T, h http.Handler, method, path string, header http.Header) (*http.Response, string) {
	t.Helper()
	req := httptest.NewRequest(method, path, nil)
	for k, v := range header {
		req.Header[k] = v
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	resp := w.Result()
	body, _ := io.ReadAll(resp.Body)
	return resp, string(body)
}

// builtFS is a tree with the page's built files.
var builtFS = fstest.MapFS{
	"dist/README.md":   {Data: []byte("built by make")},
	"dist/gridlag.js":  {Data: []byte("console.log('gridlag')")},
	"dist/gridlag.css": {Data: []byte("body{}")},
}

// pageServer is a Server whose page is read from dist.
func pageServer(t *testing.T, dist fstest.MapFS) *Server {
	t.Helper()
	s, err := New(Options{Logger: admittest.Logger(t)})
	if err != nil {
		t.Fatal(err)
	}
	if s.page, err = newPage(DefaultMaxMessage, DefaultStallTimeout, dist); err != nil {
		t.Fatal(err)
	}
	return s
}

// Every page of a mode is the one page, with the line on how to play
// from the game's key table, and every answer carries the security
// headers: only the page's own scripts, no framing, no sniffing.
func TestPageAndItsHeaders(t *testing.T) {
	s := pageServer(t, builtFS)
	for _, path := range []string{"/", "/lobby", "/room/kitchen", "/room/caf%C3%A9", "/spectate", "/spectate/kitchen"} {
		resp, body := get(t, s, "GET", path, nil)
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, `<script src="/assets/gridlag.js" defer></script>`) {
			t.Errorf("%s: %d, want the page", path, resp.StatusCode)
		}
		if !strings.Contains(body, "How to play: "+strings.ReplaceAll(tui.BottomLine(), "+", "&#43;")) && !strings.HasPrefix(path, "/spectate") {
			t.Errorf("%s: the page has no line on how to play:\n%s", path, body)
		}
		if strings.Contains(body, "<script>") || strings.Contains(body, " style=") {
			t.Errorf("%s: the page has inline script or style", path)
		}
		csp := resp.Header.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'none'", "script-src 'self';", "connect-src 'self'", "frame-ancestors 'none'", "base-uri 'none'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("%s: Content-Security-Policy %q lacks %q", path, csp, want)
			}
		}
		for k, want := range map[string]string{"X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"} {
			if got := resp.Header.Get(k); got != want {
				t.Errorf("%s: %s %q, want %q", path, k, got, want)
			}
		}
	}
	if _, body := get(t, s, "GET", "/spectate", nil); !strings.Contains(body, "Watching the game") {
		t.Errorf("the spectator's page does not say it watches:\n%s", body)
	}
	if _, body := get(t, s, "GET", "/room/caf%C3%A9", nil); !strings.Contains(body, "<title>gridlag — room café</title>") {
		t.Errorf("room café's page is titled otherwise:\n%s", body)
	}
}

// The built files are served with their types and a validator; a page
// that is no mode's, a room that is no name and anything but GET are
// refused.
func TestPageRefusesWhatItIsNot(t *testing.T) {
	s := pageServer(t, builtFS)
	resp, body := get(t, s, "GET", scriptPath, nil)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/javascript; charset=utf-8" || body != "console.log('gridlag')" {
		t.Errorf("the script: %d %q %q", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	if r, _ := get(t, s, "GET", scriptPath, http.Header{"If-None-Match": {resp.Header.Get("ETag")}}); r.StatusCode != http.StatusNotModified {
		t.Errorf("the script again with its ETag: %d, want 304", r.StatusCode)
	}
	for _, c := range []struct {
		method, path string
		status       int
	}{
		{"GET", "/admin", http.StatusNotFound},
		{"GET", "/room/", http.StatusNotFound},
		{"GET", "/room/%01evil", http.StatusNotFound},
		{"GET", "/room/" + strings.Repeat("x", 17), http.StatusNotFound},
		{"GET", "/assets/other.js", http.StatusNotFound},
		{"GET", "/dist/README.md", http.StatusNotFound},
		{"POST", "/", http.StatusMethodNotAllowed},
		{"PUT", scriptPath, http.StatusMethodNotAllowed},
		{"GET", "/favicon.ico", http.StatusNoContent},
	} {
		resp, _ := get(t, s, c.method, c.path, nil)
		if resp.StatusCode != c.status {
			t.Errorf("%s %s: %d, want %d", c.method, c.path, resp.StatusCode, c.status)
		}
		if resp.Header.Get("Content-Security-Policy") == "" {
			t.Errorf("%s %s: no security headers", c.method, c.path)
		}
	}
}

// A binary built from a tree without the committed bundle still serves:
// its page says the web client was not built and how to build it, and
// the script is not there.
func TestPageNotBuiltSaysHowToBuildIt(t *testing.T) {
	s := pageServer(t, fstest.MapFS{"dist/README.md": {Data: []byte("built by make")}})
	resp, body := get(t, s, "GET", "/", nil)
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("status %d, want 503", resp.StatusCode)
	}
	for _, want := range []string{"the web client was not built", "git checkout front/web/dist", "make web", "go build"} {
		if !strings.Contains(body, want) {
			t.Errorf("the page does not say %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "<script") {
		t.Errorf("the page loads a script it does not have:\n%s", body)
	}
	if resp, _ := get(t, s, "GET", scriptPath, nil); resp.StatusCode != http.StatusNotFound {
		t.Errorf("the script: %d, want 404", resp.StatusCode)
	}
}

// The page's addresses are the modes of an SSH session's commands.
func TestParseRoute(t *testing.T) {
	for _, c := range []struct {
		path string
		want front.Mode
		ok   bool
	}{
		{"/", front.Mode{}, true},
		{"/lobby", front.Mode{Kind: front.Lobby}, true},
		{"/spectate", front.Mode{Kind: front.Watch}, true},
		{"/spectate/blue", front.Mode{Kind: front.Watch, Room: "blue"}, true},
		{"/room/blue", front.Mode{Room: "blue"}, true},
		{"/room/two%20words", front.Mode{Room: "two words"}, true},
		{"/room/a%2Fb", front.Mode{Room: "a/b"}, true},
		{"/room/", front.Mode{}, false},
		{"/room/%zz", front.Mode{}, false},
		{"/room/bad%0Aname", front.Mode{}, false},
		{"/lobby/blue", front.Mode{}, false},
		{"/play", front.Mode{}, false},
		{"", front.Mode{}, false},
	} {
		got, err := parseRoute(c.path)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("parseRoute(%q) = %+v, %v; want %+v, ok %v", c.path, got, err, c.want, c.ok)
		}
	}
}

// The page's address a host gives friends puts an IPv6 host in brackets.
func TestInvites(t *testing.T) {
	a := &net.TCPAddr{IP: net.ParseIP("2001:db8::7"), Port: 8080}
	if got := Invites(a, nil); len(got) != 1 || got[0] != "http://[2001:db8::7]:8080/" {
		t.Errorf("Invites(%s) = %q, want the page's address, the host in brackets", a, got)
	}
}

// The page's bundle is committed (front/web/dist), so that go build and
// go install embed it without npm: the binary serves the built page, and
// dist/sources.sha256 matches the sources and lockfile it was built from
// (make web rebuilds both; make web-check, with npm, rebuilds the bundle
// aside and compares it whole). An edit to the page's script without
// make web fails here, npm or not.
func TestCommittedBundleMatchesSources(t *testing.T) {
	pg, err := newPage(DefaultMaxMessage, DefaultStallTimeout, distFS)
	if err != nil || !pg.built {
		t.Fatalf("the binary has no built page (%v): run make web and commit front/web/dist", err)
	}
	sums, err := os.ReadFile(filepath.Join("dist", "sources.sha256"))
	if err != nil {
		t.Fatalf("%v: run make web and commit front/web/dist", err)
	}
	n := 0
	named := make(map[string]bool)
	for _, line := range strings.Split(strings.TrimSpace(string(sums)), "\n") {
		want, path, ok := strings.Cut(line, "  ")
		if !ok {
			t.Fatalf("dist/sources.sha256: a line %q", line)
		}
		named[path] = true
		b, err := os.ReadFile(filepath.FromSlash(path))
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprintf("%x", sha256.Sum256(b)); got != want {
			t.Errorf("front/web/%s changed since the bundle was built: run make web and commit front/web/dist", path)
		}
		n++
	}
	// A script or style added to the page is one of the bundle's sources.
	for _, glob := range []string{"page/*.js", "page/*.css"} {
		files, _ := filepath.Glob(filepath.FromSlash(glob))
		for _, f := range files {
			if !named[filepath.ToSlash(f)] {
				t.Errorf("front/web/%s is not among the bundle's sources in dist/sources.sha256: run make web and commit front/web/dist", filepath.ToSlash(f))
			}
		}
	}
	if n < 4 {
		t.Errorf("dist/sources.sha256 names %d files, want the script, the styles, package.json and its lockfile", n)
	}
	if git, err := exec.LookPath("git"); err == nil {
		for _, f := range []string{"dist/gridlag.js", "dist/gridlag.css", "dist/sources.sha256"} {
			out, err := exec.Command(git, "ls-files", "--error-unmatch", f).CombinedOutput()
			if err != nil && !strings.Contains(string(out), "not a git repository") {
				t.Errorf("front/web/%s is not committed: %s", f, out)
			}
		}
	}
}
