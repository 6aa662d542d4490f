package remote

import (
	"sync"
	"time"
)

// How long a front end's Close waits, at each step (Lifecycle.Close): the
// grace period, in all CloseGrace plus CutGrace (and HangUp, for a
// front end that waits for its clients to hang up), or HurryGrace a step
// once hurried (a second signal: "closes at once").
const (
	// CloseGrace is how long the sessions have to end by themselves,
	// each player told why.
	CloseGrace = 2 * time.Second
	// CutGrace is how long the sessions, their connections closed, have
	// to end before the front end stops waiting for them.
	CutGrace = time.Second
	// HurryGrace is what is left of a step once the close is hurried.
	HurryGrace = 100 * time.Millisecond
)

// Closing is what Close needs of a front end beside its lifecycle.
type Closing struct {
	// Stop stops the front end's listening (and closes the connections
	// that are no session's); its error is Close's.
	Stop func() error
	// HangUp, if set, are the connections the sessions' clients hang up
	// once their sessions ended with a status, and how long they have to.
	HangUp      *sync.WaitGroup
	HangUpGrace time.Duration
	// Cut closes the connections of the sessions still running.
	Cut func()
}

// Close closes a front end's server, once: a second call waits for the
// first. It stops the listening (c.Stop), tells the sessions to end
// (Ctx), waits CloseGrace for them to end by themselves (then
// c.HangUpGrace for their clients to hang up), closes their connections
// (c.Cut), and waits CutGrace for everything the server started. What
// still runs then (a session held by a defect, its goroutines ignoring
// everything) is left behind: the front end stops waiting for it, says
// how many sessions in one line, and counts them (Abandoned); the
// process exits without them. Once Hurry is called each step waits at
// most HurryGrace more.
func (l *Lifecycle) Close(c Closing) error {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		<-l.closeDone
		return nil
	}
	l.closed = true
	l.mu.Unlock()
	defer close(l.closeDone)
	err := c.Stop()
	l.cancel()
	l.abandoned.Add(uint64(l.closeSessions(c)))
	l.log.Info(l.front + " server closed")
	return err
}

// closeSessions is Close's wait for the sessions: it returns how many
// it left behind.
func (l *Lifecycle) closeSessions(c Closing) (abandoned int) {
	_, inTime := await(&l.Sessions, CloseGrace, l.hurry)
	switch {
	case inTime && c.HangUp != nil:
		await(c.HangUp, c.HangUpGrace, l.hurry)
	case !inTime:
		l.log.Warn(l.front + " sessions still running after the grace period; closing their connections")
	}
	c.Cut()
	if _, inTime := await(&l.WG, CutGrace, l.hurry); inTime {
		return 0
	}
	n := l.Running()
	if n > 0 {
		l.log.Error(l.front+" sessions did not end after their connections were closed; leaving them behind",
			"sessions", n, "waited", CloseGrace+CutGrace)
	}
	return n
}

// await waits for what wg counts to end, at most grace (HurryGrace once
// hurry is closed, if that is sooner); it reports whether they ended,
// and returns a channel closed once they have.
func await(wg *sync.WaitGroup, grace time.Duration, hurry <-chan struct{}) (ended <-chan struct{}, inTime bool) {
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	deadline := time.Now().Add(grace)
	timer := time.NewTimer(grace)
	defer timer.Stop()
	for {
		select {
		case <-done:
			return done, true
		case <-timer.C:
			return done, false
		case <-hurry:
			hurry = nil
			if soon := time.Now().Add(HurryGrace); soon.Before(deadline) {
				timer.Reset(HurryGrace)
			}
		}
	}
}
