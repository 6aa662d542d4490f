package remote

import (
	"sync"
	"time"

	"github.com/charmbracelet/log"
)

// How long a front end's Close waits, at each step of CloseSessions: the
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

// Closing is what CloseSessions needs of a front end whose sessions it
// ends.
type Closing struct {
	Front    string          // the front end, for the log: "ssh", "web"
	Sessions *sync.WaitGroup // the running sessions
	All      *sync.WaitGroup // every goroutine the front end started
	// HangUp, if set, are the connections the sessions' clients hang up
	// once their sessions ended with a status, and how long they have to.
	HangUp      *sync.WaitGroup
	HangUpGrace time.Duration
	Cut         func()     // closes the connections of the sessions still running
	Running     func() int // how many sessions still run
	Hurry       <-chan struct{}
	Log         *log.Logger
}

// CloseSessions ends a front end's sessions, once its Close stopped
// listening and told them to end: it waits CloseGrace for them to end by
// themselves (then HangUpGrace for their clients to hang up), closes
// their connections, and waits CutGrace for everything the front end
// started. What still runs then (a session held by a defect, its
// goroutines ignoring everything) is left behind: the front end stops
// waiting for it, says how many sessions in one line, and returns their
// number; the process exits without them. Once Hurry is closed each step
// waits at most HurryGrace more.
func CloseSessions(c Closing) (abandoned int) {
	_, inTime := await(c.Sessions, CloseGrace, c.Hurry)
	switch {
	case inTime && c.HangUp != nil:
		await(c.HangUp, c.HangUpGrace, c.Hurry)
	case !inTime:
		c.Log.Warn(c.Front + " sessions still running after the grace period; closing their connections")
	}
	c.Cut()
	if _, inTime := await(c.All, CutGrace, c.Hurry); inTime {
		return 0
	}
	n := c.Running()
	if n > 0 {
		c.Log.Error(c.Front+" sessions did not end after their connections were closed; leaving them behind",
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
