package host

import (
	"context"
	"sync"
	"time"
)

// ExitGrace is how long the process has to close after the signal that
// asked it to close at once, before it exits whatever holds it
// (Config.Exit).
const ExitGrace = time.Second

// Run starts the services (Start) and serves until ctx ends (a signal:
// see Signals), a service fails or, for an Agones game server, Agones
// says Shutdown; then it stops them (Stop). A clean stop returns nil; a
// service's failure returns its error, the others closed.
func Run(ctx context.Context, c Config) error {
	h, err := Start(c)
	if err != nil {
		return err
	}
	defer h.Close()
	if h.ag != nil {
		return h.serveAgones(ctx)
	}
	select {
	case <-ctx.Done():
		h.Stop(Why(ctx)...)
		return nil
	case err := <-h.failed:
		return cleanStop(err)
	}
}

// The shutdown: Stop is the one way a server ends after a signal (or its
// teacher quitting, or Agones's Shutdown, which run its two steps, drain
// and Close, themselves).
//
//  1. drain: every player and spectator is warned, "server stopping in
//     10 s", counting down, newcomers are refused, and the game goes on
//     for Config.Drain, unless a signal on Config.Hurry (a second Ctrl-C
//     or SIGTERM) ends it at once, or the last player or spectator
//     leaves; a server with nobody to warn (its bots alone) skips it;
//  2. Close: each service is closed in order, the bots, the summaries,
//     the metrics and health pages, the SSH and web front ends side by
//     side (each gives its sessions the same grace period, once, and
//     leaves those that will not end behind: remote.Lifecycle.Close), then
//     the game server, which tells everyone it stopped. A signal on
//     Config.Hurry during the drain or the close closes at once: the
//     grace is cut short and, should the close still not be over
//     ExitGrace later, Config.Exit ends the process regardless.
//
// It says stopping, never restarting, whatever asked for it: gridlag
// never starts itself again, and what a service manager or Agones does
// next (a new process, or a new game server at another address) is not
// this server coming back.

// Stop logs why the server stops (keys and values, e.g. Why's), then
// drains and closes it.
func (h *Host) Stop(why ...any) {
	h.log.Info("shutting down", append(why, "drain", h.cfg.Drain)...)
	h.drain()
	h.Close()
}

// PeopleCheck is how often a drain looks whether anyone is left to warn.
const PeopleCheck = time.Second

// drain warns the players and waits for the drain to end, for a signal
// on Config.Hurry or for everyone to leave. A server with nobody to warn
// (its bots alone: server.Server.People) does not drain.
func (h *Host) drain() {
	if d := h.cfg.Drain; d > 0 {
		if h.srv.People() == 0 {
			h.log.Info("no player or spectator to warn (bots alone): closing without the drain", "drain", d)
		} else if h.waitDrain(d) {
			return
		}
	}
	// A signal while the server closes closes it at once too.
	go func() {
		select {
		case sig := <-h.cfg.Hurry:
			h.log.Info("second signal, closing at once", "signal", sig.String())
			h.atOnce()
		case <-h.done:
		}
	}()
}

// waitDrain begins a drain of d and waits for its end, for a signal on
// Config.Hurry (then it closes at once and returns true) or for the last
// player or spectator to leave (looked at every PeopleCheck).
func (h *Host) waitDrain(d time.Duration) (hurried bool) {
	after := h.cfg.After
	if after == nil {
		after = time.After
	}
	h.srv.Drain(d)
	end := after(d)
	for {
		select {
		case <-end:
			h.log.Info("drained, closing")
			return false
		case sig := <-h.cfg.Hurry:
			h.log.Info("second signal, closing at once", "signal", sig.String())
			h.atOnce()
			return true
		case <-after(PeopleCheck):
			if h.srv.People() == 0 {
				h.log.Info("every player and spectator left: closing before the drain's end")
				return false
			}
		}
	}
}

// atOnce cuts the close's grace short and, with Config.Exit, exits the
// process ExitGrace later if the close is not over by then.
func (h *Host) atOnce() {
	h.hurry()
	if h.cfg.Exit == nil {
		return
	}
	go func() {
		select {
		case <-h.done:
		case <-time.After(ExitGrace):
			h.log.Error("still closing after the signal that asked to close at once; exiting now", "waited", ExitGrace)
			h.cfg.Exit(1)
		}
	}()
}

// hurry cuts the front ends' grace for their sessions short.
func (h *Host) hurry() {
	if h.ssh != nil {
		h.ssh.Hurry()
	}
	if h.browser != nil {
		h.browser.Hurry()
	}
}

// Close closes every service at once, in order (see Stop). It may be
// called more than once, from the goroutine that started the host.
func (h *Host) Close() {
	if h.closed {
		return
	}
	h.closed = true
	h.bots()
	if h.crowds != nil {
		h.crowds.close()
	}
	if h.summary != nil {
		close(h.summary)
	}
	if h.counters != nil {
		close(h.counters)
	}
	for _, page := range h.webs {
		page.Close()
	}
	var fronts sync.WaitGroup
	if h.ssh != nil {
		fronts.Go(func() { h.ssh.Close() })
	}
	if h.browser != nil {
		fronts.Go(func() { h.browser.Close() })
	}
	fronts.Wait()
	h.srv.Close()
	close(h.done)
}
