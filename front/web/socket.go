package web

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/coder/websocket"

	"gridlag/client"
	"gridlag/front/remote"
	"gridlag/grid"
	"gridlag/internal/limit"
	"gridlag/internal/names"
	"gridlag/internal/wire"
	"gridlag/protocol"
	"gridlag/server/admit"
)

// The page and the server speak over the WebSocket in two kinds of
// message. The page sends, first, its hello (a text message: the JSON
// object hello), then the player's input as binary messages (the bytes a
// terminal sends: keys, mouse reports) and, as text messages (the JSON
// object pageMessage), the terminal's size when it changes, how many of
// the screen's bytes it has drawn (when its hello asked for flow
// control: see flow) and its keepalive pings. The server sends the
// screen as binary messages (what a terminal draws) and notices as text
// messages (the JSON object notice): who the player is once in the game,
// the answers to its pings, and why the session ended, the close code
// saying what the page should do (see closeCodes). Anything else from
// the page ends the session.

// hello is the page's first message.
type hello struct {
	Name string `json:"name"` // the player's name (names.CheckPlayer)
	ID   string `json:"id"`   // the browser's identity: 32 hex digits, random, kept in the browser
	Path string `json:"path"` // the page's address (parseRoute)
	Cols int    `json:"cols"`
	Rows int    `json:"rows"`
	// Flow says the page acknowledges what it draws (pageMessage.Ack):
	// the server then keeps at most Options.FlowWindow bytes in flight
	// toward it.
	Flow bool `json:"flow,omitempty"`
}

// size is the terminal's size, as the page sends it when it changes.
type size struct {
	Cols int `json:"cols"`
	Rows int `json:"rows"`
}

// pageMessage is one of the page's text messages after its hello:
// exactly one of a size (cols and rows), an acknowledgement (ack: the
// screen's bytes drawn since the socket opened, in all) or a keepalive
// ping (ping: any number, answered in notice.Pong).
type pageMessage struct {
	Cols *int   `json:"cols,omitempty"`
	Rows *int   `json:"rows,omitempty"`
	Ack  *int64 `json:"ack,omitempty"`
	Ping *int64 `json:"ping,omitempty"`
}

// maxTermSide bounds a side of the terminal the page may claim; the
// screen is at most tui.MaxWidth x tui.MaxHeight, centred on a larger
// terminal (see remote.WindowOf).
const maxTermSide = 10000

// notice is what the server tells the page besides the screen.
type notice struct {
	Joined *joined `json:"joined,omitempty"`
	End    *ending `json:"end,omitempty"`
	Pong   *int64  `json:"pong,omitempty"` // the answer to the page's ping of that number
}

// joined says who the player is, once in the game.
type joined struct {
	Player  int    `json:"player"`
	Name    string `json:"name"`
	Resumed bool   `json:"resumed"` // the avatar of a dropped session came back
	Resume  int    `json:"resume"`  // seconds the avatar waits for the player after a drop; 0 = not at all
}

// ending says why the session ended.
type ending struct {
	Reason string `json:"reason"`          // "" when the player quit
	Status int    `json:"status"`          // as an SSH session's exit status: 0 for a quit or a stop
	Name   bool   `json:"name,omitempty"`  // the name was refused: choose another
	Again  bool   `json:"again,omitempty"` // worth trying again later (a cap)
	Retry  int    `json:"retry,omitempty"` // with Again: seconds the page waits before it tries again
}

// The close codes the server ends a WebSocket with, and what the page
// does on each (RFC 6455 section 7.4.1): a browser hides an upgrade's
// HTTP status from the page (a refusal there reads as 1006, "abnormal"),
// so every refusal after the Origin's comes after the upgrade, as a code
// and a reason.
const (
	// closeDone ends a session that ended: the player quit, or was
	// ended (idle, taken over): the page says why and waits for the
	// player.
	closeDone = websocket.StatusNormalClosure // 1000
	// closeGoingAway: the server stops (or its game server did). The
	// page says the server went away and tries again slowly.
	closeGoingAway = websocket.StatusGoingAway // 1001
	// closePolicy refuses what the page may never do (a bad hello,
	// size, flood, acknowledgement): the page says why and never tries
	// again by itself.
	closePolicy = websocket.StatusPolicyViolation // 1008
	// closeTryLater refuses for now (a cap: the server full, too many
	// sessions from the address): the page says why and waits
	// ending.Retry seconds, or longer, before it tries again.
	closeTryLater = websocket.StatusTryAgainLater // 1013
)

// errSessionEnded ends the input of a session that ended.
var errSessionEnded = errors.New("web: session ended")

// socket is one WebSocket: one player's session, from the hello to the
// end.
type socket struct {
	srv   *Server
	c     *websocket.Conn
	addr  net.Addr // the client's address, as it counts
	host  string   // its IP, for the log
	key   string   // its key for the per-address caps and the log's summaries (admit.Key)
	begun time.Time
	log   *remote.SessionLog // its lines, summarised by address; set once the hello came

	tty       *remote.Tty
	killed    remote.KillReason
	cancel    context.CancelFunc // ends the session
	code      websocket.StatusCode
	identity  string        // the player's identity (remote.Player.Fingerprint), "" for a spectator
	classCode string        // the class code the page presented (?code=), "" for none
	done      chan struct{} // closed when the session has ended
	codeMu    sync.Mutex

	meter *wire.Meter // what its connection carries, nil if not counted

	// What the pings tell of the page's reading (see keepReading), in
	// unix ns: when a ping still unanswered was sent (0 if none), and
	// when the page last proved it read everything sent before.
	pinged, proof atomic.Int64

	flow     *flow                // the screen's flow control, nil unless the page asked for it
	flowSeen atomic.Pointer[flow] // flow, for the server's counts (flowOf)
	ponging  atomic.Bool          // an answer to the page's ping is on its way
}

// serveSocket runs one WebSocket's session: the Origin and the caps, the
// hello, the game, the end.
func (s *Server) serveSocket(w http.ResponseWriter, r *http.Request) {
	addr, forwarded := s.clientAddr(r)
	host, key := admit.Host(addr), admit.Key(addr)
	// Before anything is spent on it: the name the page was reached by,
	// then its origin (see host.go).
	browserHost := s.browserHost(r)
	if !s.hosts.allows(browserHost) {
		s.warn.Warn("refused "+key+" host", "web socket refused", "remote", host,
			"reason", "a name the server is not reached by: another site's page (DNS rebinding), or a name to allow with -web-host",
			"host", browserHost, "origin", r.Header.Get("Origin"))
		http.Error(w, fmt.Sprintf("gridlag: this server does not answer to the name %s: open the game at the address its operator gave you (who can allow the name with -web-host)",
			cut(browserHost, 100)), http.StatusForbidden)
		return
	}
	if !isUpgrade(r) { // the page asking why its socket failed, say
		http.Error(w, "gridlag: this is the game's WebSocket, for the game's page", http.StatusUpgradeRequired)
		return
	}
	if !originAllowed(r, browserHost) {
		s.warn.Warn("refused "+key+" origin", "web socket refused", "remote", host, "reason", "not from the game's page",
			"origin", r.Header.Get("Origin"), "host", browserHost)
		http.Error(w, "gridlag: this socket is for the game's own page", http.StatusForbidden)
		return
	}
	so := &socket{srv: s, addr: addr, host: host, key: key, begun: time.Now(), done: make(chan struct{}), code: closeDone,
		meter: meterOf(r)}
	if !s.trackSession(so) {
		// Told after the upgrade, where the page can read it.
		if c, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true}); err == nil {
			so.c = c
			so.finish(ending{Reason: client.ErrServerStopped.Error(), Status: 1}, closeGoingAway)
			c.CloseNow()
		}
		return
	}
	defer s.untrackSession(so)
	if s.refuseAttempt(so, w, r) {
		return
	}
	so.classCode = r.URL.Query().Get("code")
	slot, class, bad := s.classSlot(key, so.classCode)
	release, _, refusal := s.sessions.Take(slot, class)
	if release != nil {
		defer release()
	}
	// The Origin was checked above, against a trusted proxy's forwarded host.
	c, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
	if err != nil {
		s.warn.Warn("websocket "+key, "web socket failed", "remote", host, "err", err)
		return
	}
	so.c = c
	c.SetReadLimit(int64(s.opts.MaxMessage))
	if bad != "" {
		s.warn.Warn("refused "+key+" code", "web session refused", "remote", host, "reason", bad)
		so.finish(ending{Reason: bad, Status: 1}, closePolicy)
		return
	}
	if refusal != "" {
		s.warn.Warn("refused "+key+" session", "web session refused", "remote", host, "reason", refusal)
		so.finish(ending{Reason: refusal, Status: 1, Again: true, Retry: retrySeconds(s.opts.RetryAfter)}, closeTryLater)
		return
	}
	if forwarded {
		s.log.Debug("web client behind a trusted proxy", "remote", addr.String(), "proxy", r.RemoteAddr)
	}
	so.run()
}

// isUpgrade reports whether r asks for a WebSocket.
func isUpgrade(r *http.Request) bool {
	for _, v := range r.Header.Values("Upgrade") {
		for _, p := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(p), "websocket") {
				return true
			}
		}
	}
	return false
}

// trackSession counts a session in the server's lifecycle, so that
// Close waits for it, and among the live ones it cuts, unless the server
// is closing.
func (s *Server) trackSession(so *socket) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.life.TrackLocked(true) {
		return false
	}
	s.live[so] = struct{}{}
	return true
}

func (s *Server) untrackSession(so *socket) {
	s.mu.Lock()
	delete(s.live, so)
	if so.identity != "" && s.players[so.identity] == so {
		delete(s.players, so.identity)
	}
	s.mu.Unlock()
	s.life.Untrack(true)
}

// run reads the hello and runs the session.
func (so *socket) run() {
	s := so.srv
	h, err := so.readHello()
	if errors.Is(err, errLate) {
		return
	}
	if err != nil {
		s.warn.Warn("hello "+so.key, "web session refused", "remote", so.host, "reason", err.Error())
		so.finish(ending{Reason: err.Error(), Status: 1}, closePolicy)
		return
	}
	rt, err := parseRoute(h.Path)
	if err != nil {
		so.finish(ending{Reason: err.Error(), Status: 1}, closePolicy)
		return
	}
	so.log = remote.NewSessionLog(s.warn, s.log, h.Name, so.addr)
	if err := names.CheckPlayer(h.Name, false); err != nil {
		reason := fmt.Sprintf("name %q: %v", h.Name, err)
		so.log.Warn("name", "web session refused", "reason", reason)
		so.finish(ending{Reason: reason, Status: 1, Name: true}, closeDone)
		return
	}
	// xterm.js is an xterm-256color.
	if h.Flow {
		so.flow = newFlow(int64(s.opts.FlowWindow), &s.flowStats)
		so.flowSeen.Store(so.flow)
	}
	tty, screen, termName, err := remote.OpenScreen(wsWriter{so.c, so.flow, so.meter}, remote.FallbackTerm, h.Cols, h.Rows, so.log)
	if err != nil {
		so.finish(ending{Reason: "the server cannot drive your terminal", Status: 1}, websocket.StatusInternalError)
		return
	}
	so.tty = tty
	if so.meter != nil {
		tty.Count(&so.meter.Term)
	}
	if so.flow != nil {
		// A page that caught up after frames were left out of its way
		// is sent the present whole: tcell draws its screen afresh.
		so.flow.redraw = func() {
			s.life.WG.Go(func() {
				if started, closed := tty.State(); started && !closed {
					screen.Sync()
				}
			})
		}
	}
	ctx, cancel := context.WithCancel(s.life.Ctx)
	defer cancel()
	so.cancel = cancel
	context.AfterFunc(ctx, so.tty.End)
	identity := identityOf(h.ID)
	p := &remote.Player{Screen: screen, User: h.Name, Fingerprint: identity, Color: remote.FingerprintColor(identity),
		RemoteAddr: so.addr, Mode: rt, Joined: so.joined, Log: so.log, Wire: so.meter}
	if !rt.Plays() {
		p.Fingerprint, p.Color = "", 0
	} else {
		p.Code = so.classCode
		so.takeOver(identity)
	}
	so.log.Info("", "web session start", "identity", p.Fingerprint, "page", rt.String(), "term", termName,
		"size", fmt.Sprintf("%dx%d", h.Cols, h.Rows))
	pr, pw := io.Pipe()
	resize := remote.NewResizer(s.clock, remote.WindowChanges, remote.WindowOf(h.Cols, h.Rows), func(sz size) {
		if so.tty.SetWindow(sz.Cols, sz.Rows) {
			s.resizes.Add(1)
		}
	})
	defer resize.Stop()
	reading := make(chan struct{})
	watched := make(chan struct{})
	s.life.WG.Go(func() {
		so.tty.Pump(pr)
	})
	s.life.WG.Go(func() {
		defer close(reading)
		so.readLoop(pw, resize)
	})
	s.life.WG.Go(func() {
		remote.Watchdog{Tty: so.tty, Idle: s.opts.IdleTimeout, Stall: s.opts.StallTimeout, Silent: so.silentFor,
			Killed: &so.killed, Cancel: cancel, Cut: so.cut, Log: so.log}.Run(watched)
	})
	s.life.WG.Go(func() {
		so.keepReading(ctx)
	})

	err = s.handler.Run(ctx, p)
	if started, closed := so.tty.State(); started && !closed {
		screen.Fini()
	}
	close(watched)
	gone := so.tty.InputEnded() // the page went: nobody to tell
	closing := s.life.Ctx.Err() != nil
	reason, status := remote.EndReason(so.killed.Get(), err, closing, gone)
	if so.killed.Get() == "" && (closing || errors.Is(err, client.ErrServerStopped)) {
		so.setCode(closeGoingAway)
	}
	cancel()
	pr.CloseWithError(errSessionEnded) // frees a read loop blocked handing input on
	close(so.done)
	logReason := reason
	if reason == "" {
		logReason = "quit"
	}
	so.log.Info(logReason, "web session end", "reason", logReason, "duration", time.Since(so.begun).Round(time.Millisecond))
	if !gone || so.killed.Get() != "" {
		end, code := ending{Reason: reason, Status: status}, so.closeCode()
		if so.killed.Get() == "" && gameSaysLater(err) {
			// The game server's cap or its joins' rate: the page waits
			// as told and tries again, as for the front end's own caps.
			end.Again, end.Retry, code = true, retrySeconds(s.opts.RetryAfter), closeTryLater
		}
		so.finish(end, code)
	}
	so.c.CloseNow()
	<-reading
}

// pingsPerStall is how many pings the page is sent in a stall time: an
// honest page, which answers each within a round trip, never goes
// without a proof of reading for more than a few of these.
const pingsPerStall = 6

// keepReading pings the page until ctx is done: a browser answers a
// WebSocket's ping once it has read everything sent before it, so each
// answer proves the page read up to the moment the ping went. A page
// that stops reading answers none, and the watchdog drops it once it has
// gone the stall time without a proof (silentFor), as it drops a
// client whose write is blocked that long. No ping goes while a write
// to the page is blocked: the watchdog times that write, and its end
// proves the page read.
func (so *socket) keepReading(ctx context.Context) {
	so.proof.Store(time.Now().UnixNano()) // the hello just came
	tick := time.NewTicker(max(so.srv.opts.StallTimeout/pingsPerStall, 10*time.Millisecond))
	defer tick.Stop()
	blocked := false
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		now := time.Now()
		if so.tty.StalledFor(now) > 0 {
			blocked = true
			continue
		}
		if blocked {
			blocked = false
			so.proof.Store(now.UnixNano())
		}
		so.pinged.Store(now.UnixNano())
		// Ping waits for the answer, which the read loop takes in, or
		// for the socket's close, which comes right after the session's
		// end notice. Its context is never the session's: coder/websocket
		// closes the socket under a write whose context ends, so a ping
		// still being written when the session ended (a slow link, a
		// busy machine) would cut the socket before the page is told why
		// it ended. The socket closed, it fails at once; a write it
		// could not make within coder/websocket's own time for a control
		// frame (5 s) closes the socket, the page having taken nothing
		// for that long.
		if ctx.Err() != nil {
			return
		}
		if err := so.c.Ping(context.WithoutCancel(ctx)); err != nil {
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return
			}
			continue // its write waited behind a blocked one: try again, still unanswered
		}
		so.proof.Store(now.UnixNano())
		so.pinged.Store(0)
	}
}

// silentFor is how long the page has gone without proving it read, as
// far as the pings tell (see keepReading): from the last proof, while a
// ping is unanswered; 0 when none is.
func (so *socket) silentFor(now time.Time) time.Duration {
	if so.pinged.Load() == 0 {
		return 0
	}
	return now.Sub(time.Unix(0, so.proof.Load()))
}

// identityOf is the player's identity for the browser's: a hash, so that
// the log never shows what the browser keeps.
func identityOf(id string) string {
	sum := sha256.Sum256([]byte("gridlag web identity\x00" + id))
	return "web:" + hex.EncodeToString(sum[:12])
}

// takeOver makes so the session of identity: one still in play (the same
// browser in another window, or a reload the server has not seen end yet)
// is ended, and so waits for it to end, so that its avatar is kept for
// this one to resume.
func (so *socket) takeOver(identity string) {
	s := so.srv
	s.mu.Lock()
	old := s.players[identity]
	s.players[identity] = so
	so.identity = identity
	s.mu.Unlock()
	if old == nil {
		return
	}
	if old.killed.Set("playing in another window") {
		old.log.Info("", "web session taken over by a new one of the same browser")
		old.cancel()
	}
	select {
	case <-old.done:
	case <-time.After(s.opts.HandshakeTimeout):
	}
}

// joined tells the page who the player is once the game server welcomed
// them.
func (so *socket) joined(sess client.Session, resumed bool) {
	so.srv.life.WG.Go(func() {
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		deadline := time.After(so.srv.opts.HandshakeTimeout)
		for {
			if v := sess.View(); v.Me != 0 {
				j := &joined{Player: int(v.Me), Name: v.Name, Resumed: resumed}
				if r, ok := sess.(interface {
					Resumable() (protocol.Token, time.Duration)
				}); ok {
					_, window := r.Resumable()
					j.Resume = int(window / time.Second)
				}
				so.send(notice{Joined: j})
				return
			}
			select {
			case <-tick.C:
			case <-deadline:
				return
			case <-sess.Done():
				return
			case <-so.done:
				return
			}
		}
	})
}

// errLate is readHello's error once the handshake time is over: the page
// was told, and the socket closed.
var errLate = errors.New("no hello in time")

// readHello reads the page's first message, within the handshake time of
// connecting; past it, the page is told why and the socket is closed.
func (so *socket) readHello() (hello, error) {
	var h hello
	hs := so.srv.opts.HandshakeTimeout
	told := make(chan struct{})
	timer := time.AfterFunc(time.Until(so.begun.Add(hs)), func() {
		defer close(told)
		reason := fmt.Sprintf("no hello within %s of connecting", hs)
		so.srv.warn.Warn("hello "+so.key, "web session refused", "remote", so.host, "reason", reason)
		so.send(notice{End: &ending{Reason: reason, Status: 1}})
		so.c.CloseNow()
	})
	typ, data, err := so.c.Read(context.Background())
	so.payload(len(data), 0)
	if !timer.Stop() {
		<-told
		return h, errLate
	}
	switch {
	case err != nil:
		return h, fmt.Errorf("no hello: %w", err)
	case typ != websocket.MessageText:
		return h, errors.New("the first message is not the page's hello")
	}
	if err := decodeStrict(data, &h); err != nil {
		return h, fmt.Errorf("the page's hello: %w", err)
	}
	switch {
	case !validIdentity(h.ID):
		return h, errors.New("the page's hello: the identity is not 32 hex digits")
	case !goodSize(h.Cols, h.Rows):
		return h, fmt.Errorf("the page's hello: a terminal of %dx%d", h.Cols, h.Rows)
	}
	return h, nil
}

// validIdentity reports whether id is what the page makes: 128 random
// bits in 32 lower-case hex digits.
func validIdentity(id string) bool {
	if len(id) != 32 {
		return false
	}
	for _, c := range id {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// decodeStrict decodes one JSON object into v, refusing fields v does not
// have and anything after the object.
func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("more than one object")
	}
	return nil
}

// readLoop reads the page's messages while the session runs: input goes
// to the terminal through pw, sizes to resize, which applies them as the
// SSH front end does its window changes (remote.Resizer: at
// remote.WindowChanges, the latest). A message the page never sends, or
// too many of them, ends the session, saying why.
func (so *socket) readLoop(pw *io.PipeWriter, resize *remote.Resizer[size]) {
	rate := so.srv.opts.MessageRate
	allowed := limit.PerSecond(rate, rate) // a second's worth at once
	var msgs grid.Limiter
	for {
		typ, data, err := so.c.Read(context.Background())
		so.payload(len(data), 0)
		if err != nil {
			if errors.Is(err, websocket.ErrMessageTooBig) {
				so.violation(fmt.Sprintf("the page sent a message over %d bytes", so.srv.opts.MaxMessage), websocket.StatusMessageTooBig)
			}
			pw.CloseWithError(err)
			return
		}
		if !allowed.Allow(&msgs, so.srv.clock.Now()) {
			so.violation(fmt.Sprintf("the page sent more than %d messages a second", rate), closePolicy)
			pw.CloseWithError(errSessionEnded)
			return
		}
		switch typ {
		case websocket.MessageBinary:
			if _, err := pw.Write(data); err != nil {
				return
			}
		case websocket.MessageText:
			if reason := so.pageMessage(data, resize); reason != "" {
				so.violation(reason, closePolicy)
				pw.CloseWithError(errSessionEnded)
				return
			}
		}
	}
}

// violation ends the session for something the page never does, saying
// why, and closes the socket with code.
func (so *socket) violation(reason string, code websocket.StatusCode) {
	if so.killed.Set(reason) {
		so.log.Warn(reason, "ending session", "reason", reason)
	}
	so.setCode(code)
	so.cancel()
}

func (so *socket) setCode(code websocket.StatusCode) {
	so.codeMu.Lock()
	so.code = code
	so.codeMu.Unlock()
}

// goodSize reports whether a terminal of cols x rows is one a page may
// claim.
func goodSize(cols, rows int) bool {
	return cols >= 1 && rows >= 1 && cols <= maxTermSide && rows <= maxTermSide
}

// pageMessage applies one of the page's text messages after its hello (a
// pageMessage); it returns why the session must end, "" if it goes on.
func (so *socket) pageMessage(data []byte, resize *remote.Resizer[size]) string {
	var m pageMessage
	if err := decodeStrict(data, &m); err != nil {
		return "the page sent a message it never sends"
	}
	switch {
	case m.Cols != nil && m.Rows != nil && m.Ack == nil && m.Ping == nil:
		if !goodSize(*m.Cols, *m.Rows) {
			return fmt.Sprintf("the page sent a terminal size of %dx%d", *m.Cols, *m.Rows)
		}
		resize.Change(remote.WindowOf(*m.Cols, *m.Rows), size{Cols: *m.Cols, Rows: *m.Rows})
	case m.Ack != nil && m.Cols == nil && m.Rows == nil && m.Ping == nil:
		if so.flow == nil {
			return "the page acknowledged a screen without asking for flow control"
		}
		if err := so.flow.ack(*m.Ack); err != nil {
			return "the page " + err.Error()
		}
	case m.Ping != nil && m.Cols == nil && m.Rows == nil && m.Ack == nil:
		so.pong(*m.Ping)
	default:
		return "the page sent a message it never sends"
	}
	return ""
}

// flowOf is the session's flow control, nil if none (yet).
func (so *socket) flowOf() *flow { return so.flowSeen.Load() }

// pong answers the page's keepalive ping n, unless an answer is still on
// its way (a page that stopped reading): the read loop never waits on a
// write.
func (so *socket) pong(n int64) {
	if !so.ponging.CompareAndSwap(false, true) {
		return
	}
	so.srv.life.WG.Go(func() {
		defer so.ponging.Store(false)
		so.send(notice{Pong: &n})
	})
}

func (so *socket) closeCode() websocket.StatusCode {
	so.codeMu.Lock()
	defer so.codeMu.Unlock()
	return so.code
}

// send writes a notice to the page.
func (so *socket) send(n notice) {
	b, err := json.Marshal(n)
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), so.srv.opts.StallTimeout)
	defer cancel()
	if so.c.Write(ctx, websocket.MessageText, b) == nil {
		so.payload(0, len(b))
	}
}

// payload counts a message's payload, up (from the page) or down.
func (so *socket) payload(up, down int) {
	if so.meter != nil {
		so.meter.Payload.AddUp(up)
		so.meter.Payload.AddDown(down)
	}
}

// finish tells the page why the session ended and closes the socket with
// code, the reason in its close frame too (cut to fit).
func (so *socket) finish(e ending, code websocket.StatusCode) {
	so.send(notice{End: &e})
	so.c.Close(code, cut(e.Reason, 120))
}

// cut shortens s to at most n bytes, on a character's boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// cut closes the socket under a session that must end now: a client
// that stopped reading, a server that cannot wait.
func (so *socket) cut() {
	if so.c != nil {
		so.c.CloseNow()
	}
}

// wsWriter writes the screen to the page, one binary message a write.
// A write blocks while the page does not read; the watchdog cuts the
// socket after Options.StallTimeout.
// With flow control (a page that acknowledges what it draws), a write
// the page has no room for is left out, as a whole (see flow).
type wsWriter struct {
	c     *websocket.Conn
	flow  *flow       // nil without flow control
	meter *wire.Meter // counts the messages' payload, if set
}

func (w wsWriter) Write(p []byte) (int, error) {
	if w.flow != nil && !w.flow.take(len(p)) {
		return len(p), nil
	}
	if err := w.c.Write(context.Background(), websocket.MessageBinary, p); err != nil {
		return 0, err
	}
	if w.meter != nil {
		w.meter.Payload.AddDown(len(p))
	}
	return len(p), nil
}

// gameSaysLater reports whether err is the game server's refusal for
// now: it is full, or the address's joins came faster than its rate
// (a storm of reloads). A room full is not: another room may take the
// player, and waiting for this one does not help.
func gameSaysLater(err error) bool {
	var e *protocol.Error
	if !errors.As(err, &e) {
		return false
	}
	return e.Code == protocol.ErrCodeFull || e.Code == protocol.ErrCodeFlood && strings.HasPrefix(e.Text, "rate limited")
}
