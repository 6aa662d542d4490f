package sshd

import (
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/charmbracelet/log"
	"github.com/gliderlabs/ssh"
	gossh "golang.org/x/crypto/ssh"

	"gridlag/front/remote"
	"gridlag/internal/ratelog"
	"gridlag/server/admit"
)

// ErrServerClosed is returned by Serve and ListenAndServe after Close.
var ErrServerClosed = errors.New("sshd: server closed")

// hangUpGrace is how long Close, once the sessions ended, lets their
// clients close their connections before it closes them.
const hangUpGrace = time.Second

// Server is the SSH front end. Create it with New.
type Server struct {
	opts    Options
	log     *log.Logger
	warn    *ratelog.Log // refusals and failed handshakes, summarised when they repeat (life's)
	signer  gossh.Signer
	fp      string
	ssh     *ssh.Server
	handler remote.Handler
	game    *remote.Game // the default handler's game, which keeps dropped avatars by key
	clock   remote.Clock // the sessions' pacing runs on it
	// life is the server's context, goroutines (wg), session handlers,
	// close and warnings, as the web front end's; guarded by mu.
	life *remote.Lifecycle

	mu        sync.Mutex
	listeners map[net.Listener]struct{}
	conns     map[*trackedConn]struct{}
	open      admit.Pool   // open connections
	shaking   admit.Pool   // connections without a session channel yet
	sessions  *admit.Slots // game sessions, under the same rules
	refused   counts
	resizes   atomic.Uint64  // window changes that resized a screen
	connWG    sync.WaitGroup // the connections being served (HandleConn)
	// attempts is the rate of new connections per address (attempts.go).
	attempts *admit.Attempts
}

// New loads the host key (creating it on first start) and returns a server
// ready to Serve.
func New(opts Options) (*Server, error) {
	opts = opts.withDefaults()
	signer, created, err := loadOrCreateHostKey(opts.HostKeyPath)
	if err != nil {
		return nil, err
	}
	s := &Server{
		opts:      opts,
		log:       opts.Logger,
		signer:    signer,
		fp:        gossh.FingerprintSHA256(signer.PublicKey()),
		handler:   opts.Handler,
		clock:     remote.WallClock(),
		listeners: make(map[net.Listener]struct{}),
		conns:     make(map[*trackedConn]struct{}),
		open:      admit.NewPool(2*opts.MaxSessions, 2*opts.MaxPerAddr),
		shaking:   admit.NewPool(opts.MaxHandshakes, opts.MaxHandshakesPerAddr),
		sessions:  admit.NewSlots(opts.MaxSessions, opts.MaxPerAddr, "players", "sessions"),
		attempts:  admit.NewAttempts(opts.Attempts, opts.AttemptBurst, opts.attemptClock),
	}
	s.life = remote.NewLifecycle("ssh", opts.Logger, &s.mu)
	s.warn = s.life.Warn
	if created {
		s.log.Info("created ssh host key", "path", opts.HostKeyPath, "fingerprint", s.fp)
	}
	s.game = &remote.Game{Addr: opts.GameAddr, Dial: opts.Dial, DialTeacher: opts.DialTeacher, Latency: opts.Latency, Jitter: opts.Jitter,
		Title: Title, Front: "ssh", Logger: s.log, Recordings: opts.Recordings,
		Fetch: "ssh -p PORT HOST " + RecordingCommand, JoinCode: opts.JoinCode}
	if s.handler == nil {
		s.handler = s.game.Play
	}
	s.ssh = &ssh.Server{
		Handler:                    s.handleSession,
		HostSigners:                []ssh.Signer{signer},
		Version:                    "gridlag",
		KeyboardInteractiveHandler: acceptKeyboardInteractive,
		ServerConfigCallback:       serverConfig,
		ConnCallback:               attachConn,
		ConnectionFailedCallback:   s.handshakeFailed,
		ChannelHandlers:            map[string]ssh.ChannelHandler{"session": s.sessionChannel},
		RequestHandlers:            map[string]ssh.RequestHandler{},
		SubsystemHandlers:          map[string]ssh.SubsystemHandler{},
	}
	return s, nil
}

// HostKeyFingerprint is the SHA256 fingerprint of the server's host key,
// as ssh shows it on first connection.
func (s *Server) HostKeyFingerprint() string { return s.fp }

// ListenAndServe listens on Options.Addr and serves until Close.
func (s *Server) ListenAndServe() error {
	ln, err := net.Listen("tcp", s.opts.Addr)
	if err != nil {
		return fmt.Errorf("sshd: %w", err)
	}
	return s.Serve(ln)
}

// Addr is the address of the listener the server serves on, nil before
// Serve.
func (s *Server) Addr() net.Addr {
	s.mu.Lock()
	defer s.mu.Unlock()
	for ln := range s.listeners {
		return ln.Addr()
	}
	return nil
}

// Serve accepts SSH connections on ln until Close; it closes ln. It
// returns ErrServerClosed after Close, or the listener's error.
func (s *Server) Serve(ln net.Listener) error {
	al := admit.Listen(ln, s.admitConn, s.log)
	s.mu.Lock()
	if s.life.ClosedLocked() {
		s.mu.Unlock()
		ln.Close()
		return ErrServerClosed
	}
	s.listeners[al] = struct{}{}
	s.life.ServingLocked()
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.listeners, al)
		s.mu.Unlock()
		al.Close()
	}()

	s.log.Debug("ssh listening", "addr", ln.Addr().String(), "hostkey", s.fp,
		"max_sessions", s.opts.MaxSessions, "max_per_addr", s.opts.MaxPerAddr,
		"max_handshakes", s.opts.MaxHandshakes, "max_handshakes_per_addr", s.opts.MaxHandshakesPerAddr,
		"idle_timeout", s.opts.IdleTimeout, "handshake_timeout", s.opts.HandshakeTimeout)
	for {
		c, err := al.Accept()
		if err != nil {
			if s.life.Closed() {
				return ErrServerClosed
			}
			return fmt.Errorf("sshd: accept: %w", err)
		}
		go func() {
			defer s.life.WG.Done()
			defer s.connWG.Done()
			s.ssh.HandleConn(c)
		}()
	}
}

// Close stops accepting connections, ends every session (each player's
// client leaves the game) and waits for all of the server's goroutines,
// at most the grace period (remote.Lifecycle.Close).
//
// Every session is ended first, so that players are told why and get an
// exit status; then the connections are closed, which also frees
// sessions stuck writing to clients that stopped reading. Each session
// ended with its exit status, which its client hangs up on: the clients
// hang up first, so that none finds its connection reset before
// (OpenSSH then exits 255, whatever the status it was sent).
func (s *Server) Close() error {
	var conns []*trackedConn
	return s.life.Close(remote.Closing{
		Stop: func() error {
			s.mu.Lock()
			defer s.mu.Unlock()
			var err error
			for ln := range s.listeners {
				if cerr := ln.Close(); cerr != nil && err == nil {
					err = cerr
				}
			}
			for c := range s.conns {
				conns = append(conns, c)
			}
			return err
		},
		HangUp: &s.connWG, HangUpGrace: hangUpGrace,
		Cut: func() {
			for _, c := range conns {
				c.Close()
			}
		},
	})
}

// Hurry makes a Close under way, or to come, close at once: the
// operator's second signal (remote.Lifecycle.Hurry).
func (s *Server) Hurry() { s.life.Hurry() }

// admitConn applies the connection caps to a new connection: it returns
// the connection tracked, counted as in its handshake, and counted in
// the server's goroutines for its HandleConn goroutine, or nil once it refused it. When the
// handshakes' pool is full, a newcomer from an address holding fewer of
// them than another address takes the place of that address's oldest
// pending handshake, which is closed.
func (s *Server) admitConn(c net.Conn) net.Conn {
	host, key := admit.Host(c.RemoteAddr()), admit.Key(c.RemoteAddr())
	if s.refuseAttempt(c, key) {
		return nil
	}
	s.mu.Lock()
	r := s.connRefusal(key)
	var evicted *trackedConn
	if r.Kind == KindShakeFull {
		if evicted = s.evictionFor(key); evicted != nil {
			r = admit.Refusal{}
		}
	}
	if r.Refused() {
		s.mu.Unlock()
		s.refuseConn(c, r)
		return nil
	}
	tc := &trackedConn{Conn: c, srv: s, host: host, key: key, shaking: true, since: time.Now()}
	s.conns[tc] = struct{}{}
	s.open.Take(key)
	s.shaking.Take(key)
	s.life.WG.Add(1)
	s.connWG.Add(1)
	tc.mu.Lock()
	tc.armLocked()
	tc.mu.Unlock()
	s.mu.Unlock()
	if evicted != nil {
		s.refused.add(KindShakeEvicted)
		s.warn.Warn("evicted "+evicted.key, "closing connection", "remote", evicted.RemoteAddr().String(), "reason", evicted.closeReason())
		evicted.Close()
	}
	return tc
}

// connRefusal says why a new connection from the address of key key is
// refused (its kind one of RefusalKinds), or admits it. s.mu is held.
func (s *Server) connRefusal(key string) admit.Refusal {
	if s.life.ClosedLocked() {
		return admit.Refusal{Kind: KindClosing, Text: "the server is shutting down"}
	}
	if r := s.open.Refusal(key, openWords); r.Refused() {
		return r
	}
	return s.shaking.Refusal(key, shakingWords)
}

// openWords and shakingWords say the refusals of the pools of open
// connections and of handshakes.
var (
	openWords = admit.Words{
		admit.PoolFull: {Kind: KindConnFull, Text: "the server is busy (%d connections): try again later"},
		admit.AddrFull: {Kind: KindConnAddr, Text: "too many connections from your address (%d): close one and try again"},
		admit.Reserved: {Kind: KindConnReserved, Text: "the server is nearly busy and keeps its last connections for other addresses (yours has %d): close one and try again"},
	}
	shakingWords = admit.Words{
		admit.PoolFull: {Kind: KindShakeFull, Text: "too many connections in their handshake (%d): try again in a few seconds"},
		admit.AddrFull: {Kind: KindShakeAddr, Text: "too many connections from your address in their handshake (%d): try again in a few seconds"},
		admit.Reserved: {Kind: KindShakeReserved, Text: "too many connections in their handshake, and yours has %d of them: try again in a few seconds"},
	}
)

// evictionFor picks the pending handshake to close so that a newcomer
// from the address of key fits in the full pool: the oldest of the
// address holding the most, if that address holds at least two more than
// key's (so an eviction always evens the pool out, never swaps two equal
// holders back and forth). The victim is counted out of the handshakes
// now and told why; the caller closes it once s.mu is released. nil if
// no address holds enough more. s.mu is held.
func (s *Server) evictionFor(key string) *trackedConn {
	heavy, held := s.shaking.Heaviest()
	if held < s.shaking.Held(key)+2 {
		return nil
	}
	var victim *trackedConn
	for c := range s.conns {
		if c.shaking && c.key == heavy && (victim == nil || c.since.Before(victim.since)) {
			victim = c
		}
	}
	if victim == nil {
		return nil
	}
	s.endHandshakeLocked(victim)
	victim.cut(fmt.Sprintf("evicted: the %d handshakes are full and your address holds %d of them", s.opts.MaxHandshakes, held))
	return victim
}

// refuseConn counts a refused connection and turns it away, telling it
// why in a line before the SSH banner (which the protocol allows and ssh
// -v shows).
func (s *Server) refuseConn(c net.Conn, r admit.Refusal) {
	s.refused.add(r.Kind)
	admit.Refuse(s.warn, "connection refused", c, r, []byte("gridlag: connection refused: "+r.Text+"\r\n"))
}

// Stats returns the server's counts of refusals, cuts and evictions by
// kind.
func (s *Server) Stats() Stats {
	return Stats{Refused: s.refused.snapshot(), Resizes: s.resizes.Load(), Abandoned: s.life.Abandoned(), Sessions: s.life.Running()}
}

// endHandshake counts connection c as past its handshake: it has opened a
// session channel.
func (s *Server) endHandshake(c *trackedConn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.endHandshakeLocked(c)
}

func (s *Server) endHandshakeLocked(c *trackedConn) {
	if !c.shaking {
		return
	}
	c.shaking = false
	s.shaking.Give(c.key)
}

// releaseConn forgets a closed connection.
func (s *Server) releaseConn(c *trackedConn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.conns[c]; !ok {
		return
	}
	delete(s.conns, c)
	s.open.Give(c.key)
	s.endHandshakeLocked(c)
}

// acquireSession applies the session caps (admit.Slots) to a session
// from the address of key key, or of the class of key key (a session
// whose login is a class's code, held to the cap in all only); on success the caller must call the
// returned release when the session ends, else kind (one of RefusalKinds)
// and refusal say why not.
func (s *Server) acquireSession(key string, class bool) (release func(), kind, refusal string) {
	if s.life.Closed() {
		return nil, KindClosing, "the server is shutting down"
	}
	release, v, refusal := s.sessions.Take(key, class)
	if release != nil {
		return release, "", ""
	}
	kind = map[admit.Verdict]string{admit.PoolFull: KindSessionFull, admit.AddrFull: KindSessionAddr, admit.Reserved: KindSessionReserved}[v]
	s.refused.add(kind)
	return nil, kind, refusal
}

// sessionChannel handles a new "session" channel: gliderlabs' session
// handling, with the channel's requests filtered and the goroutine counted.
func (s *Server) sessionChannel(srv *ssh.Server, conn *gossh.ServerConn, nc gossh.NewChannel, ctx ssh.Context) {
	if !s.life.Track(false) {
		nc.Reject(gossh.ResourceShortage, "server closing")
		return
	}
	defer s.life.Untrack(false)
	if tc, _ := ctx.Value(connKey{}).(*trackedConn); tc != nil {
		s.endHandshake(tc)
		if !tc.openChannel() {
			text := fmt.Sprintf("at most %d session channels on one connection", MaxChannelsPerConn)
			s.warn.Warn("channel refused "+tc.host, "channel refused", "remote", conn.RemoteAddr().String(), "reason", text)
			nc.Reject(gossh.ResourceShortage, text)
			return
		}
		defer tc.closeChannel()
	}
	ssh.DefaultSessionHandler(srv, conn, filteredChannel{NewChannel: nc, srv: s,
		remote: conn.RemoteAddr().String(), key: admit.Key(conn.RemoteAddr()), cut: conn.Close}, ctx)
}

// handshakeFailed logs a connection whose SSH handshake failed, summarised
// when it repeats. One the watchdog cut was logged then, with its reason:
// its failed handshake is not news.
func (s *Server) handshakeFailed(c net.Conn, err error) {
	if errors.As(err, new(cutError)) {
		return
	}
	s.warn.Warn("handshake failed "+admit.Key(c.RemoteAddr()), "ssh handshake failed", "remote", c.RemoteAddr().String(), "err", err)
}
