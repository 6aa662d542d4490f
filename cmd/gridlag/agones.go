package main

import (
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/charmbracelet/log"

	"gridlag/ops/agones"
	"gridlag/server"
	"gridlag/server/world"
)

// agonesFlags are the flags of -server -agones.
type agonesFlags struct {
	on      bool
	timeout time.Duration
	health  time.Duration
}

// define defines the flags in fs.
func (a *agonesFlags) define(fs *flagSet) {
	fs.BoolVar(&a.on, "agones", false, "with -server: be an Agones game server, talking to the SDK sidecar on 127.0.0.1:$"+agones.PortEnv+" (default "+strconv.Itoa(agones.DefaultPort)+")")
	fs.duration(&a.timeout, "agones-timeout", agones.DefaultTimeout, timeoutKind, "with -agones: how long a call waits for the SDK sidecar before it fails")
	fs.duration(&a.health, "agones-health", server.DefaultHeartbeat, timeoutKind, "with -agones: the health ping period, from the world's goroutine (the Fleet's health.periodSeconds)")
}

// start returns the Agones side of a game server, or nil without -agones.
// It does not call the sidecar yet.
func (a agonesFlags) start(logger *log.Logger) (*agonesGame, error) {
	if !a.on {
		return nil, nil
	}
	ag, err := agones.NewGame(agones.Options{Timeout: a.timeout, Logger: logger.WithPrefix("agones")})
	if err != nil {
		return nil, err
	}
	return &agonesGame{Game: ag, health: a.health}, nil
}

// agonesGame is a game server's Agones side (agones.Game) and the
// period of its health pings.
type agonesGame struct {
	*agones.Game
	health time.Duration
}

// hook wires the server to the Agones side: the world's heartbeat to
// Health, its joins and leaves to the players List, each player "id:name"
// (e.g. "3:ann"). A nil agonesGame wires nothing.
func (ag *agonesGame) hook(o *server.Options) {
	if ag == nil {
		return
	}
	o.Heartbeat = ag.Beat
	o.HeartbeatInterval = ag.health
	o.OnEvent = func(ev world.Event) {
		switch ev.Kind {
		case world.EventJoin:
			ag.Joined(fmt.Sprintf("%d:%s", ev.Player, ev.Name))
		case world.EventLeave:
			ag.Left(fmt.Sprintf("%d:%s", ev.Player, ev.Name))
		}
	}
}

// serve runs the game g as an Agones game server (agones.Game.Serve)
// until a signal on sigs or Agones's Shutdown, draining it as sd says.
func (ag *agonesGame) serve(sigs <-chan os.Signal, g *game, sd shutdown) error {
	return ag.Serve(sigs, g.errCh, agones.Ending{Drain: func() { sd.run(sigs) }, For: sd.drain, Close: g.close})
}
