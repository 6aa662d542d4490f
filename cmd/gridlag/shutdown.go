package main

import (
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/charmbracelet/log"
)

// stopSignals end gridlag: Ctrl-C, SIGTERM (a service manager), SIGHUP
// (the terminal went away).
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// shutdown is how a headless server stops after its first signal: every
// player is warned ("server restarting in 10 s") and the game goes on for
// drain, newcomers refused, unless a second signal comes first; then the
// caller closes the server.
type shutdown struct {
	drain  time.Duration
	after  func(time.Duration) <-chan time.Time // time.After, or a test's clock
	notify func(text string)                    // tells every player
	log    *log.Logger
}

// run warns the players and waits for the drain to end or for a second
// signal on sigs.
func (sd shutdown) run(sigs <-chan os.Signal) {
	if sd.drain <= 0 {
		return
	}
	sd.notify(restartNotice(sd.drain))
	select {
	case <-sd.after(sd.drain):
		sd.log.Info("drained, closing")
	case sig := <-sigs:
		sd.log.Info("second signal, closing at once", "signal", sig.String())
	}
}

// restartNotice is what players are told, in whole seconds when it is
// whole.
func restartNotice(d time.Duration) string {
	return fmt.Sprintf("server restarting in %g s", d.Round(100*time.Millisecond).Seconds())
}
