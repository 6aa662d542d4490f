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
	// people, if set, counts the people connected (server.Server.People):
	// with none (a server of bots alone) there is nobody to warn and no
	// drain, and the drain ends once the last has left (checked every
	// peopleCheck).
	people func() int
	log    *log.Logger
}

// peopleCheck is how often a drain checks whether anyone is left to warn.
const peopleCheck = time.Second

// run warns the players and waits for the drain to end, for a second
// signal on sigs or for everyone to leave.
func (sd shutdown) run(sigs <-chan os.Signal) {
	if sd.drain <= 0 {
		return
	}
	if sd.people != nil && sd.people() == 0 {
		sd.log.Info("no player or spectator to warn (bots alone): closing without the drain", "drain", sd.drain)
		return
	}
	sd.notify(sd.drain)
	end := sd.after(sd.drain)
	for {
		var check <-chan time.Time
		if sd.people != nil {
			check = sd.after(peopleCheck)
		}
		select {
		case <-end:
			sd.log.Info("drained, closing")
			return
		case sig := <-sigs:
			sd.log.Info("second signal, closing at once", "signal", sig.String())
			return
		case <-check:
			if sd.people() == 0 {
				sd.log.Info("every player and spectator left: closing before the drain's end")
				return
			}
		}
	}
}
