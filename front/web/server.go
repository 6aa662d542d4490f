package web

import (
	"errors"
	"fmt"
	stdlog "log"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/charmbracelet/log"

	"gridlag/front/remote"
	"gridlag/internal/ratelog"
	"gridlag/internal/wire"
	"gridlag/server/admit"
)

// ErrServerClosed is returned by Serve and ListenAndServe after Close.
var ErrServerClosed = errors.New("web: server closed")

// connsPerSession is how many open connections each session cap allows:
// a player's WebSocket and the page's requests around it.
const connsPerSession = 4

// Server is the web front end: the page and its WebSocket. Create it with
// New.
type Server struct {
	opts     Options
	log      *log.Logger
	warn     *ratelog.Log // refusals, summarised when they repeat (life's)
	game     *remote.Game // the default handler's game, which keeps dropped avatars by identity
	handler  remote.Handler
	clock    remote.Clock // the sessions' pacing runs on it
	page     *page
	hosts    *hostSet      // the names the server answers to (see host.go)
	sessions *admit.Slots  // WebSockets, in all and per client address
	conns    *admit.Slots  // open connections, in all and per connection address
	resizes  atomic.Uint64 // page sizes that resized a session's screen (see readLoop)
	http     *http.Server
	// life is the server's context, goroutines (wg), sessions, close
	// and warnings, as the SSH front end's; guarded by mu.
	life *remote.Lifecycle
	// flowStats are the flow control of the pages that ask for it.
	flowStats flowStats
	// attempts is the rate of new WebSockets per client address
	// (attempts.go).
	attempts *admit.Attempts

	// idle are the keep-alive connections idle between requests, by
	// address, and since when (connstate.go); guarded by idleMu.
	idleMu sync.Mutex
	idle   map[string]map[*countedConn]time.Time

	mu      sync.Mutex
	bound   net.Addr // the first listener's address
	live    map[*socket]struct{}
	players map[string]*socket // identity -> its session in play
}

// New returns a server ready to Serve; Close ends it.
func New(opts Options) (*Server, error) {
	opts = opts.withDefaults()
	pg, err := newPage(opts.MaxMessage, opts.StallTimeout, distFS)
	if err != nil {
		return nil, err
	}
	s := &Server{
		opts:     opts,
		log:      opts.Logger,
		handler:  opts.Handler,
		clock:    remote.WallClock(),
		page:     pg,
		hosts:    newHostSet(opts.Hosts),
		sessions: admit.NewSlots(opts.MaxSessions, opts.MaxPerAddr, "players", "sessions"),
		conns:    admit.NewSlots(connsPerSession*opts.MaxSessions, connsPerSession*opts.MaxPerAddr, "connections", "connections"),
		live:     make(map[*socket]struct{}),
		players:  make(map[string]*socket),
		idle:     make(map[string]map[*countedConn]time.Time),
		attempts: admit.NewAttempts(opts.Attempts, opts.AttemptBurst, opts.attemptClock),
	}
	s.life = remote.NewLifecycle("web", opts.Logger, &s.mu)
	s.warn = s.life.Warn
	s.game = &remote.Game{Addr: opts.GameAddr, Dial: opts.Dial, Latency: opts.Latency, Jitter: opts.Jitter,
		Title: Title, Front: "web", Logger: s.log}
	if s.handler == nil {
		s.handler = s.game.Play
	}
	s.http = &http.Server{
		Handler:           s,
		ReadHeaderTimeout: opts.HandshakeTimeout,
		ReadTimeout:       opts.HandshakeTimeout,
		WriteTimeout:      remote.StallTimeout,
		IdleTimeout:       opts.HandshakeTimeout,
		MaxHeaderBytes:    16 << 10,
		ConnContext:       withMeter,
		ConnState:         s.connState,
		ErrorLog:          stdlog.New(logWriter{s.warn}, "", 0),
	}
	if !pg.built {
		s.log.Warn("the web client was not built: the page says how to build it", "build", buildAdvice)
	}
	return s, nil
}

// logWriter passes the HTTP server's own complaints (a malformed request,
// a TLS handshake) to the summarised log.
type logWriter struct{ warn *ratelog.Log }

func (w logWriter) Write(p []byte) (int, error) {
	w.warn.Warn("http", "http server", "err", string(trimNewline(p)))
	return len(p), nil
}

func trimNewline(p []byte) []byte {
	for len(p) > 0 && (p[len(p)-1] == '\n' || p[len(p)-1] == '\r') {
		p = p[:len(p)-1]
	}
	return p
}

// Addr is the address the server first served on, nil before Serve.
func (s *Server) Addr() net.Addr {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bound
}

// Serve serves the page and its WebSocket on ln until Close, which
// closes ln. It returns ErrServerClosed after Close, or the listener's
// error.
func (s *Server) Serve(ln net.Listener) error {
	s.mu.Lock()
	closed := s.life.ClosedLocked()
	if !closed {
		if s.bound == nil {
			s.bound = ln.Addr()
		}
		s.life.ServingLocked()
	}
	s.mu.Unlock()
	if closed {
		ln.Close()
		return ErrServerClosed
	}
	s.hosts.listen(ln.Addr())
	s.log.Debug("web listening", "addr", ln.Addr().String(),
		"max_sessions", s.opts.MaxSessions, "max_per_addr", s.opts.MaxPerAddr,
		"idle_timeout", s.opts.IdleTimeout, "handshake_timeout", s.opts.HandshakeTimeout, "stall_timeout", s.opts.StallTimeout,
		"max_message", s.opts.MaxMessage, "message_rate", s.opts.MessageRate, "hosts", strings.Join(s.opts.Hosts, ","))
	err := s.http.Serve(admit.Listen(ln, s.admitConn, s.log))
	if errors.Is(err, http.ErrServerClosed) || s.life.Closed() {
		return ErrServerClosed
	}
	return fmt.Errorf("web: %w", err)
}

// Close stops serving, ends every session (each player is told the server
// stopped, and their client leaves the game) and waits for all of the
// server's goroutines, at most the grace period (remote.Lifecycle.Close).
func (s *Server) Close() error {
	return s.life.Close(remote.Closing{
		Stop: s.http.Close, // the listeners, and the connections not yet a session's
		Cut: func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			for so := range s.live {
				so.cut()
			}
		},
	})
}

// inFlight is the bytes in flight toward the pages with flow control.
func (s *Server) inFlight() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	var n int64
	for so := range s.live {
		if f := so.flowOf(); f != nil {
			n += f.inFlight()
		}
	}
	return n
}

// Hurry makes a Close under way, or to come, close at once: the
// operator's second signal (remote.Lifecycle.Hurry).
func (s *Server) Hurry() { s.life.Hurry() }

// Stats are a web front end's counts.
type Stats struct {
	// Resizes counts the page sizes that resized a session's screen.
	Resizes uint64
	// Abandoned counts the sessions Close stopped waiting for: still
	// running after the grace period with their connections closed (see
	// remote.Lifecycle.Close).
	Abandoned uint64
	// Sessions is how many sessions run now.
	Sessions int
	// MaxInFlight is the most bytes of screen that were ever sent to
	// one page with flow control and not yet drawn by it: the most the
	// server had on its way to one page (see flow).
	MaxInFlight int64
	// InFlight is the bytes of screen sent to the pages with flow
	// control and not yet drawn by them, now, in all.
	InFlight int64
	// Skipped counts the screen's writes left out for pages that had not
	// drawn what they were sent; Redraws the whole screens sent to them
	// once they caught up.
	Skipped, Redraws uint64
	// AttemptsRefused counts the WebSockets refused for their address's
	// rate of new ones (Options.Attempts).
	AttemptsRefused uint64
}

// Stats returns the server's counts.
func (s *Server) Stats() Stats {
	return Stats{Resizes: s.resizes.Load(), Abandoned: s.life.Abandoned(), Sessions: s.life.Running(),
		InFlight: s.inFlight(), MaxInFlight: s.flowStats.maxInFlight.Load(), Skipped: s.flowStats.skipped.Load(), Redraws: s.flowStats.redraws.Load(),
		AttemptsRefused: s.attempts.Refused()}
}

// ServeHTTP serves the page (see page) at the addresses of the modes, its
// scripts, and the WebSocket at /ws, each response with the security
// headers.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	secure(w.Header())
	if r.URL.Path == socketPath {
		s.serveSocket(w, r)
		return
	}
	s.page.serveHTTP(w, r)
}

// admitConn applies the caps on open connections to a new connection: one
// over them is turned away at once, before its request (HTTP has no word
// for a server to say before it).
func (s *Server) admitConn(c net.Conn) net.Conn {
	peer, _ := parsePeer(c.RemoteAddr().String())
	key := admit.Key(c.RemoteAddr())
	release, v, refusal := s.takeConn(key, s.trusted(peer.Addr()))
	if release == nil {
		admit.Refuse(s.warn, "web connection refused", c, admit.Refusal{Kind: connRefusals[v], Text: refusal}, nil)
		return nil
	}
	counted, meter := countConn(c)
	return &countedConn{Conn: counted, key: key, release: release, meter: meter}
}

// connRefusals are the kinds of the refusals of connections, for the
// log's summaries.
var connRefusals = map[admit.Verdict]string{admit.PoolFull: "conn_full", admit.AddrFull: "conn_addr", admit.Reserved: "conn_reserved"}

// countedConn is an open connection: it holds its place in the caps until
// closed.
type countedConn struct {
	net.Conn
	key     string      // its address's, for the caps (admit.Key)
	release func()      // gives its place back: once, however often called
	meter   *wire.Meter // what it carries (see countConn)
}

func (c *countedConn) Close() error {
	err := c.Conn.Close()
	c.release()
	return err
}
