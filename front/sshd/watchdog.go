package sshd

import (
	"context"

	"gridlag/front/remote"
)

// watchdog gives the session its context and ends it when the player
// quits (the handler returns), when the connection drops, when the server
// closes, or when the remote.Watchdog ends it (idle player, stalled
// client); the last three make the tty's input fail so that the
// interface stops.
func (s *Server) watchdog(next sessionHandler) sessionHandler {
	return func(ss *session) {
		ctx, cancel := context.WithCancel(s.life.Ctx)
		defer cancel()
		stopConnWatch := context.AfterFunc(ss.Context(), cancel)
		defer stopConnWatch()
		context.AfterFunc(ctx, ss.tty.End)
		ss.ctx = ctx
		done := make(chan struct{})
		w := remote.Watchdog{Tty: ss.tty, Idle: s.opts.IdleTimeout, Killed: &ss.killed, Cancel: cancel, Log: ss.log}
		if ss.conn != nil {
			w.Cut = func() { ss.conn.Close() }
		}
		s.life.WG.Go(func() {
			w.Run(done)
		})
		next(ss)
		close(done)
	}
}
