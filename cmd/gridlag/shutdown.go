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

// shutdown is how a headless server stops after its first signal (or
// Agones's Shutdown): every player and spectator is warned, "server
// stopping in 10 s", counting down, and the game goes on for drain,
// newcomers refused, unless a second signal comes first; then the caller
// closes the server, which tells everyone it stopped.
//
// It says stopping, never restarting, whatever asked for it: gridlag
// never starts itself again, and what a service manager or Agones does
// next (a new process, or a new game server at another address) is not
// this server coming back.
type shutdown struct {
	drain  time.Duration
	after  func(time.Duration) <-chan time.Time // time.After, or a test's clock
	notify func(left time.Duration)             // begins the countdown: server.Server.Drain
	log    *log.Logger
}

// run warns the players and waits for the drain to end or for a second
// signal on sigs.
func (sd shutdown) run(sigs <-chan os.Signal) {
	if sd.drain <= 0 {
		return
	}
	sd.notify(sd.drain)
	select {
	case <-sd.after(sd.drain):
		sd.log.Info("drained, closing")
	case sig := <-sigs:
		sd.log.Info("second signal, closing at once", "signal", sig.String())
	}
}
