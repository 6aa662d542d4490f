package remote

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"gridlag/client"
)

// StallTimeout is how long one write to a client may block (the client
// stopped reading and the connection's window is full) before its
// connection is closed, unless the front end says otherwise
// (Watchdog.Stall).
const StallTimeout = 30 * time.Second

// killGrace is how long a session handler has to return after its session
// was ended before the connection is closed under it.
const killGrace = 5 * time.Second

// KillReason is why a watchdog ended a session; the first one sticks.
type KillReason struct {
	mu     sync.Mutex
	reason string
}

// Set records r, unless a reason was recorded before; it reports whether
// it did.
func (k *KillReason) Set(r string) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.reason != "" {
		return false
	}
	k.reason = r
	return true
}

// Get is the reason recorded, "" if none.
func (k *KillReason) Get() string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.reason
}

// Watchdog ends a session when its player pressed no key for Idle, or its
// client stopped reading: a write blocked for Stall, or, where the
// front end probes its client's reading (Silent: a WebSocket's pings),
// no proof of reading for Stall; the connection is then closed, as only
// that frees a write. If the handler has not returned killGrace after
// the session was ended, it closes the connection.
type Watchdog struct {
	Tty  *Tty
	Idle time.Duration
	// Stall is how long a client may read nothing; StallTimeout if zero
	// or less.
	Stall time.Duration
	// Silent, if set, is how long the client has read nothing as the
	// front end's probe sees it, 0 while that is not in question.
	Silent func(now time.Time) time.Duration
	Killed *KillReason        // where the reason goes
	Cancel context.CancelFunc // ends the session
	Cut    func()             // closes the connection; nil: nothing to close
	Log    *SessionLog
}

// stalledFor is how long the client has read nothing, as far as w can
// tell: the write blocked, or its Silent.
func (w Watchdog) stalledFor(now time.Time) time.Duration {
	d := w.Tty.StalledFor(now)
	if w.Silent != nil {
		d = max(d, w.Silent(now))
	}
	return d
}

// Run watches until done is closed.
func (w Watchdog) Run(done <-chan struct{}) {
	idle := w.Idle
	stall := w.Stall
	if stall <= 0 {
		stall = StallTimeout
	}
	// Checked often enough to end a session within a thirtieth of its
	// time (a second of the default stall time) past it.
	period := min(max(min(idle, stall)/30, 20*time.Millisecond), 5*time.Second)
	tick := time.NewTicker(period)
	defer tick.Stop()
	cut := w.Cut
	if cut == nil {
		cut = func() {}
	}
	var deadline time.Time // when the handler must have returned; zero before the session is ended
	for {
		select {
		case <-done:
			return
		case now := <-tick.C:
			switch {
			case !deadline.IsZero():
				if now.After(deadline) {
					w.Log.Error("session handler did not stop; closing the connection")
					cut()
					return
				}
				continue
			case w.Tty.IdleFor(now) >= idle:
				reason := fmt.Sprintf("disconnected after %s without a key press", idle)
				if w.Killed.Set(reason) {
					w.Log.Warn("idle", "ending session", "reason", "idle timeout")
				}
			case w.stalledFor(now) >= stall:
				if w.Killed.Set("the connection stalled") {
					w.Log.Warn("stalled", "ending session", "reason", fmt.Sprintf("client read nothing for %s", stall))
				}
				cut()
			default:
				continue
			}
			w.Cancel()
			deadline = now.Add(killGrace)
		}
	}
}

// EndReason says why a session ended, for its log and its player, once
// its handler returned err: the watchdog's reason (killed) if it ended the
// session; client.ErrServerStopped's text, status 0, when the game server
// stopped or the front end closed with the process (closing); "" and
// status 0 when the player quit; "connection closed" when the client's
// connection went (gone); else the handler's error. Status is 1 but for
// the stops and a quit.
func EndReason(killed string, err error, closing, gone bool) (reason string, status int) {
	switch {
	case killed != "":
		return killed, 1
	case errors.Is(err, client.ErrServerStopped):
		return err.Error(), 0
	case closing:
		return client.ErrServerStopped.Error(), 0
	case err == nil:
		return "", 0
	case gone:
		return "connection closed", 1
	}
	return err.Error(), 1
}
