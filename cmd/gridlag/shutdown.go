package main

import (
	"os"
	"syscall"
	"time"

	"github.com/charmbracelet/log"
)

// stopSignals end gridlag: Ctrl-C, SIGTERM (a service manager), SIGHUP
// (the terminal went away).
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// exitGrace is how long the process has to close after the signal that
// asked it to close at once, before it exits whatever holds it.
const exitGrace = time.Second

// shutdown is how a headless server stops after its first signal (or
// Agones's Shutdown): every player and spectator is warned, "server
// stopping in 10 s", counting down, and the game goes on for drain,
// newcomers refused, unless a second signal comes first; then the caller
// closes the server, which tells everyone it stopped. The front ends give
// their sessions a grace period to end (remote.CloseSessions) and leave
// those that will not behind, so the process exits within the drain and
// the grace. A second signal, during the drain or the close, closes at
// once: the grace is cut short (hurry), and should the close still not
// be over exitGrace later the process exits regardless.
//
// It says stopping, never restarting, whatever asked for it: gridlag
// never starts itself again, and what a service manager or Agones does
// next (a new process, or a new game server at another address) is not
// this server coming back.
type shutdown struct {
	drain  time.Duration
	after  func(time.Duration) <-chan time.Time // time.After, or a test's clock
	notify func(left time.Duration)             // begins the countdown: server.Server.Drain
	hurry  func()                               // cuts the close's grace short (game.hurry); nil: nothing to cut
	closed <-chan struct{}                      // closed once the server closed (game.closed); nil: never
	exit   func(code int)                       // os.Exit; nil: no exit but the caller's
	log    *log.Logger
}

// run warns the players and waits for the drain to end or for a second
// signal on sigs. A signal that comes later, while the server closes,
// closes at once too.
func (sd shutdown) run(sigs <-chan os.Signal) {
	if sd.drain > 0 {
		sd.notify(sd.drain)
		select {
		case <-sd.after(sd.drain):
			sd.log.Info("drained, closing")
		case sig := <-sigs:
			sd.log.Info("second signal, closing at once", "signal", sig.String())
			sd.atOnce()
			return
		}
	}
	go func() {
		select {
		case sig := <-sigs:
			sd.log.Info("second signal, closing at once", "signal", sig.String())
			sd.atOnce()
		case <-sd.closed:
		}
	}()
}

// atOnce cuts the close's grace short, and exits the process exitGrace
// later if the close is not over by then.
func (sd shutdown) atOnce() {
	if sd.hurry != nil {
		sd.hurry()
	}
	if sd.exit == nil {
		return
	}
	go func() {
		select {
		case <-sd.closed:
		case <-time.After(exitGrace):
			sd.log.Error("still closing after the signal that asked to close at once; exiting now", "waited", exitGrace)
			sd.exit(1)
		}
	}()
}
