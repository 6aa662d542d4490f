package sshd

import (
	"context"
	"fmt"
	"io"
	"net"
	"runtime/debug"
	"sync"
	"time"

	"github.com/charmbracelet/log"
	"github.com/gdamore/tcell/v2"
	"github.com/gliderlabs/ssh"
)

// killGrace is how long a session handler has to return after its session
// was ended before the connection is closed under it.
const killGrace = 5 * time.Second

// handleSession runs one SSH session: the checks, then the handler on a
// screen bound to the session, then the exit status.
func (s *Server) handleSession(sess ssh.Session) {
	if !s.trackSession() {
		sess.Exit(1)
		return
	}
	defer s.wg.Done()
	defer s.sessWG.Done()

	begun := time.Now()
	name := PlayerName(sess.User())
	remote := sess.RemoteAddr()
	logger := s.log.With("user", name, "remote", remote.String())
	tc, _ := sess.Context().Value(connKey{}).(*trackedConn)
	if tc != nil {
		tc.sessionStarted()
		defer tc.sessionEnded()
	}

	port := 2222
	if a, ok := sess.LocalAddr().(*net.TCPAddr); ok {
		port = a.Port
	}
	ptyReq, winCh, isPty := sess.Pty()
	if sess.RawCommand() != "" {
		refuse(sess, isPty, logger, "command refused",
			fmt.Sprintf("gridlag runs only the game, not commands: connect with ssh -p %d host", port))
		return
	}
	if !isPty {
		refuse(sess, false, logger, "no terminal",
			fmt.Sprintf("gridlag needs a terminal: connect with ssh -t -p %d host", port))
		return
	}
	release, refusal := s.acquireSession(hostOf(remote))
	if refusal != "" {
		refuse(sess, true, logger, refusal, "gridlag: "+refusal)
		return
	}
	defer release()

	ti, termName, err := lookupTerm(ptyReq.Term)
	if err != nil {
		refuse(sess, true, logger, err.Error(), "gridlag: the server cannot drive your terminal")
		return
	}
	tty := newChannelTty(sess, clampWindow(ptyReq.Window.Width, ptyReq.Window.Height))
	screen, err := tcell.NewTerminfoScreenFromTtyTerminfo(tty, ti)
	if err != nil {
		refuse(sess, true, logger, err.Error(), "gridlag: the server cannot drive your terminal")
		return
	}
	s.wg.Add(2)
	go func() {
		defer s.wg.Done()
		tty.pump(sess)
	}()
	go func() {
		defer s.wg.Done()
		for w := range winCh {
			tty.setWindow(w.Width, w.Height)
		}
	}()

	p := &Player{Screen: screen, User: name, RemoteAddr: remote}
	fp, color, hasKey := authedKey(sess)
	if hasKey {
		p.Fingerprint, p.Color = fp, color
	} else {
		p.Color = NameColor(name)
		fp = "none"
	}
	logger.Info("session start", "key", fp, "color", p.Color, "term", termName,
		"size", fmt.Sprintf("%dx%d", ptyReq.Window.Width, ptyReq.Window.Height))

	// The session ends when the player quits (the handler returns), when
	// the connection drops, when the server closes, or when the watchdog
	// ends it; the last three make the tty's input fail so that the
	// interface stops.
	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	stopConnWatch := context.AfterFunc(sess.Context(), cancel)
	defer stopConnWatch()
	context.AfterFunc(ctx, tty.end)
	var killed killReason
	done := make(chan struct{})
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.watch(tty, tc, done, &killed, cancel, logger)
	}()

	herr := runHandler(ctx, s.handler, p, logger)
	close(done)
	if started, closed := tty.state(); started && !closed {
		screen.Fini()
	}

	reason := killed.get()
	switch {
	case reason != "":
	case s.ctx.Err() != nil:
		reason = "server shutting down"
	case herr == nil:
		reason = "quit"
	case sess.Context().Err() != nil, tty.inputEnded.Load():
		reason = "connection closed"
	default:
		reason = herr.Error()
	}
	logger.Info("session end", "reason", reason, "duration", time.Since(begun).Round(time.Millisecond))
	if reason == "quit" {
		sess.Exit(0)
		return
	}
	io.WriteString(sess, "gridlag: "+reason+"\n")
	sess.Exit(1)
}

// refuse tells the client why its session cannot run and ends it with exit
// status 1. Without a terminal the line goes to the client's stderr; with
// one, to the terminal (the session turns "\n" into "\r\n").
func refuse(sess ssh.Session, pty bool, logger *log.Logger, reason, message string) {
	logger.Warn("session refused", "reason", reason)
	if pty {
		io.WriteString(sess, message+"\n")
	} else {
		io.WriteString(sess.Stderr(), message+"\n")
	}
	sess.Exit(1)
}

// runHandler runs the session handler, turning a panic into an error so
// that one session's failure cannot take the server down.
func runHandler(ctx context.Context, h func(context.Context, *Player) error, p *Player, logger *log.Logger) (err error) {
	defer func() {
		if r := recover(); r != nil {
			logger.Error("session handler panicked", "panic", r, "stack", string(debug.Stack()))
			err = fmt.Errorf("internal error")
		}
	}()
	return h(ctx, p)
}

// killReason is why the watchdog ended a session; the first one sticks.
type killReason struct {
	mu     sync.Mutex
	reason string
}

func (k *killReason) set(r string) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.reason != "" {
		return false
	}
	k.reason = r
	return true
}

func (k *killReason) get() string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.reason
}

// watch ends the session when its player pressed no key for IdleTimeout,
// or its client stopped reading (a write blocked for writeStallTimeout: the
// connection is closed, as only that frees the write). If the handler has
// not returned killGrace after the session was ended, it closes the
// connection. It returns when done is closed.
func (s *Server) watch(tty *channelTty, tc *trackedConn, done <-chan struct{}, killed *killReason, cancel context.CancelFunc, logger *log.Logger) {
	idle := s.opts.IdleTimeout
	period := min(max(idle/4, 20*time.Millisecond), 5*time.Second)
	tick := time.NewTicker(period)
	defer tick.Stop()
	var deadline time.Time // when the handler must have returned; zero before the session is ended
	for {
		select {
		case <-done:
			return
		case now := <-tick.C:
			switch {
			case !deadline.IsZero():
				if now.After(deadline) {
					logger.Error("session handler did not stop; closing the connection")
					if tc != nil {
						tc.Close()
					}
					return
				}
				continue
			case tty.idleFor(now) >= idle:
				reason := fmt.Sprintf("disconnected after %s without a key press", idle)
				if killed.set(reason) {
					logger.Warn("ending session", "reason", "idle timeout")
				}
			case tty.stalledFor(now) >= writeStallTimeout:
				if killed.set("the connection stalled") {
					logger.Warn("ending session", "reason", fmt.Sprintf("client read nothing for %s", writeStallTimeout))
				}
				if tc != nil {
					tc.Close()
				}
			default:
				continue
			}
			cancel()
			deadline = now.Add(killGrace)
		}
	}
}
