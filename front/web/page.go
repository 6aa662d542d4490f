package web

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"net/url"
	"strings"
	"time"

	"gridlag/front"
	"gridlag/tui"
)

// The addresses the server answers: the page of each mode, its two built
// files, and the WebSocket.
const (
	socketPath = "/ws"
	scriptPath = "/assets/gridlag.js"
	stylePath  = "/assets/gridlag.css"
)

// buildAdvice is how to build the page's files into a binary that lacks
// them.
const buildAdvice = "Restore them (git checkout front/web/dist) or rebuild them (make web, which runs npm ci and the bundling in front/web/), then go build ./cmd/gridlag or make build"

// The page's sources: index.html, and dist/, the bundled script and
// styles (xterm.js and the page's own), committed built (make web
// rebuilds them).
var (
	//go:embed page/index.html
	indexSource string
	//go:embed page/notbuilt.html
	notBuiltSource string
	//go:embed all:dist
	distFS embed.FS
)

// errNoPage is the error of an address that is no page.
var errNoPage = errors.New("no such page")

// parseRoute reads a page's address, as its path is written in a URL
// (percent-encoded): "/" plays, and the words of front's modes are pages,
// a room's name after a slash: "/lobby", "/room/NAME", "/spectate",
// "/spectate/NAME".
func parseRoute(path string) (front.Mode, error) {
	if path == "/" {
		return front.Mode{}, nil
	}
	rest, ok := strings.CutPrefix(path, "/")
	if !ok {
		return front.Mode{}, errNoPage
	}
	word, escaped, named := strings.Cut(rest, "/")
	switch word {
	case front.RoomWord, front.LobbyWord, front.WatchWord:
	default:
		return front.Mode{}, errNoPage
	}
	room := ""
	if named {
		var err error
		if room, err = url.PathUnescape(escaped); err != nil || room == "" {
			return front.Mode{}, errNoPage
		}
	}
	return front.Parse(word, room)
}

// asset is one built file, served as it is.
type asset struct {
	body  []byte
	ctype string
	etag  string
}

// page is the web client: the page's HTML, and its built files when the
// binary has them.
type page struct {
	built      bool
	maxMessage int // Options.MaxMessage: the page splits longer input
	keepalive  int // Options.StallTimeout in seconds: a socket the page hears nothing on for this long is dead
	index      *template.Template
	notBuilt   *template.Template
	assets     map[string]asset
}

// pageData fills the page's template.
type pageData struct {
	Title      string
	HowTo      string
	MaxMessage int
	Keepalive  int
	// MinCols x MinRows is the smallest terminal the game fits
	// (tui.MinScreen): the page makes its font smaller, down to a
	// readable size, until its terminal is at least that large.
	MinCols, MinRows int
	Advice           string
}

// newPage reads the page's files: the built ones from dist (distFS, in
// the binary), whose "dist/gridlag.js" and "dist/gridlag.css" are missing
// from a tree built without make.
func newPage(maxMessage int, keepalive time.Duration, dist fs.FS) (*page, error) {
	p := &page{maxMessage: maxMessage, keepalive: retrySeconds(keepalive), assets: make(map[string]asset)}
	var err error
	if p.index, err = template.New("index").Parse(indexSource); err != nil {
		return nil, fmt.Errorf("web: the page's template: %w", err)
	}
	if p.notBuilt, err = template.New("notbuilt").Parse(notBuiltSource); err != nil {
		return nil, fmt.Errorf("web: the page's template: %w", err)
	}
	for path, ctype := range map[string]string{scriptPath: "text/javascript; charset=utf-8", stylePath: "text/css; charset=utf-8"} {
		body, err := fs.ReadFile(dist, "dist/"+strings.TrimPrefix(path, "/assets/"))
		if err != nil {
			return p, nil // not built: the page says how to build it
		}
		sum := sha256.Sum256(body)
		p.assets[path] = asset{body: body, ctype: ctype, etag: `"` + hex.EncodeToString(sum[:12]) + `"`}
	}
	p.built = true
	return p, nil
}

// secure sets the security headers of every answer: scripts and
// connections only from the page's own origin, no inline script, no
// framing, no guessing of types, no referrer. Styles are the page's own
// and the ones xterm.js writes as it runs (its cells' sizes and colours,
// in style elements): the page never puts text it is sent into HTML.
func secure(h http.Header) {
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	h.Set("X-Frame-Options", "DENY")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
}

// serveHTTP answers everything but the WebSocket: GET and HEAD only.
func (p *page) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "gridlag: method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if a, ok := p.assets[r.URL.Path]; ok {
		w.Header().Set("Content-Type", a.ctype)
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("ETag", a.etag)
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(a.body))
		return
	}
	if r.URL.Path == "/favicon.ico" {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	rt, err := parseRoute(r.URL.EscapedPath())
	if err != nil {
		http.Error(w, "gridlag: "+err.Error()+": the pages are /, /lobby, /room/NAME, /spectate and /spectate/NAME", http.StatusNotFound)
		return
	}
	minCols, minRows := tui.MinScreen()
	data := pageData{Title: "gridlag — " + rt.String(), HowTo: howTo(rt), MaxMessage: p.maxMessage, Keepalive: p.keepalive,
		MinCols: minCols, MinRows: minRows, Advice: buildAdvice}
	var buf bytes.Buffer
	tmpl, status := p.index, http.StatusOK
	if !p.built {
		tmpl, status = p.notBuilt, http.StatusServiceUnavailable
	}
	if err := tmpl.Execute(&buf, data); err != nil {
		http.Error(w, "gridlag: cannot draw the page", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// howTo is the page's line on how to play: the keys the game's bottom
// line names (from the tui's one key table), and the mouse; a spectator's
// page says it watches.
func howTo(m front.Mode) string {
	if m.Kind == front.Watch {
		return "Watching the game, without an avatar: the arrows look around, ? shows the keys, q quits"
	}
	return "How to play: " + tui.BottomLine() + "  · mouse: drag the latency slider, click a toggle"
}
