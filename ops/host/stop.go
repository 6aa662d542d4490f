package host

import (
	"context"
	"time"
)

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
//     or SIGTERM) ends it at once;
//  2. Close: each service is closed in order, the bots, the summaries,
//     the metrics and health pages, the SSH and web front ends (each
//     waits a grace period for its sessions), then the game server,
//     which tells everyone it stopped.
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

// drain warns the players and waits for the drain to end or for a signal
// on Config.Hurry.
func (h *Host) drain() {
	d := h.cfg.Drain
	if d <= 0 {
		return
	}
	after := h.cfg.After
	if after == nil {
		after = time.After
	}
	h.srv.Drain(d)
	select {
	case <-after(d):
		h.log.Info("drained, closing")
	case sig := <-h.cfg.Hurry:
		h.log.Info("second signal, closing at once", "signal", sig.String())
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
	if h.summary != nil {
		close(h.summary)
	}
	for _, page := range h.webs {
		page.Close()
	}
	if h.ssh != nil {
		h.ssh.Close()
	}
	if h.browser != nil {
		h.browser.Close()
	}
	h.srv.Close()
}
