package web

import (
	"context"
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
	opts      Options
	log       *log.Logger
	warn      *ratelog.Log // refusals, summarised when they repeat
	game      *remote.Game // the default handler's game, which keeps dropped avatars by identity
	handler   func(ctx context.Context, p *remote.Player) error
	page      *page
	hosts     *hostSet      // the names the server answers to (see host.go)
	sessions  *admit.Slots  // WebSockets, in all and per client address
	conns     *admit.Slots  // open connections, in all and per connection address
	resizes   atomic.Uint64 // page sizes that resized a session's screen (see resizer)
	abandoned atomic.Uint64 // sessions Close stopped waiting for
	flowStats flowStats     // the flow control of the pages that ask for it
	hurry     chan struct{} // closed by Hurry
	hurryOnce sync.Once
	closeDone chan struct{} // closed once Close is over
	http      *http.Server

	ctx    context.Context // done when the server closes
	cancel context.CancelFunc

	mu      sync.Mutex
	closed  bool
	bound   net.Addr // the first listener's address
	live    map[*socket]struct{}
	players map[string]*socket // identity -> its session in play

	wg     sync.WaitGroup // every goroutine the server started
	sessWG sync.WaitGroup // the running sessions
}

// New returns a server ready to Serve; Close ends it.
func New(opts Options) (*Server, error) {
	opts = opts.withDefaults()
	pg, err := newPage(opts.MaxMessage, opts.StallTimeout, distFS)
	if err != nil {
		return nil, err
	}
	s := &Server{
		opts:      opts,
		log:       opts.Logger,
		warn:      ratelog.New(opts.Logger, 0, nil),
		handler:   opts.Handler,
		page:      pg,
		hosts:     newHostSet(opts.Hosts),
		sessions:  admit.NewSlots(opts.MaxSessions, opts.MaxPerAddr, "players", "sessions"),
		conns:     admit.NewSlots(connsPerSession*opts.MaxSessions, connsPerSession*opts.MaxPerAddr, "connections", "connections"),
		live:      make(map[*socket]struct{}),
		hurry:     make(chan struct{}),
		closeDone: make(chan struct{}),
		players:   make(map[string]*socket),
	}
	s.game = &remote.Game{Addr: opts.GameAddr, Dial: opts.Dial, Latency: opts.Latency, Jitter: opts.Jitter,
		Title: Title, Front: "web", Logger: s.log}
	if s.handler == nil {
		s.handler = s.game.Play
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.wg.Add(1)
	go s.flushWarnings()
	s.http = &http.Server{
		Handler:           s,
		ReadHeaderTimeout: opts.HandshakeTimeout,
		ReadTimeout:       opts.HandshakeTimeout,
		WriteTimeout:      remote.StallTimeout,
		IdleTimeout:       opts.HandshakeTimeout,
		MaxHeaderBytes:    16 << 10,
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
	closed := s.closed
	if s.bound == nil && !closed {
		s.bound = ln.Addr()
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
	if errors.Is(err, http.ErrServerClosed) || s.isClosed() {
		return ErrServerClosed
	}
	return fmt.Errorf("web: %w", err)
}

// flushWarnings writes the log's summaries every second until the server
// closes.
func (s *Server) flushWarnings() {
	defer s.wg.Done()
	every := time.NewTicker(time.Second)
	defer every.Stop()
	for {
		select {
		case <-every.C:
			s.warn.Flush()
		case <-s.ctx.Done():
			s.warn.Flush()
			return
		}
	}
}

// Close stops serving, ends every session (each player is told the server
// stopped, and their client leaves the game) and waits for all of the
// server's goroutines.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		<-s.closeDone
		return nil
	}
	s.closed = true
	s.mu.Unlock()
	defer close(s.closeDone)
	err := s.http.Close() // the listeners, and the connections not yet a session's

	s.cancel()
	n := remote.CloseSessions(remote.Closing{
		Front: "web", Sessions: &s.sessWG, All: &s.wg,
		Cut: func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			for so := range s.live {
				so.cut()
			}
		},
		Running: s.running, Hurry: s.hurry, Log: s.log,
	})
	s.abandoned.Add(uint64(n))
	s.log.Info("web server closed")
	return err
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

// running is how many sessions the server runs.
func (s *Server) running() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.live)
}

// Hurry makes a Close under way, or to come, close at once: the
// operator's second signal. The sessions are told to end and their
// connections closed without the grace period; each step of the close
// waits at most remote.HurryGrace more.
func (s *Server) Hurry() { s.hurryOnce.Do(func() { close(s.hurry) }) }

// Stats are a web front end's counts.
type Stats struct {
	// Resizes counts the page sizes that resized a session's screen.
	Resizes uint64
	// Abandoned counts the sessions Close stopped waiting for: still
	// running after the grace period with their connections closed (see
	// remote.CloseSessions).
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
}

// Stats returns the server's counts.
func (s *Server) Stats() Stats {
	return Stats{Resizes: s.resizes.Load(), Abandoned: s.abandoned.Load(), Sessions: s.running(),
		InFlight: s.inFlight(), MaxInFlight: s.flowStats.maxInFlight.Load(), Skipped: s.flowStats.skipped.Load(), Redraws: s.flowStats.redraws.Load()}
}

func (s *Server) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
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
	release, v, refusal := s.conns.Take(admit.Key(c.RemoteAddr()), s.trusted(peer.Addr()))
	if release == nil {
		admit.Refuse(s.warn, "web connection refused", c, admit.Refusal{Kind: connRefusals[v], Text: refusal}, nil)
		return nil
	}
	return &countedConn{Conn: c, release: release}
}

// connRefusals are the kinds of the refusals of connections, for the
// log's summaries.
var connRefusals = map[admit.Verdict]string{admit.PoolFull: "conn_full", admit.AddrFull: "conn_addr", admit.Reserved: "conn_reserved"}

// countedConn is an open connection: it holds its place in the caps until
// closed.
type countedConn struct {
	net.Conn
	release func()
}

func (c *countedConn) Close() error {
	err := c.Conn.Close()
	c.release()
	return err
}
