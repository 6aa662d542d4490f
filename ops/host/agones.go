package host

import (
	"context"
	"fmt"
	"os"

	"gridlag/ops/agones"
	"gridlag/server"
	"gridlag/server/world"
)

// hookAgones wires the server to its Agones side: the world's heartbeat
// to Health, its joins and leaves to the players List, each player
// "id:name" (e.g. "3:ann").
func (h *Host) hookAgones(o *server.Options) {
	ag := h.ag
	o.Heartbeat = ag.Beat
	o.HeartbeatInterval = h.cfg.Agones.Health
	o.OnEvent = func(ev world.Event) {
		switch ev.Kind {
		case world.EventJoin:
			ag.Joined(fmt.Sprintf("%d:%s", ev.Player, ev.Name))
		case world.EventLeave:
			ag.Left(fmt.Sprintf("%d:%s", ev.Player, ev.Name))
		}
	}
}

// serveAgones serves as an Agones game server (agones.Game.Serve) until
// ctx ends or Agones says Shutdown, then drains and closes as Stop does.
func (h *Host) serveAgones(ctx context.Context) error {
	stop, done := make(chan os.Signal, 1), make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			var sig os.Signal = os.Interrupt
			if s, ok := context.Cause(ctx).(signalled); ok {
				sig = s.sig
			}
			stop <- sig
		case <-done:
		}
	}()
	return h.ag.Serve(stop, h.failed, agones.Ending{Drain: h.drain, For: h.cfg.Drain, Close: h.Close})
}
