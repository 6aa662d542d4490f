package remote

import (
	"context"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/charmbracelet/log"

	"gridlag/internal/ratelog"
	"gridlag/server/admit"
)

// Defaults for the caps and timeouts every front end has (sshd.Options,
// web.Options, each of which names them too).
const (
	DefaultMaxSessions      = 64
	DefaultMaxPerAddr       = 16 // a classroom behind one NAT address
	DefaultHandshakeTimeout = 10 * time.Second
	DefaultIdleTimeout      = 30 * time.Minute
)

// SetDefaults gives the caps and timeouts every front end's options have
// their defaults where they are zero or less, and the logger one that
// discards where it is nil.
func SetDefaults(maxSessions, maxPerAddr *int, handshake, idle *time.Duration, logger **log.Logger) {
	*maxSessions = admit.Or(*maxSessions, DefaultMaxSessions)
	*maxPerAddr = admit.Or(*maxPerAddr, DefaultMaxPerAddr)
	*handshake = admit.Or(*handshake, DefaultHandshakeTimeout)
	*idle = admit.Or(*idle, DefaultIdleTimeout)
	if *logger == nil {
		*logger = log.New(io.Discard)
	}
}

// Lifecycle is the life of a front end's server, the same for SSH and
// the web: the context its sessions end with, the count of its
// goroutines and sessions, its warnings summarised and flushed while it
// serves, and its Close in bounded time (Hurry to make it quicker). A
// server holds one, made by NewLifecycle with the server's own lock,
// which guards the lifecycle's state with the server's (its listeners,
// connections, sessions), so that a server checks it is not closing and
// counts what it starts in one step.
type Lifecycle struct {
	// Ctx is done once Close begins; each session's context derives
	// from it.
	Ctx context.Context
	// Warn is the server's log of refusals and failures, summarised
	// when they repeat; flushed every second once the server serves.
	Warn *ratelog.Log
	// WG counts every goroutine the server started; Sessions, within it,
	// the running sessions (Track).
	WG, Sessions sync.WaitGroup

	front   string // "ssh", "web", for the log
	log     *log.Logger
	mu      sync.Locker // the server's lock: guards closed and serving
	cancel  context.CancelFunc
	closed  bool
	serving bool // the warnings' flush runs

	running   atomic.Int64  // sessions running
	abandoned atomic.Uint64 // sessions Close stopped waiting for
	hurry     chan struct{} // closed by Hurry
	hurryOnce sync.Once
	closeDone chan struct{} // closed once Close is over
}

// NewLifecycle returns the lifecycle of a front end's server (front names
// it in the log: "ssh", "web"), logging to logger, its state guarded by
// mu, the server's lock.
func NewLifecycle(front string, logger *log.Logger, mu sync.Locker) *Lifecycle {
	l := &Lifecycle{Warn: ratelog.New(logger, 0, nil), front: front, log: logger, mu: mu,
		hurry: make(chan struct{}), closeDone: make(chan struct{})}
	l.Ctx, l.cancel = context.WithCancel(context.Background())
	return l
}

// ClosedLocked reports whether Close has begun; the server's lock is
// held.
func (l *Lifecycle) ClosedLocked() bool { return l.closed }

// Closed reports whether Close has begun.
func (l *Lifecycle) Closed() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.closed
}

// Track counts one more goroutine of the server (in WG), and one more
// session (in Sessions too) if session is set, unless the server is
// closing: then it counts nothing and returns false. Untrack undoes it.
func (l *Lifecycle) Track(session bool) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.TrackLocked(session)
}

// TrackLocked is Track with the server's lock held.
func (l *Lifecycle) TrackLocked(session bool) bool {
	if l.closed {
		return false
	}
	l.WG.Add(1)
	if session {
		l.Sessions.Add(1)
		l.running.Add(1)
	}
	return true
}

// Untrack counts out what Track counted.
func (l *Lifecycle) Untrack(session bool) {
	if session {
		l.running.Add(-1)
		l.Sessions.Done()
	}
	l.WG.Done()
}

// Running is how many sessions run now.
func (l *Lifecycle) Running() int { return int(l.running.Load()) }

// Abandoned is how many sessions Close stopped waiting for.
func (l *Lifecycle) Abandoned() uint64 { return l.abandoned.Load() }

// ServingLocked starts, once, the flush of the warnings' summaries every
// second until Close, counted in WG; the server's lock is held and the
// server is not closing (the caller checked). A server calls it as it
// starts to serve, before it says where it listens, so that a caller who
// waited for that counts it among the server's goroutines.
func (l *Lifecycle) ServingLocked() {
	if l.serving {
		return
	}
	l.serving = true
	l.WG.Go(func() {
		every := time.NewTicker(time.Second)
		defer every.Stop()
		for {
			select {
			case <-every.C:
				l.Warn.Flush()
			case <-l.Ctx.Done():
				l.Warn.Flush()
				return
			}
		}
	})
}

// Hurry makes a Close under way, or to come, close at once: the
// operator's second signal. The sessions are told to end and their
// connections closed without the grace period; each step of the close
// waits at most HurryGrace more.
func (l *Lifecycle) Hurry() { l.hurryOnce.Do(func() { close(l.hurry) }) }
