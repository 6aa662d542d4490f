package sshd

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/charmbracelet/log"
)

// killGrace is how long a session handler has to return after its session
// was ended before the connection is closed under it.
const killGrace = 5 * time.Second

// watchdog gives the session its context and ends it when the player
// quits (the handler returns), when the connection drops, when the server
// closes, or when watch ends it (idle player, stalled client); the last
// three make the tty's input fail so that the interface stops.
func (s *Server) watchdog(next sessionHandler) sessionHandler {
	return func(ss *session) {
		ctx, cancel := context.WithCancel(s.ctx)
		defer cancel()
		stopConnWatch := context.AfterFunc(ss.Context(), cancel)
		defer stopConnWatch()
		context.AfterFunc(ctx, ss.tty.end)
		ss.ctx = ctx
		done := make(chan struct{})
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.watch(ss.tty, ss.conn, done, &ss.killed, cancel, ss.logger)
		}()
		next(ss)
		close(done)
	}
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
